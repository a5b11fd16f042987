package driver

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"

	"github.com/ctrllint/ctrllint/internal/driver/load"
	"github.com/ctrllint/ctrllint/internal/edges"
)

// The packages a run analyses from source are its units: the roots, and,
// when some analyzer uses facts, the packages of the analysed modules (the
// roots' modules) whose functions a root's code calls by name (q.F(...),
// internal/edges) and that use one of the APIs the
// summaries are about; then the packages those name in turn, to any depth
// (summary units). A summary unit is analysed only for the facts it
// exports; its diagnostics are dropped. Dependencies of other modules stay
// export data: their behaviour that matters is known by name
// (analyzers/internal/kube), and analysing them from source would multiply
// a run's cost.
//
// What a package's findings may depend on is its own code and the facts
// of the packages it names that way, each computed from its own code and
// the facts of the packages it names in turn: a helper chain through any
// number of the module's packages is summarised bottom up
// (analyzers/internal/summary). Which packages a unit names is decided by
// its code alone, so every run makes the same units below a root, whatever
// else it analyses, and a result stored in the cache, keyed by the content
// of everything the package imports transitively, is the one any run
// would compute. The analyzers read facts only of the packages the type
// checker resolves those names to (summary.Visible), never more than the
// file's imports name here.
//
// Facts are keyed by package path, and so are units: "p [p.test]", when
// it is a root, is the unit of p for every importer (it is p with its
// in-package tests, whose extra objects an importer cannot name), and the
// variants the go command recompiles for a test ("q [p.test]") are q.

// A unit is one package analysed from source.
type unit struct {
	pkg     *packages.Package
	summary bool // analysed for facts only
	// dep: a dependency without export data (load.SourceDeps), only
	// type-checked, for its importers.
	dep bool
	// facts are the units whose facts it sees: those its code names, or,
	// without summaries, every unit it imports.
	facts []int
	// deps are the units it waits for: facts, and the roots it imports
	// (by ID, whatever variant), whose types it may need from their own
	// type-check (a source root, load/split.go).
	deps  []int
	paths []string // the package paths of facts
}

// planUnits returns the units for roots: the roots themselves, in their
// order, then (withSummaries) the summary units, each with the units its
// code names. A summary unit imports a package under one of prefixes (any
// package when prefixes is nil), as summary.Exports requires of a package
// that gives facts, and is not mostly generated code (API conversions and
// defaults, clients), which holds no helper a controller hands its objects
// or keys to. overlay holds edited files' contents (the editor server's).
//
// sourceDeps are the dependencies without export data that are not
// roots (load.SourceDeps), dependencies first: each that is no summary
// unit is a unit of its own, type-checked only, after the others.
func planUnits(roots, sourceDeps []*packages.Package, withSummaries bool, prefixes []string, overlay map[string][]byte) []unit {
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
	if !withSummaries {
		for i := range units {
			for _, imp := range units[i].pkg.Imports {
				if j, ok := byPath[imp.PkgPath]; ok && j != i && !slices.Contains(units[i].facts, j) {
					units[i].facts = append(units[i].facts, j)
				}
			}
			slices.Sort(units[i].facts)
		}
		return finishPlan(units, len(roots), sourceDeps)
	}
	mods := load.AnalysedModules(roots)
	candidate := func(p *packages.Package) bool {
		return p.Module != nil && mods[p.Module.Path] && p.ForTest == "" && importsUnder(p, prefixes) && !load.MostlyGenerated(p)
	}
	named := make([][]*packages.Package, 0, len(units))
	for i := 0; i < len(units); i++ {
		var reached []*packages.Package
		for _, path := range slices.Sorted(maps.Keys(namedImports(units[i].pkg, overlay, prefixes == nil))) {
			imp := units[i].pkg.Imports[path]
			if imp == nil {
				continue
			}
			if _, ok := byPath[imp.PkgPath]; !ok {
				if !candidate(imp) {
					continue
				}
				byPath[imp.PkgPath] = len(units)
				units = append(units, unit{pkg: imp, summary: true})
			}
			reached = append(reached, imp)
		}
		named = append(named, reached)
	}
	for i := range units {
		for _, imp := range named[i] {
			if j := byPath[imp.PkgPath]; j != i && !slices.Contains(units[i].facts, j) {
				units[i].facts = append(units[i].facts, j)
			}
		}
		slices.Sort(units[i].facts)
	}
	return finishPlan(units, len(roots), sourceDeps)
}

// finishPlan adds a unit for each of sourceDeps that is not one, makes
// each unit wait for the units whose facts it reads and for the units it
// imports that provide types (the roots, units[:nroots], and sourceDeps),
// breaks the cycles among the waits, and sets the paths of the facts
// kept.
func finishPlan(units []unit, nroots int, sourceDeps []*packages.Package) []unit {
	byID := make(map[string]int, nroots+len(sourceDeps))
	for i, u := range units[:nroots] {
		byID[u.pkg.ID] = i
	}
	isDep := make(map[string]bool, len(sourceDeps))
	for _, p := range sourceDeps {
		isDep[p.ID] = true
	}
	for i, u := range units[nroots:] {
		if isDep[u.pkg.ID] {
			byID[u.pkg.ID] = nroots + i // a summary unit provides its types
		}
	}
	for _, p := range sourceDeps {
		if _, ok := byID[p.ID]; !ok {
			byID[p.ID] = len(units)
			units = append(units, unit{pkg: p, dep: true})
		}
	}
	typed := make([]map[int]bool, len(units))
	for i := range units {
		u := &units[i]
		u.deps = slices.Clone(u.facts)
		for _, imp := range u.pkg.Imports {
			if j, ok := byID[imp.ID]; ok && j != i {
				if typed[i] == nil {
					typed[i] = make(map[int]bool)
				}
				typed[i][j] = true
				if !slices.Contains(u.deps, j) {
					u.deps = append(u.deps, j)
				}
			}
		}
		slices.Sort(u.deps)
	}
	breakCycles(units, typed)
	for i := range units {
		for _, j := range units[i].facts {
			units[i].paths = append(units[i].paths, units[j].pkg.PkgPath)
		}
	}
	return units
}

