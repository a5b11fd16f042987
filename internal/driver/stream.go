package driver

import (
	"context"
	"go/token"
	"sync"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/ctrllint/ctrllint/internal/driver/load"
	"github.com/ctrllint/ctrllint/internal/finding"
)

// The streaming path is how Analyze runs. Load (load.Packages)
// holds every root's syntax, types.Info and, while Run lasts, every
// root's SSA form at once: on kubernetes' pkg/controller that is most of
// a gigabyte. Here the go command lists the graph once (compiling
// dependencies for their export data, as Load's mode also does), the
// dependencies' types are decoded once and shared, and each root is
// parsed, type-checked, analysed and dropped in turn by a bounded pool,
// so that only GOMAXPROCS roots are alive at a time. On a re-run after
// an edit, the roots only roots import are listed without export data
// and type-checked once, their importers among the roots seeing those
// types (load/split.go): the go command compiles no edited leaf.

// analyzeStreaming lists cfg.Patterns and analyses the roots one at a time.
// Its results are Load+Run's; the error is a *LoadError for packages that
// could not be loaded or type-checked, with the findings of the others.
//
// analysed, when not nil, is called with each root analysed, its findings
// and analyzer errors, from the worker that analysed it.
func analyzeStreaming(ctx context.Context, cfg *Config, analysed func(*packages.Package, *Result)) (*Result, error) {
	cfg.phase(Loading)
	defer cfg.phase(Done)
	cfg.progress.listing(true)
	list := load.ListHedged
	if cfg.sources == load.Unbuilt {
		list = load.List
	}
	l, err := list(ctx, cfg.loadOptions(), cfg.sources)
	if err != nil {
		return &Result{}, err
	}
	return streamRoots(ctx, cfg, l, analysed)
}

// streamRoots type-checks and analyses the roots listed.
//
// Decoding the dependencies, one package at a time since each decode may
// add objects to the packages it mentions, is the run's critical path
// (docs/performance.md has the profile). So one goroutine decodes
// while workers take the roots in turn, parse them, wait until every
// package they can see is decoded, type-check and analyse them. What a
// root's analyzers see of its dependencies must not depend on how far
// decoding has got (kube.LookupPackage walks Imports(), keyflow reads an
// enum type's package scope): a package's Imports() and its complete
// scope are set when it is decoded and never change after, so a root
// waits for the decoded packages among its dependencies (load.DecodePlan),
// the packages not decoded are never read whole (only through the types
// of the root's imports), and cfg.WholePackages, whose scopes analyzers
// read, are decoded whole when they are in the graph. The type checker
// reads only the root's direct imports, as with go/packages, which also
// type-checks while it decodes.
//
// analysed, when not nil, is called with each root analysed, its findings
// and analyzer errors, from the worker that analysed it.
func streamRoots(ctx context.Context, cfg *Config, listed *load.Listing, analysed func(*packages.Package, *Result)) (*Result, error) {
	roots := listed.Roots
	out := &Result{}
	summarise := factAnalyzers(cfg.Analyzers)
	units := planUnits(roots, load.SourceDeps(listed), len(summarise) > 0, cfg.SummaryImports, cfg.Overlay)
	pkgs := make([]*packages.Package, len(units))
	for i, u := range units {
		pkgs[i] = u.pkg
	}
	deps := load.NewDeps(token.NewFileSet(), pkgs, listed)
	plan := load.DecodePlan(pkgs, cfg.WholePackages, listed.Source)
	decoded := load.NewProgress()
	cfg.progress.update(func(p *Progress) {
		p.Stage, p.Listed = Analysing, graphSize(listed.Roots)
		p.ToDecode = len(plan.Order)
		for _, u := range units {
			switch {
			case u.summary:
				p.Summaries++
			case u.dep:
				p.FromSource++
			default:
				p.Roots++
			}
		}
	})
	// The dependencies' types, decoded or type-checked from source, are
	// the heap that stays: the front end hears it grow with each, and
	// Decoded once all are in.
	loading := newLoading(cfg, 1)
	for _, u := range units {
		if providesTypes(u, listed) {
			loading.pending++
		}
	}
	decoderDone := make(chan struct{})
	go func() {
		defer close(decoderDone)
		for _, p := range plan.Order {
			if ctx.Err() != nil {
				break
			}
			deps.Decode(p) // a failure is the importer's error, reported by the root
			loading.grown()
			cfg.progress.update(func(pr *Progress) { pr.Decoded++ })
			decoded.Advance()
		}
		loading.done()
		decoded.Finish()
	}()

	rel := newReleases()
	facts := newFactViews()
	all := newGuarded(cfg.Analyzers, rel, facts, cfg.Overlay)
	summaries := newGuarded(summarise, rel, facts, cfg.Overlay)
	none := newGuarded(nil, rel, facts, cfg.Overlay)
	results := make([]rootResult, len(units))
	runUnits(ctx, units, plan.Roots, func(i int) {
		u, g := units[i], all
		switch {
		case u.summary:
			g = summaries
		case u.dep:
			g = none
		}
		results[i] = analyzeRoot(ctx, deps, u, plan.Need[i], decoded, g, rel, facts, cfg.Overlay)
		if providesTypes(u, listed) {
			loading.grown()
			loading.done()
		}
		root := !u.summary && !u.dep
		if root && ctx.Err() == nil {
			cfg.progress.update(func(p *Progress) { p.Analysed++ })
		}
		if r := results[i]; analysed != nil && root && r.pkg == nil && r.err == nil && r.res != nil && ctx.Err() == nil {
			r.res.Limits = rel.run.Limits.In(u.pkg.PkgPath)
			analysed(u.pkg, r.res)
		}
	})
	// The decoder stops too, and says Decoded before Done: Config.Phases
	// is called in order, never concurrently (waiting for the last decode
	// alone let Done come first).
	<-decoderDone
	out.Limits = rel.run.Limits.All()
	if err := ctx.Err(); err != nil {
		return out, err
	}

	var failed []*packages.Package
	listedAs := make(map[*packages.Package]*packages.Package)
	for i, r := range results {
		if r.err != nil {
			return out, r.err
		}
		if u := units[i]; u.summary || u.dep {
			// Its findings are not asked for, and a package that does not
			// type-check from source only has no facts to give, when the
			// go command built it. One without export data is what its
			// importers were type-checked against: they report it failed
			// (byImport), so it reports its own problems. An analyzer
			// that failed on it is still the analyzer's failure: its
			// importers' results may lack what it would have said.
			if r.pkg != nil && deps.IsSource(u.pkg) && !r.byImport {
				failed = append(failed, r.pkg)
				listedAs[r.pkg] = u.pkg
			}
			if r.res != nil {
				out.Errors = append(out.Errors, r.res.Errors...)
			}
			continue
		}
		if r.pkg != nil {
			if r.byImport {
				continue // reported from the root it imports
			}
			failed = append(failed, r.pkg)
			listedAs[r.pkg] = roots[i]
			continue
		}
		out.Findings = append(out.Findings, r.res.Findings...)
		out.Errors = append(out.Errors, r.res.Errors...)
		out.addParsed(r.res.parsed)
	}
	out.Findings = finding.Dedup(out.Findings)
	finding.Sort(out.Findings)
	sortErrors(out.Errors)
	// The listing already holds the whole graph, with the go command's
	// message for a dependency that failed to build.
	graphOf := func(pkgs []*packages.Package) []*packages.Package {
		var graph []*packages.Package
		for _, p := range pkgs {
			graph = append(graph, listedAs[p])
		}
		return graph
	}
	if err := load.Failure(failed, listed.Base, graphOf); err != nil {
		return out, err
	}
	return out, nil
}

