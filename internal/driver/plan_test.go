package driver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

// graph builds packages from "path: imports..." lines.
func graph(t *testing.T, spec map[string][]string) map[string]*packages.Package {
	t.Helper()
	pkgs := make(map[string]*packages.Package)
	for path := range spec {
		pkgs[path] = &packages.Package{ID: path, PkgPath: path, Name: path, Imports: make(map[string]*packages.Package)}
	}
	for path, imps := range spec {
		for _, imp := range imps {
			if pkgs[imp] == nil {
				t.Fatalf("%s imports unknown %s", path, imp)
			}
			pkgs[path].Imports[imp] = pkgs[imp]
		}
	}
	return pkgs
}

func ids(ps []*packages.Package) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.ID)
	}
	return out
}

// The decoder decodes the roots' direct imports and the whole packages,
// each once, dependencies first, following the roots that see fewest of
// them; a root waits for every decoded package among its dependencies.
func TestDecodePlan(t *testing.T) {
	g := graph(t, map[string][]string{
		"a": {"x", "y"}, // root: sees x, y and (through y) w
		"b": {"y"},      // root: sees y and w
		"c": {"z"},      // root: sees z
		"x": {"y"},
		"y": {"w"},
		"w": {"v"},
		"z": nil,
		"v": nil, // never decoded: nobody imports it directly
	})
	roots := []*packages.Package{g["a"], g["b"], g["c"]}
	pl := decodePlan(roots, []string{"w"})
	if want := []string{"z", "w", "y", "x"}; !slices.Equal(ids(pl.order), want) {
		t.Errorf("order %v, want %v", ids(pl.order), want)
	}
	if want := []int{2, 1, 0}; !slices.Equal(pl.roots, want) { // c, b, a
		t.Errorf("roots in order %v, want %v", pl.roots, want)
	}
	if want := []int{4, 3, 1}; !slices.Equal(pl.need, want) {
		t.Errorf("need %v, want %v", pl.need, want)
	}
	// Without w among the whole packages, it is not decoded at all.
	if got := ids(decodePlan(roots, nil).order); slices.Contains(got, "w") {
		t.Errorf("order %v decodes w", got)
	}
}

// The rules hold on any graph: a root waits for every decoded package it
// depends on, and a package is decoded after the decoded packages it
// depends on.
func TestDecodePlanInvariants(t *testing.T) {
	g := graph(t, map[string][]string{
		"r1": {"p1", "p2", "p3"},
		"r2": {"p2", "r1"},
		"r3": {"p4"},
		"r4": nil,
		"p1": {"p2", "q1"},
		"p2": {"q2"},
		"p3": {"q1", "q2", "p4"},
		"p4": {"q3"},
		"q1": {"q3"},
		"q2": nil,
		"q3": nil,
	})
	roots := []*packages.Package{g["r1"], g["r2"], g["r3"], g["r4"]}
	pl := decodePlan(roots, []string{"q3"})
	pos := make(map[*packages.Package]int)
	for k, p := range pl.order {
		if _, dup := pos[p]; dup {
			t.Fatalf("%s decoded twice", p.ID)
		}
		pos[p] = k
	}
	var deps func(p *packages.Package, visit func(*packages.Package))
	deps = func(p *packages.Package, visit func(*packages.Package)) {
		for _, imp := range p.Imports {
			visit(imp)
			deps(imp, visit)
		}
	}
	for i, r := range roots {
		for _, imp := range r.Imports {
			if _, ok := pos[imp]; !ok {
				t.Errorf("%s's import %s not decoded", r.ID, imp.ID)
			}
		}
		deps(r, func(d *packages.Package) {
			if k, ok := pos[d]; ok && k >= pl.need[i] {
				t.Errorf("%s needs %d packages, but depends on %s, decoded %dth", r.ID, pl.need[i], d.ID, k+1)
			}
		})
	}
	for _, p := range pl.order {
		deps(p, func(d *packages.Package) {
			if k, ok := pos[d]; ok && k > pos[p] {
				t.Errorf("%s decoded before its dependency %s", p.ID, d.ID)
			}
		})
	}
	if _, ok := pos[g["q3"]]; !ok {
		t.Errorf("the whole package q3 is not decoded")
	}
	for j := 1; j < len(pl.roots); j++ {
		if pl.need[pl.roots[j-1]] > pl.need[pl.roots[j]] {
			t.Errorf("roots not in the order they become ready: %v (need %v)", pl.roots, pl.need)
		}
	}
}

func TestProgress(t *testing.T) {
	p := newProgress()
	if !p.wait(0) {
		t.Fatal("wait(0) failed")
	}
	done := make(chan bool)
	go func() { done <- p.wait(2) }()
	p.advance()
	select {
	case <-done:
		t.Fatal("wait(2) returned after one package")
	case <-time.After(20 * time.Millisecond):
	}
	p.advance()
	if !<-done {
		t.Fatal("wait(2) failed after two packages")
	}
	// Decoding stopped early (a cancelled run): waiters are let go, and
	// told so.
	go func() { done <- p.wait(5) }()
	p.finish()
	if <-done {
		t.Fatal("wait(5) succeeded with two packages decoded")
	}
}

// A run cancelled before or while roots are analysed stops, whatever
// the decoder and the workers were waiting for, and says why.
func TestStreamRootsCancelled(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "src", "current"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := &Config{Dir: dir, Patterns: []string{"./..."}, Analyzers: []*analysis.Analyzer{testanalyzers.BadCall}, Env: append(os.Environ(), "GOPROXY=off")}
	l, err := listRoots(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.roots) < 3 {
		t.Fatalf("%d roots: too few to cancel in between", len(l.roots))
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := streamRoots(cancelled, cfg, l.roots, l.base, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before: error %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	analysed := 0
	_, err = streamRoots(ctx, cfg, l.roots, l.base, func(*packages.Package, *Result) {
		mu.Lock()
		analysed++
		mu.Unlock()
		cancel()
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled after the first root: error %v", err)
	}
	if analysed == 0 || analysed > runtime.GOMAXPROCS(0) {
		t.Errorf("%d roots analysed after cancelling on the first", analysed)
	}
}

// decodePlan is quadratic in the graph (a bitset of dependencies per
// package): on a graph of kubernetes' size (about 2,500 packages for
// pkg/controller) it must stay a few milliseconds of a run of seconds.
func BenchmarkDecodePlan(b *testing.B) {
	const layers, width = 25, 100 // 2,500 packages
	var all [][]*packages.Package
	for l := range layers {
		var layer []*packages.Package
		for i := range width {
			id := fmt.Sprintf("p%d_%d", l, i)
			p := &packages.Package{ID: id, PkgPath: id, Imports: make(map[string]*packages.Package)}
			if l > 0 { // each imports a handful of the layer below
				for k := range 5 {
					q := all[l-1][(i*7+k*13)%width]
					p.Imports[q.PkgPath] = q
				}
			}
			layer = append(layer, p)
		}
		all = append(all, layer)
	}
	roots := all[layers-1][:width/2] // 50 roots on top of the graph
	b.ReportAllocs()
	for b.Loop() {
		decodePlan(roots, nil)
	}
}