// namedImports parses p's files and returns the import paths its code
// calls by name (internal/edges), resolved by the
// files' imports. A file that cannot be read or parsed names nothing: the
// type checker will report it, and the analysis reads no facts for it.
func namedImports(p *packages.Package, overlay map[string][]byte, anyHeld bool) map[string]bool {
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range p.CompiledGoFiles {
		src, ok := overlay[name]
		if !ok {
			var err error
			if src, err = os.ReadFile(name); err != nil {
				continue
			}
		}
		if f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution); f != nil && err == nil {
			files = append(files, f)
		}
	}
	called, held := edges.Named(files, edges.Syntactic(func(path string) string {
		if imp := p.Imports[path]; imp != nil {
			return imp.Name
		}
		return ""
	}))
	return edges.Reach(called, held, func(path string) bool {
		imp := p.Imports[path]
		return imp != nil && (anyHeld || edges.UsesClients(slices.Collect(maps.Keys(imp.Imports))))
	})
}

// importsUnder reports whether p imports a package under one of prefixes
// (any package when prefixes is nil).
func importsUnder(p *packages.Package, prefixes []string) bool {
	if prefixes == nil {
		return true
	}
	for path := range p.Imports {
		for _, pre := range prefixes {
			if strings.HasPrefix(path, pre) {
				return true
			}
		}
	}
	return false
}

// breakCycles drops the facts waits that would close a cycle among
// units, so that no worker waits forever: the go command builds no cyclic
// graph, but two variants of one path (p and "p [p.test]") are one unit
// for facts, and a wait for facts is not worth a deadlock. The facts
// across a dropped wait are simply not seen, deterministically. A wait
// for a root a unit imports (typed) is never dropped: the importer may
// need its types, and those waits follow the go command's graph by ID,
// which has no cycle; a cycle they close is broken by the unit's facts
// waits instead.
func breakCycles(units []unit, typed []map[int]bool) {
	const (
		unseen = iota
		active
		finished
	)
	drop := func(i, j int) {
		units[i].deps = slices.DeleteFunc(units[i].deps, func(k int) bool { return k == j })
		units[i].facts = slices.DeleteFunc(units[i].facts, func(k int) bool { return k == j })
	}
	state := make([]int, len(units))
	var visit func(i int)
	visit = func(i int) {
		state[i] = active
		for _, j := range slices.Clone(units[i].deps) {
			switch {
			case state[j] == active && !typed[i][j]:
				drop(i, j)
			case state[j] == unseen:
				visit(j)
			}
		}
		state[i] = finished
	}
	for i := range units {
		if state[i] == unseen {
			visit(i)
		}
	}
	// A typed wait that closed a cycle was kept: the units of each cycle
	// left lose their facts waits among themselves.
	for _, comp := range cycles(units) {
		for i := range comp {
			for _, j := range slices.Clone(units[i].deps) {
				if comp[j] && !typed[i][j] {
					drop(i, j)
				}
			}
		}
	}
	// Only typed waits are left on them, which follow an acyclic graph;
	// should that ever fail, no wait is worth a deadlock.
	for _, comp := range cycles(units) {
		for i := range comp {
			units[i].deps = slices.DeleteFunc(units[i].deps, func(j int) bool { return comp[j] })
		}
	}
}

// cycles returns the strongly connected components of the waits that
// hold a cycle (Tarjan's algorithm).
func cycles(units []unit) []map[int]bool {
	index := make([]int, len(units)) // 0: unvisited; else order+1
	low := make([]int, len(units))
	onStack := make([]bool, len(units))
	var stack []int
	var out []map[int]bool
	next := 1
	var visit func(i int)
	visit = func(i int) {
		index[i], low[i] = next, next
		next++
		stack = append(stack, i)
		onStack[i] = true
		self := false
		for _, j := range units[i].deps {
			switch {
			case j == i:
				self = true
			case index[j] == 0:
				visit(j)
				low[i] = min(low[i], low[j])
			case onStack[j]:
				low[i] = min(low[i], index[j])
			}
		}
		if low[i] != index[i] {
			return
		}
		comp := make(map[int]bool)
		for {
			k := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[k] = false
			comp[k] = true
			if k == i {
				break
			}
		}
		if len(comp) > 1 || self {
			out = append(out, comp)
		}
	}
	for i := range units {
		if index[i] == 0 {
			visit(i)
		}
	}
	return out
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

// runUnits analyses units with GOMAXPROCS workers, each unit once the
// units it imports are done, preferring order; analyse is called for each
// unit, from the worker that takes it.
func runUnits(ctx context.Context, units []unit, order []int, analyse func(i int)) {
	sched := newSchedule(ctx, units, order)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(units)) {
		wg.Go(func() {
			for {
				i, ok := sched.take()
				if !ok {
					return
				}
				analyse(i)
				sched.done(i)
			}
		})
	}
	wg.Wait()
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