// providesTypes reports whether u is a dependency whose type-check gives
// its importers its types (load.SourceDeps): part of the heap that stays.
func providesTypes(u unit, listed *load.Listing) bool {
	return (u.dep || u.summary) && listed.Source[u.pkg.ID]
}

// loading tells the front end the loading phases of a run: Grown as
// dependencies come in, from the decoder and the workers, one call at a
// time (Config.Phases), and Decoded once the last is in.
type loading struct {
	cfg     *Config
	mu      sync.Mutex
	pending int // the decoder, and the units providing types not done
}

func newLoading(cfg *Config, pending int) *loading { return &loading{cfg: cfg, pending: pending} }

func (l *loading) grown() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.pending > 0 {
		l.cfg.phase(Grown)
	}
}

func (l *loading) done() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.pending--; l.pending == 0 {
		l.cfg.phase(Decoded)
	}
}

// rootResult is one root's outcome: its findings, or (pkg != nil) the
// package with the errors that kept it from being analysed.
type rootResult struct {
	res *Result
	pkg *packages.Package
	// byImport: pkg failed only because a source root it imports did,
	// which reports the problems (as the go command's build of it did,
	// in the listing, when it had export data).
	byImport bool
	err      error // the checker itself failed
}

// analyzeRoot parses, type-checks and analyses one unit, once the
// packages it needs are decoded and the units below it are done. Nothing
// it builds outlives it but the findings and the facts it exports.
func analyzeRoot(ctx context.Context, deps *load.Deps, u unit, need int, decoded *load.Progress, g *guarded, rel *releases, facts *factViews, overlay map[string][]byte) rootResult {
	if ctx.Err() != nil {
		return rootResult{}
	}
	pkg := load.Root(u.pkg, deps.FileSet())
	parsed := load.Parse(pkg, overlay)
	if !decoded.Wait(need) {
		return rootResult{} // cancelled
	}
	if ok, byImport := load.CheckListed(u.pkg, pkg, deps, u.dep); !ok {
		// Only the errors and imports are needed to report it.
		pkg.Syntax, pkg.Types, pkg.TypesInfo, pkg.TypeErrors = nil, nil, nil, nil
		return rootResult{pkg: pkg, byImport: byImport}
	}
	res := &Result{parsed: parsed}
	if len(g.wrapped) == 0 {
		return rootResult{res: res}
	}
	facts.open(pkg.Types, u.paths)
	defer facts.close(pkg.Types)
	graph, err := checker.Analyze(g.wrapped, []*packages.Package{pkg}, nil)
	// Whatever happened, nothing reads this package's results any more.
	defer rel.release(pkg.Types)
	if err != nil {
		return rootResult{err: err}
	}
	collect(res, graph, g.orig)
	return rootResult{res: res}
}
