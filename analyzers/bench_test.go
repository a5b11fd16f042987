package analyzers_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/ctrllint/ctrllint/analyzers"
	"github.com/ctrllint/ctrllint/internal/driver"
	"github.com/ctrllint/ctrllint/internal/synthetic"
)

// BenchmarkAnalyze measures each analyzer alone, and all of them together
// (SSA construction included, loading excluded), on the fixture module
// compiled against client-go v0.37: the cost ctrllint adds on top of
// type-checking.
func BenchmarkAnalyze(b *testing.B) {
	cfg := fixtureConfig(b, analyzers.All())
	pkgs, err := driver.Load(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	run := func(b *testing.B, as []*analysis.Analyzer) {
		c := *cfg
		c.Analyzers = as
		for b.Loop() {
			res, err := driver.Run(&c, pkgs)
			if err != nil {
				b.Fatal(err)
			}
			if len(res.Findings) == 0 {
				b.Fatal("no findings: the benchmark measures nothing")
			}
		}
		b.ReportMetric(float64(len(pkgs)), "packages")
	}
	for _, a := range analyzers.All() {
		b.Run(a.Name, func(b *testing.B) { run(b, []*analysis.Analyzer{a}) })
	}
	b.Run("all", func(b *testing.B) { run(b, analyzers.All()) })
}

// BenchmarkLoadAndAnalyze is the whole standalone run on the same module,
// with the build cache warm: what a user waits for.
func BenchmarkLoadAndAnalyze(b *testing.B) {
	cfg := fixtureConfig(b, analyzers.All())
	for b.Loop() {
		if _, err := driver.Analyze(context.Background(), cfg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGeneratedFile is the analysis (loading excluded) of a package
// whose generated files dwarf its hand-written code (internal/synthetic:
// deep copies, defaulters and listers of 258 kinds, some 47,000 lines,
// beside a controller of 58): issue 29's case, where everything the
// analyzers would find in generated files is dropped. Its one finding is
// the controller's, which the generated defaulter explains.
func BenchmarkGeneratedFile(b *testing.B) {
	cfg, pkgs, lines := loadSynthetic(b, 258)
	for b.Loop() {
		res, err := driver.Run(cfg, pkgs)
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Findings) != 1 {
			b.Fatalf("%d findings, want the controller's one", len(res.Findings))
		}
	}
	b.ReportMetric(float64(lines), "generated-lines")
}

// loadSynthetic writes internal/synthetic's package of kinds generated
// kinds beside a small controller into a module of its own, compiled
// against the current fixture module's dependencies, and loads it for
// driver.Run. lines is the number of generated lines.
func loadSynthetic(tb testing.TB, kinds int) (cfg *driver.Config, pkgs []*packages.Package, lines int) {
	dir, err := filepath.EvalSymlinks(tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	fixture, err := filepath.Abs(filepath.Join("..", "testdata", "src", "current"))
	if err != nil {
		tb.Fatal(err)
	}
	if lines, err = synthetic.Write(dir, fixture, "example.com/widgets", "widgets", kinds); err != nil {
		tb.Fatal(err)
	}
	cfg = &driver.Config{
		Dir:       dir,
		Patterns:  []string{"./..."},
		Analyzers: analyzers.All(),
		Env:       append(os.Environ(), "GOPROXY=off"),
	}
	if pkgs, err = driver.Load(context.Background(), cfg); err != nil {
		tb.Fatal(err)
	}
	return cfg, pkgs, lines
}

func fixtureConfig(b *testing.B, as []*analysis.Analyzer) *driver.Config {
	dir, err := filepath.Abs(filepath.Join("..", "testdata", "src", "current"))
	if err != nil {
		b.Fatal(err)
	}
	return &driver.Config{
		Dir:       dir,
		Patterns:  []string{"./..."},
		Analyzers: as,
		Env:       append(os.Environ(), "GOPROXY=off"),
	}
}
