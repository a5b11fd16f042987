package tombstone_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers/tombstone"
	"github.com/ctrllint/ctrllint/internal/driver"
)

// BenchmarkAnalyze measures the analyzer alone (SSA construction included,
// loading excluded) on the fixture module compiled against client-go v0.37:
// the cost ctrllint adds on top of type-checking.
func BenchmarkAnalyze(b *testing.B) {
	cfg := fixtureConfig(b)
	pkgs, err := driver.Load(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		res, err := driver.Run(cfg, pkgs)
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Findings) == 0 {
			b.Fatal("no findings: the benchmark measures nothing")
		}
	}
	b.ReportMetric(float64(len(pkgs)), "packages")
}

// BenchmarkLoadAndAnalyze is the whole standalone run on the same module,
// with the build cache warm: what a user waits for.
func BenchmarkLoadAndAnalyze(b *testing.B) {
	cfg := fixtureConfig(b)
	for b.Loop() {
		if _, err := driver.Analyze(context.Background(), cfg); err != nil {
			b.Fatal(err)
		}
	}
}

func fixtureConfig(b *testing.B) *driver.Config {
	dir, err := filepath.Abs(fixture("current"))
	if err != nil {
		b.Fatal(err)
	}
	return &driver.Config{
		Dir:       dir,
		Patterns:  []string{"./..."},
		Analyzers: []*analysis.Analyzer{tombstone.Analyzer},
		Env:       append(os.Environ(), "GOPROXY=off"),
	}
}
