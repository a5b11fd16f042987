package analyzers_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers"
	"github.com/ctrllint/ctrllint/internal/driver"
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
