package driver

import (
	"context"
	"slices"
	"sync"

	"golang.org/x/tools/go/packages"
)

// The packages a run analyses from source are its units: the roots, and,
// when some analyzer uses facts, the packages of the analysed modules (the
// roots' modules) that the roots import without naming them (summary
// units). A summary
// unit is analysed only for the facts it exports; its diagnostics are
// dropped. Dependencies of other modules stay export data: their
// behaviour that matters is known by name (analyzers/internal/kube), and
// analysing them from source would multiply a run's cost.
//
// Facts are keyed by package path, and so are units: "p [p.test]", when
// it is a root, is the unit of p for every importer (it is p with its
// in-package tests, whose extra objects an importer cannot name), and the
// variants the go command recompiles for a test ("q [p.test]") are q.

// A unit is one package analysed from source.
type unit struct {
	pkg     *packages.Package
	summary bool     // analysed for facts only
	deps    []int    // the units it must wait for: those it imports, directly or not
	paths   []string // the package paths of deps, whose facts it sees
}

// analysedModules are the modules of the roots, by path: their other
// packages are the summary units. A module's version does not matter: the
// corpus analyses kubernetes as a module required at a version.
func analysedModules(roots []*packages.Package) map[string]bool {
	mods := make(map[string]bool)
	for _, r := range roots {
		if m := r.Module; m != nil && m.Path != "" {
			mods[m.Path] = true
		}
	}
	return mods
}

// planUnits returns the units for roots: the roots themselves, in their
// order, then (withSummaries) the summary units, each with the units it
// waits for.
func planUnits(roots []*packages.Package, withSummaries bool) []unit {
	units := make([]unit, 0, len(roots))
	byPath := make(map[string]int)
	for _, r := range roots {
		units = append(units, unit{pkg: r})
		// A root with in-package tests covers its path; otherwise the
		// first root of a path does (a path is listed once without tests).
		if i, ok := byPath[r.PkgPath]; !ok || r.ForTest == r.PkgPath && units[i].pkg.ForTest != r.PkgPath {
			byPath[r.PkgPath] = len(units) - 1
		}
	}
	if withSummaries {
		mods := analysedModules(roots)
		packages.Visit(roots, nil, func(p *packages.Package) {
			if _, ok := byPath[p.PkgPath]; ok || p.Module == nil || !mods[p.Module.Path] || p.ForTest != "" {
				return
			}
			byPath[p.PkgPath] = len(units)
			units = append(units, unit{pkg: p, summary: true})
		})
	}
	// The units below each unit, through the listed graph by path.
	memo := make(map[*packages.Package][]string)
	var below func(p *packages.Package) []string
	below = func(p *packages.Package) []string {
		if ps, ok := memo[p]; ok {
			return ps
		}
		memo[p] = nil // an import cycle (impossible in a built graph) stops here
		var ps []string
		for _, imp := range p.Imports {
			if _, ok := byPath[imp.PkgPath]; ok {
				ps = append(ps, imp.PkgPath)
			}
			ps = append(ps, below(imp)...)
		}
		slices.Sort(ps)
		ps = slices.Compact(ps)
		memo[p] = ps
		return ps
	}
	for i := range units {
		for _, path := range below(units[i].pkg) {
			if j := byPath[path]; j != i {
				units[i].deps = append(units[i].deps, j)
				units[i].paths = append(units[i].paths, path)
			}
		}
	}
	breakCycles(units)
	return units
}

// breakCycles drops the waits that would close a cycle among units, so
// that no worker waits forever: the go command builds no cyclic graph,
// but two variants of one path (p and "p [p.test]") are one unit, and a
// wait is not worth a deadlock. The facts across a dropped wait are
// simply not seen.
func breakCycles(units []unit) {
	const (
		unseen = iota
		active
		finished
	)
	state := make([]int, len(units))
	var visit func(i int)
	visit = func(i int) {
		state[i] = active
		kept := units[i].deps[:0]
		for _, j := range units[i].deps {
			if state[j] == active {
				continue
			}
			if state[j] == unseen {
				visit(j)
			}
			kept = append(kept, j)
		}
		units[i].deps = kept
		state[i] = finished
	}
	for i := range units {
		if state[i] == unseen {
			visit(i)
		}
	}
}

// A schedule hands units to workers once every unit they wait for is
// done, preferring the order given (the decoding plan's).
type schedule struct {
	mu         sync.Mutex
	cond       *sync.Cond
	rank       []int // by unit: its place in the preferred order
	waiting    []int // by unit: how many of its deps are not done
	dependents [][]int
	ready      []int // sorted by rank
	left       int   // units not yet taken
	cancelled  bool
}

func newSchedule(ctx context.Context, units []unit, order []int) *schedule {
	s := &schedule{
		rank:       make([]int, len(units)),
		waiting:    make([]int, len(units)),
		dependents: make([][]int, len(units)),
		left:       len(units),
	}
	s.cond = sync.NewCond(&s.mu)
	for r, i := range order {
		s.rank[i] = r
	}
	for i, u := range units {
		s.waiting[i] = len(u.deps)
		for _, d := range u.deps {
			s.dependents[d] = append(s.dependents[d], i)
		}
	}
	for i := range units {
		if s.waiting[i] == 0 {
			s.push(i)
		}
	}
	context.AfterFunc(ctx, func() {
		s.mu.Lock()
		s.cancelled = true
		s.mu.Unlock()
		s.cond.Broadcast()
	})
	return s
}

func (s *schedule) push(i int) {
	at, _ := slices.BinarySearchFunc(s.ready, s.rank[i], func(j, r int) int { return s.rank[j] - r })
	s.ready = slices.Insert(s.ready, at, i)
}

// take waits for a unit whose deps are done; ok is false when every unit
// was taken or the run was cancelled.
func (s *schedule) take() (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.ready) == 0 && s.left > 0 && !s.cancelled {
		s.cond.Wait()
	}
	if s.cancelled || len(s.ready) == 0 {
		return 0, false
	}
	i := s.ready[0]
	s.ready = s.ready[1:]
	s.left--
	return i, true
}

// done marks unit i done, whatever became of it: a unit that could not
// be analysed exports no facts, and its dependents go on without them.
func (s *schedule) done(i int) {
	s.mu.Lock()
	for _, d := range s.dependents[i] {
		if s.waiting[d]--; s.waiting[d] == 0 {
			s.push(d)
		}
	}
	s.mu.Unlock()
	s.cond.Broadcast()
}
