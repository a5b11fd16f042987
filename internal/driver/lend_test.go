package driver_test

import (
	"reflect"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/internal/driver"
	"github.com/ctrllint/ctrllint/internal/lend"
	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

// borrowed is a result holding something lent by the run.
type borrowed struct {
	pkg      string
	run      *lend.Run
	mu       *sync.Mutex
	released map[string]int
}

func (b *borrowed) Release() {
	b.mu.Lock()
	b.released[b.pkg]++
	b.mu.Unlock()
}

// The driver owns the run's state: every package of one Analyze sees the
// same *lend.Run, another Analyze gets another, and each package's result
// is released once, after its analyzers are done with it. The editor
// server's path (Load+Run) lends nothing.
func TestRunStateIsLentAndReleased(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{
		"a.go":   "package m\n\nimport _ \"example.com/m/b\"\n",
		"b/b.go": "package b\n\nimport _ \"example.com/m/c\"\n",
		"c/c.go": "package c\n",
	})
	var mu sync.Mutex
	released := make(map[string]int)
	var seen []*lend.Run
	holder := &analysis.Analyzer{
		Name:       "holder",
		Doc:        "borrows from the run",
		Requires:   []*analysis.Analyzer{lend.Analyzer},
		ResultType: reflect.TypeFor[*borrowed](),
		Run: func(pass *analysis.Pass) (any, error) {
			mu.Lock()
			defer mu.Unlock()
			seen = append(seen, lend.Of(pass))
			return &borrowed{pkg: pass.Pkg.Path(), run: lend.Of(pass), mu: &mu, released: released}, nil
		},
	}
	var stillHeld []string
	user := &analysis.Analyzer{
		Name:     "user",
		Doc:      "reads the borrowed result",
		Requires: []*analysis.Analyzer{holder},
		Run: func(pass *analysis.Pass) (any, error) {
			b := pass.ResultOf[holder].(*borrowed)
			mu.Lock()
			defer mu.Unlock()
			if released[b.pkg] != 0 {
				stillHeld = append(stillHeld, b.pkg)
			}
			return nil, nil
		},
	}
	runs := make(map[*lend.Run]bool)
	total := make(map[string]int)
	for range 2 {
		seen = nil
		clear(released)
		if _, err := analyze(t, dir, driver.Config{Analyzers: []*analysis.Analyzer{user}}); err != nil {
			t.Fatal(err)
		}
		if len(seen) != 3 {
			t.Fatalf("holder ran on %d packages, want 3", len(seen))
		}
		for _, r := range seen {
			if r == nil || r != seen[0] {
				t.Fatalf("the packages of one run saw lent states %v, want one non-nil", seen)
			}
		}
		runs[seen[0]] = true
		for p, n := range released {
			total[p] += n
		}
	}
	if len(runs) != 2 {
		t.Error("two runs were lent the same state")
	}
	if len(stillHeld) != 0 {
		t.Errorf("released before its analyzers were done: %v", stillHeld)
	}
	for _, p := range []string{"example.com/m", "example.com/m/b", "example.com/m/c"} {
		if total[p] != 2 {
			t.Errorf("%s released %d times in two runs, want 2", p, total[p])
		}
	}

	seen = nil
	cfg := &driver.Config{Dir: dir, Patterns: []string{"./..."}, Analyzers: []*analysis.Analyzer{user}}
	if _, err := loadAndRun(t, cfg); err != nil {
		t.Fatal(err)
	}
	for _, r := range seen {
		if r != nil {
			t.Fatal("Load+Run lent run state, which nothing would release")
		}
	}
}
