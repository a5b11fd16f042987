package load

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"golang.org/x/tools/go/packages"
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
	pl := DecodePlan(roots, []string{"w"}, nil)
	if want := []string{"z", "w", "y", "x"}; !slices.Equal(ids(pl.Order), want) {
		t.Errorf("order %v, want %v", ids(pl.Order), want)
	}
	if want := []int{2, 1, 0}; !slices.Equal(pl.Roots, want) { // c, b, a
		t.Errorf("roots in order %v, want %v", pl.Roots, want)
	}
	if want := []int{4, 3, 1}; !slices.Equal(pl.Need, want) {
		t.Errorf("need %v, want %v", pl.Need, want)
	}
	// Without w among the whole packages, it is not decoded at all.
	if got := ids(DecodePlan(roots, nil, nil).Order); slices.Contains(got, "w") {
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
	pl := DecodePlan(roots, []string{"q3"}, nil)
	pos := make(map[*packages.Package]int)
	for k, p := range pl.Order {
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
			if k, ok := pos[d]; ok && k >= pl.Need[i] {
				t.Errorf("%s needs %d packages, but depends on %s, decoded %dth", r.ID, pl.Need[i], d.ID, k+1)
			}
		})
	}
	for _, p := range pl.Order {
		deps(p, func(d *packages.Package) {
			if k, ok := pos[d]; ok && k > pos[p] {
				t.Errorf("%s decoded before its dependency %s", p.ID, d.ID)
			}
		})
	}
	if _, ok := pos[g["q3"]]; !ok {
		t.Errorf("the whole package q3 is not decoded")
	}
	for j := 1; j < len(pl.Roots); j++ {
		if pl.Need[pl.Roots[j-1]] > pl.Need[pl.Roots[j]] {
			t.Errorf("roots not in the order they become ready: %v (need %v)", pl.Roots, pl.Need)
		}
	}
}

func TestProgress(t *testing.T) {
	p := NewProgress()
	if !p.Wait(0) {
		t.Fatal("wait(0) failed")
	}
	done := make(chan bool)
	go func() { done <- p.Wait(2) }()
	p.Advance()
	select {
	case <-done:
		t.Fatal("wait(2) returned after one package")
	case <-time.After(20 * time.Millisecond):
	}
	p.Advance()
	if !<-done {
		t.Fatal("wait(2) failed after two packages")
	}
	// Decoding stopped early (a cancelled run): waiters are let go, and
	// told so.
	go func() { done <- p.Wait(5) }()
	p.Finish()
	if <-done {
		t.Fatal("wait(5) succeeded with two packages decoded")
	}
}

// DecodePlan is quadratic in the graph (a bitset of dependencies per
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
		DecodePlan(roots, nil, nil)
	}
}
