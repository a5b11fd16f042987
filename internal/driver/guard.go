package driver

import (
	"go/types"
	"runtime/debug"
	"slices"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/internal/crash"
	"github.com/ctrllint/ctrllint/internal/lend"
)

// guard returns stand-ins for analyzers (and everything they require)
// whose Run recovers panics. The checker runs each analyzer on its own
// goroutine, where a panic would kill the whole process and lose every
// other analyzer's findings; a bug in one analyzer must cost only that
// analyzer's results on that package.
//
// The stand-ins are copies, not the originals, so analyzers must not be
// mutated (they are package-level values shared with other front ends).
// Each copy hands the original Run a pass whose Analyzer and ResultOf are
// keyed by the original analyzers, because analyzer code looks up
// pass.ResultOf[inspect.Analyzer], not our copy.
//
// The stand-ins declare no fact types, so the checker does not run them
// on dependencies, which are loaded from export data without syntax. The
// facts of an analyzer that declares some are the driver's instead
// (facts.go): the copy hands the original a pass whose fact functions
// read and write the package's view in facts, which the caller opens for
// the package before the checker runs.
//
// The pass's ReadFile reads a file of overlay (Config.Overlay) from there:
// the analyzers read the text they parsed (an editor's unsaved buffer),
// which the offsets of their findings and fixes refer to, not the file on
// disk (edit.Indent, and edit.Checked applying fixes to type-check them).
//
// When rel is not nil, it is the run's state: lend.Analyzer hands it to
// the analyzers, and results that hold something borrowed from it
// (lend.Releaser) are recorded by package, for the caller to release once
// the package's analyzers are done: the checker keeps only the requested
// analyzers' results, so the caller could not find them otherwise.
func newGuarded(analyzers []*analysis.Analyzer, rel *releases, facts *factViews, overlay map[string][]byte) *guarded {
	g := &guarded{orig: make(map[*analysis.Analyzer]*analysis.Analyzer)}
	copies := make(map[*analysis.Analyzer]*analysis.Analyzer)
	var wrap func(a *analysis.Analyzer) *analysis.Analyzer
	wrap = func(a *analysis.Analyzer) *analysis.Analyzer {
		if w, ok := copies[a]; ok {
			return w
		}
		w := new(analysis.Analyzer)
		*w = *a
		copies[a] = w
		g.orig[w] = a
		w.Requires = make([]*analysis.Analyzer, len(a.Requires))
		for i, r := range a.Requires {
			w.Requires[i] = wrap(r)
		}
		w.FactTypes = nil
		if a == lend.Analyzer && rel != nil {
			w.Run = func(*analysis.Pass) (any, error) { return rel.run, nil }
			return w
		}
		w.Run = func(pass *analysis.Pass) (res any, err error) {
			inner := *pass
			inner.Analyzer = a
			if len(overlay) > 0 && pass.ReadFile != nil {
				inner.ReadFile = func(name string) ([]byte, error) {
					if b, ok := overlay[name]; ok {
						return b, nil
					}
					return pass.ReadFile(name)
				}
			}
			inner.ResultOf = make(map[*analysis.Analyzer]any, len(pass.ResultOf))
			for k, v := range pass.ResultOf {
				inner.ResultOf[g.orig[k]] = v
			}
			if len(a.FactTypes) > 0 {
				facts.of(pass.Pkg).install(&inner, a)
			}
			defer func() {
				if v := recover(); v != nil {
					p, ok := v.(*crash.Panic)
					if !ok { // the analyzer did not say where (crash.At)
						p = &crash.Panic{Value: v, Stack: string(debug.Stack())}
					}
					res, err = nil, p
				}
			}()
			res, err = a.Run(&inner)
			if rel != nil && err == nil {
				rel.add(pass.Pkg, res)
			}
			return res, err
		}
		return w
	}
	for _, a := range analyzers {
		g.wrapped = append(g.wrapped, wrap(a))
	}
	return g
}

// guarded are the stand-ins for a set of analyzers, and the original of
// each.
type guarded struct {
	wrapped []*analysis.Analyzer
	orig    map[*analysis.Analyzer]*analysis.Analyzer
}

// factAnalyzers are those of analyzers that use facts, themselves or
// through what they require: the analyzers a summary unit runs.
func factAnalyzers(analyzers []*analysis.Analyzer) []*analysis.Analyzer {
	var uses func(a *analysis.Analyzer) bool
	uses = func(a *analysis.Analyzer) bool {
		return len(a.FactTypes) > 0 || slices.ContainsFunc(a.Requires, uses)
	}
	var out []*analysis.Analyzer
	for _, a := range analyzers {
		if uses(a) {
			out = append(out, a)
		}
	}
	return out
}

// factViews are the facts of a run, and the view of them each package
// being analysed has.
type factViews struct {
	store *factStore
	mu    sync.Mutex
	views map[*types.Package]*factView
}

func newFactViews() *factViews {
	return &factViews{store: newFactStore(), views: make(map[*types.Package]*factView)}
}

// open gives pkg a view of the facts of the packages at paths (those
// below it), and its own.
func (f *factViews) open(pkg *types.Package, paths []string) {
	deps := make(map[string]bool, len(paths))
	for _, p := range paths {
		deps[p] = true
	}
	f.mu.Lock()
	f.views[pkg] = f.store.view(pkg, deps)
	f.mu.Unlock()
}

func (f *factViews) close(pkg *types.Package) {
	f.mu.Lock()
	delete(f.views, pkg)
	f.mu.Unlock()
}

// of is pkg's view; a package that was not opened sees no other
// package's facts.
func (f *factViews) of(pkg *types.Package) *factView {
	f.mu.Lock()
	defer f.mu.Unlock()
	if v := f.views[pkg]; v != nil {
		return v
	}
	v := f.store.view(pkg, nil)
	f.views[pkg] = v
	return v
}

// releases are the run's state lent to analyzers, and the results of the
// packages being analysed that hold some of it.
type releases struct {
	run   *lend.Run
	mu    sync.Mutex
	byPkg map[*types.Package][]lend.Releaser
}

func newReleases() *releases {
	return &releases{run: lend.NewRun(), byPkg: make(map[*types.Package][]lend.Releaser)}
}

func (r *releases) add(pkg *types.Package, res any) {
	if rr, ok := res.(lend.Releaser); ok {
		r.mu.Lock()
		r.byPkg[pkg] = append(r.byPkg[pkg], rr)
		r.mu.Unlock()
	}
}

// release releases pkg's results: call it when its analyzers are done.
func (r *releases) release(pkg *types.Package) {
	r.mu.Lock()
	rs := r.byPkg[pkg]
	delete(r.byPkg, pkg)
	r.mu.Unlock()
	for _, rr := range rs {
		rr.Release()
	}
}
