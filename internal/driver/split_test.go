package driver_test

import (
	"context"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/internal/driver"
	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

// Roots that only roots import are type-checked once, from source, and
// their importers see those types (load/split.go); roots that other
// packages depend on keep their export data. Either way the findings are
// Load+Run's, on every root, external tests included.
func TestStreamingSourceRootsMatchLoad(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{
		"b/b.go":      "package b\n\nfunc bad() {}\n\ntype T struct{}\n\nfunc New() T { bad(); return T{} }\n",
		"b/b_test.go": "package b\n\nfunc init() { bad() }\n",
		"b/x_test.go": "package b_test\n\nimport \"example.com/m/b\"\n\nfunc bad() {}\n\nvar _ b.T = b.New()\n\nfunc init() { bad() }\n",
		"c/c.go":      "package c\n\nimport \"example.com/m/d\"\n\nfunc bad() {}\n\nvar X d.T = d.New()\n\nfunc init() { bad() }\n",
		"d/d.go":      "package d\n\nfunc bad() {}\n\ntype T struct{}\n\nfunc New() T { bad(); return T{} }\n",
		"d/d_test.go": "package d\n\nfunc init() { bad() }\n",
		"d/x_test.go": "package d_test\n\nimport (\n\t\"example.com/m/c\"\n\t\"example.com/m/d\"\n)\n\nfunc bad() {}\n\nvar _ d.T = c.X\n\nfunc init() { bad() }\n",
		"e/e.go":      "package e\n\nimport \"example.com/m/c\"\n\nfunc bad() {}\n\nvar _ = c.X\n\nfunc init() { bad() }\n",
	})
	for _, tests := range []bool{false, true} {
		cfg := &driver.Config{Dir: dir, Patterns: []string{"./..."}, Tests: tests, Analyzers: []*analysis.Analyzer{testanalyzers.BadCall}}
		want, werr := loadAndRun(t, cfg)
		if werr != nil {
			t.Fatalf("tests=%v: Load: %v", tests, werr)
		}
		got, err := driver.Analyze(context.Background(), cfg)
		if err != nil {
			t.Fatalf("tests=%v: Analyze: %v", tests, err)
		}
		g, w := lines(dir, got.Findings), lines(dir, want.Findings)
		if !slices.Equal(g, w) {
			t.Errorf("tests=%v: Analyze found\n%v\nLoad+Run\n%v", tests, g, w)
		}
		n := 4     // one in each of b, c, d and e
		if tests { // and in b_test.go, d_test.go and both external tests
			n = 8
		}
		if len(g) != n {
			t.Errorf("tests=%v: %d findings, want %d: %v", tests, len(g), n, g)
		}
	}
}
