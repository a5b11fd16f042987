package driver

import (
	"context"
	"crypto/sha256"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"io"
	"math/bits"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/packages"

	"github.com/ctrllint/ctrllint/internal/finding"
)

// The streaming path is how Analyze runs. Load
// holds every root's syntax, types.Info and, while Run lasts, every
// root's SSA form at once: on kubernetes' pkg/controller that is most of
// a gigabyte. Here the go command lists the graph once (compiling
// dependencies for their export data, as Load's mode also does), the
// dependencies' types are decoded once and shared, and each root is
// parsed, type-checked, analysed and dropped in turn by a bounded pool,
// so that only GOMAXPROCS roots are alive at a time.

// listMode is Load's mode without type-checking: NeedExportFile makes the
// go command build the export data that type-checking the roots needs,
// NeedDeps gives the whole graph, so that the importer can offer the
// export data decoder every package it may mention.
const listMode = rootMode&^(packages.NeedTypes|packages.NeedSyntax|packages.NeedTypesInfo) |
	packages.NeedDeps | packages.NeedExportFile

// streamed is what the streaming path found.
type streamed struct {
	res *Result
	// analysed are the IDs of the roots the analyzers ran on: loaded and
	// type-checked without errors.
	analysed []string
}

// analyzeStreaming lists cfg.Patterns and analyses the roots one at a time.
// Its results are Load+Run's; the error is a *LoadError for packages that
// could not be loaded or type-checked, with the findings of the others.
func analyzeStreaming(ctx context.Context, cfg *Config) (*streamed, error) {
	cfg.phase(Loading)
	defer cfg.phase(Done)
	l, err := listRoots(ctx, cfg)
	if err != nil {
		return &streamed{res: &Result{}}, err
	}
	return streamRoots(ctx, cfg, l.roots, l.base, nil)
}

// listing is the streaming path's one go list: the roots, with the
// whole dependency graph and its export data reachable from them.
type listing struct {
	roots []*packages.Package
	base  string // the go command's directory, absolute
}

// listRoots lists cfg.Patterns, failing as Load does when the go command
// fails or nothing matches.
func listRoots(ctx context.Context, cfg *Config) (*listing, error) {
	if len(cfg.Patterns) == 0 {
		return nil, ErrNoPatterns
	}
	listed, err := packages.Load(packagesConfig(ctx, cfg, listMode), cfg.Patterns...)
	if ctx.Err() != nil {
		// The go command was interrupted: what it said, or listed, is
		// not about the packages.
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, &LoadError{Problems: []Problem{{Msg: strings.TrimSpace(err.Error())}}}
	}
	base := baseDir(cfg)
	roots := selectVariants(listed)
	if len(roots) == 0 {
		return nil, &LoadError{Problems: []Problem{{Msg: fmt.Sprintf("no packages matched %s", strings.Join(cfg.Patterns, " "))}}}
	}
	return &listing{roots: roots, base: base}, nil
}

// streamRoots type-checks and analyses roots, listed by listRoots.
//
// Decoding the dependencies, one package at a time since each decode may
// add objects to the packages it mentions, is the run's critical path:
// a quarter of the CPU on controller-runtime. So one goroutine decodes
// while workers take the roots in turn, parse them, wait until every
// package they can see is decoded, type-check and analyse them. What a
// root's analyzers see of its dependencies must not depend on how far
// decoding has got (kube.LookupPackage walks Imports(), keyflow reads an
// enum type's package scope): a package's Imports() and its complete
// scope are set when it is decoded and never change after, so a root
// waits for the decoded packages among its dependencies (decodePlan),
// the packages not decoded are never read whole (only through the types
// of the root's imports), and cfg.WholePackages, whose scopes analyzers
// read, are decoded whole when they are in the graph. The type checker
// reads only the root's direct imports, as with go/packages, which also
// type-checks while it decodes.
//
// analysed, when not nil, is called with each root analysed, its findings
// and analyzer errors, from the worker that analysed it.
func streamRoots(ctx context.Context, cfg *Config, roots []*packages.Package, base string, analysed func(*packages.Package, *Result)) (*streamed, error) {
	out := &streamed{res: &Result{}}
	deps := newExportTypes(token.NewFileSet(), roots)
	plan := decodePlan(roots, cfg.WholePackages)
	decoded := newProgress()
	go func() {
		for _, p := range plan.order {
			if ctx.Err() != nil {
				break
			}
			deps.load(p) // a failure is the importer's error, reported by the root
			cfg.phase(Grown)
			decoded.advance()
		}
		cfg.phase(Decoded)
		decoded.finish()
	}()

	workers := runtime.GOMAXPROCS(0)
	rel := newReleases()
	wrapped, orig := guard(cfg.Analyzers, rel)
	results := make([]rootResult, len(roots))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, len(roots)) {
		wg.Go(func() {
			for i := range next {
				results[i] = analyzeRoot(ctx, cfg, deps, roots[i], plan.need[i], decoded, wrapped, orig, rel)
				if r := results[i]; analysed != nil && r.pkg == nil && r.err == nil && r.res != nil && ctx.Err() == nil {
					analysed(roots[i], r.res)
				}
			}
		})
	}
feed:
	for _, i := range plan.roots {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	decoded.wait(len(plan.order)) // the decoder stops too
	if err := ctx.Err(); err != nil {
		return out, err
	}

	var probs []Problem
	var unexplained []*packages.Package
	for i, r := range results {
		if r.err != nil {
			return out, r.err
		}
		if r.pkg == nil {
			out.analysed = append(out.analysed, roots[i].ID)
			out.res.Findings = append(out.res.Findings, r.res.Findings...)
			out.res.Errors = append(out.res.Errors, r.res.Errors...)
			out.res.addParsed(r.res.parsed)
			continue
		}
		n := len(probs)
		probs = append(probs, packageProblems(r.pkg, base)...)
		if len(probs) == n {
			unexplained = append(unexplained, roots[i])
		}
	}
	if len(unexplained) > 0 {
		// Neither they nor their direct imports carry an error: some
		// dependency further down failed to build, and the listing
		// already holds the go command's message for it.
		probs = append(probs, explainGraph(unexplained, unexplained, base)...)
	}
	out.res.Findings = finding.Dedup(out.res.Findings)
	finding.Sort(out.res.Findings)
	sortErrors(out.res.Errors)
	if len(probs) > 0 {
		return out, &LoadError{Problems: sortProblems(probs)}
	}
	return out, nil
}

// rootResult is one root's outcome: its findings, or (pkg != nil) the
// package with the errors that kept it from being analysed.
type rootResult struct {
	res *Result
	pkg *packages.Package
	err error // the checker itself failed
}

// plan is the order of the streaming path's work.
type plan struct {
	order []*packages.Package // the packages to decode, in turn
	roots []int               // the roots' indices, in the order to analyse them
	need  []int               // by root: how many of order it must wait for
}

// decodePlan decides what to decode and in which order. What is decoded
// is every root's direct imports (the set go/packages decodes for Load)
// and the packages of the graph whose path is in whole. A root needs the
// decoded packages among its dependencies; roots needing fewer go first,
// and the decoding follows them, so that the first analyses start while
// the bulk of the graph is still being decoded.
func decodePlan(roots []*packages.Package, whole []string) plan {
	// Number the graph, dependencies first.
	var graph []*packages.Package
	index := make(map[*packages.Package]int)
	packages.Visit(roots, nil, func(p *packages.Package) {
		index[p] = len(graph)
		graph = append(graph, p)
	})
	decodes := newBitset(len(graph))
	for _, r := range roots {
		for _, imp := range r.Imports {
			decodes.add(index[imp])
		}
	}
	for i, p := range graph {
		if slices.Contains(whole, p.PkgPath) {
			decodes.add(i)
		}
	}
	// deps[i]: the packages package i depends on, directly or not.
	deps := make([]bitset, len(graph))
	for i, p := range graph {
		deps[i] = newBitset(len(graph))
		for _, imp := range p.Imports {
			j := index[imp]
			deps[i].add(j)
			deps[i].or(deps[j])
		}
	}
	pl := plan{need: make([]int, len(roots))}
	needs := make([]bitset, len(roots))
	count := make([]int, len(roots))
	for i, r := range roots {
		needs[i] = deps[index[r]].and(decodes)
		count[i] = needs[i].count()
		pl.roots = append(pl.roots, i)
	}
	slices.SortStableFunc(pl.roots, func(a, b int) int { return count[a] - count[b] })
	ordered := newBitset(len(graph))
	for _, i := range pl.roots {
		for j := range graph {
			if needs[i].has(j) && !ordered.has(j) {
				ordered.add(j)
				pl.order = append(pl.order, graph[j])
			}
		}
		pl.need[i] = len(pl.order)
	}
	return pl
}

// bitset is a set of small non-negative integers.
type bitset []uint64

func newBitset(n int) bitset    { return make(bitset, (n+63)/64) }
func (b bitset) add(i int)      { b[i/64] |= 1 << (i % 64) }
func (b bitset) has(i int) bool { return b[i/64]&(1<<(i%64)) != 0 }

func (b bitset) or(c bitset) {
	for i := range b {
		b[i] |= c[i]
	}
}

func (b bitset) and(c bitset) bitset {
	out := make(bitset, len(b))
	for i := range b {
		out[i] = b[i] & c[i]
	}
	return out
}

func (b bitset) count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

// analyzeRoot parses, type-checks and analyses one root, once the
// packages it needs are decoded. Nothing it builds outlives it but the
// findings.
func analyzeRoot(ctx context.Context, cfg *Config, deps *exportTypes, root *packages.Package, need int, decoded *progress, wrapped []*analysis.Analyzer, orig map[*analysis.Analyzer]*analysis.Analyzer, rel *releases) rootResult {
	if ctx.Err() != nil {
		return rootResult{}
	}
	pkg := &packages.Package{
		ID:              root.ID,
		Name:            root.Name,
		PkgPath:         root.PkgPath,
		Errors:          slices.Clone(root.Errors),
		GoFiles:         root.GoFiles,
		CompiledGoFiles: root.CompiledGoFiles,
		OtherFiles:      root.OtherFiles,
		EmbedFiles:      root.EmbedFiles,
		EmbedPatterns:   root.EmbedPatterns,
		IgnoredFiles:    root.IgnoredFiles,
		ExportFile:      root.ExportFile,
		Imports:         root.Imports,
		Module:          root.Module,
		ForTest:         root.ForTest,
		Fset:            deps.fset,
		TypesSizes:      root.TypesSizes,
	}
	parsed := parseFiles(pkg)
	if !decoded.wait(need) {
		return rootResult{} // cancelled
	}
	failed := checkTypes(pkg, deps)
	if len(pkg.Errors) > 0 || failed {
		pkg.Errors = dropFailedImports(pkg)
		// Only the errors and imports are needed to report it.
		pkg.Syntax, pkg.Types, pkg.TypesInfo, pkg.TypeErrors = nil, nil, nil, nil
		return rootResult{pkg: pkg}
	}
	res := &Result{parsed: parsed}
	if len(wrapped) == 0 {
		return rootResult{res: res}
	}
	graph, err := checker.Analyze(wrapped, []*packages.Package{pkg}, nil)
	// Whatever happened, nothing reads this package's results any more.
	defer rel.release(pkg.Types)
	if err != nil {
		return rootResult{err: err}
	}
	collect(res, graph, orig)
	return rootResult{res: res}
}

// progress counts the packages decoded so far.
type progress struct {
	mu       sync.Mutex
	cond     sync.Cond
	n        int
	finished bool
}

func newProgress() *progress {
	p := &progress{}
	p.cond.L = &p.mu
	return p
}

func (p *progress) advance() {
	p.mu.Lock()
	p.n++
	p.mu.Unlock()
	p.cond.Broadcast()
}

// finish says that no more packages will be decoded.
func (p *progress) finish() {
	p.mu.Lock()
	p.finished = true
	p.mu.Unlock()
	p.cond.Broadcast()
}

// wait waits until n packages are decoded, and reports whether they were:
// decoding stops early when the run is cancelled.
func (p *progress) wait(n int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.n < n && !p.finished {
		p.cond.Wait()
	}
	return p.n >= n
}

// parseFiles parses pkg's files, recording problems in pkg.Errors the
// way go/packages does. It returns the hash of each file's content as
// parsed: the result cache stores findings only under the content they
// were found in, which a file saved during the run no longer has.
func parseFiles(pkg *packages.Package) map[string]fileHash {
	parsed := make(map[string]fileHash, len(pkg.CompiledGoFiles))
	for _, name := range pkg.CompiledGoFiles {
		src, err := os.ReadFile(name)
		if err != nil {
			pkg.Errors = append(pkg.Errors, packages.Error{Pos: name + ":1", Msg: err.Error(), Kind: packages.ParseError})
			continue
		}
		parsed[name] = sha256.Sum256(src)
		// go/packages' mode: analyzers may rely on its object resolution.
		f, err := parser.ParseFile(pkg.Fset, name, src, parser.AllErrors|parser.ParseComments)
		if f != nil {
			pkg.Syntax = append(pkg.Syntax, f)
		}
		if list, ok := err.(scanner.ErrorList); ok {
			for _, e := range list {
				pkg.Errors = append(pkg.Errors, packages.Error{Pos: e.Pos.String(), Msg: e.Msg, Kind: packages.ParseError})
			}
		} else if err != nil {
			pkg.Errors = append(pkg.Errors, packages.Error{Pos: "-", Msg: err.Error(), Kind: packages.ParseError})
		}
	}
	return parsed
}

// checkTypes type-checks pkg's parsed files against the dependencies'
// export data, recording problems in pkg.Errors the way go/packages does.
// It reports whether some import could not be provided: such a root is
// not analysed, as go/packages marks it IllTyped, even when the type
// checker had nothing to say.
func checkTypes(pkg *packages.Package, deps *exportTypes) (importFailed bool) {
	imported := deps.decoded(pkg.Imports)
	pkg.Types = types.NewPackage(pkg.PkgPath, pkg.Name)
	pkg.TypesInfo = &types.Info{
		Types:        make(map[ast.Expr]types.TypeAndValue),
		Defs:         make(map[*ast.Ident]types.Object),
		Uses:         make(map[*ast.Ident]types.Object),
		Implicits:    make(map[ast.Node]types.Object),
		Instances:    make(map[*ast.Ident]types.Instance),
		Scopes:       make(map[ast.Node]*types.Scope),
		Selections:   make(map[*ast.SelectorExpr]*types.Selection),
		FileVersions: make(map[*ast.File]string),
	}
	tc := &types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			if t := imported[path]; t != nil {
				return t, nil
			}
			dep := pkg.Imports[path]
			if dep == nil {
				// go/packages leaves out an import that closes a
				// cycle (the listing reports the cycle) or that the
				// go command could not resolve.
				importFailed = true
				return nil, fmt.Errorf("no metadata for %s", path)
			}
			t, err := deps.load(dep)
			if err != nil {
				importFailed = true
			}
			return t, err
		}),
		Error: func(err error) {
			if te, ok := err.(types.Error); ok {
				pkg.TypeErrors = append(pkg.TypeErrors, te)
				pkg.Errors = append(pkg.Errors, packages.Error{Pos: te.Fset.Position(te.Pos).String(), Msg: te.Msg, Kind: packages.TypeError})
				return
			}
			pkg.Errors = append(pkg.Errors, packages.Error{Pos: "-", Msg: err.Error(), Kind: packages.UnknownError})
		},
		Sizes: pkg.TypesSizes,
	}
	if pkg.Module != nil && pkg.Module.GoVersion != "" {
		tc.GoVersion = "go" + pkg.Module.GoVersion
	}
	err := types.NewChecker(tc, pkg.Fset, pkg.Types, pkg.TypesInfo).Files(pkg.Syntax)
	if err != nil && len(pkg.Errors) == 0 {
		// Checker.Files can fail without calling Error (a too new Go
		// version); the package must still count as broken.
		pkg.Errors = append(pkg.Errors, packages.Error{Pos: "-", Msg: err.Error(), Kind: packages.UnknownError})
	}
	return importFailed
}

// dropFailedImports removes the type checker's "could not import P"
// when P has no export data: P did not build, and that is reported
// from P itself (or the dependency that broke it, see explainGraph),
// as Load reports it, where go/packages type-checks P from source.
func dropFailedImports(pkg *packages.Package) []packages.Error {
	var out []packages.Error
	for _, e := range pkg.Errors {
		if e.Kind == packages.TypeError {
			if m := couldNotImport.FindStringSubmatch(e.Msg); m != nil {
				if dep := pkg.Imports[m[1]]; dep != nil && dep.ExportFile == "" {
					continue
				}
			}
		}
		out = append(out, e)
	}
	return out
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// exportTypes decodes dependencies from the go command's export data,
// each package once per run, keyed by package ID so that a test
// variant's recompiled dependencies ("q [p.test]") stay distinct from
// the ordinary ones.
type exportTypes struct {
	fset *token.FileSet
	// mu serialises decoding: reading one package's export data may add
	// objects to any package it mentions.
	mu   sync.Mutex
	pkgs map[string]*exported
	// shared is the view of the graph by path, without the paths that
	// name more than one package; variants holds the IDs of packages
	// that depend on (or are) one of those.
	shared   map[string]*types.Package
	variants map[string]bool
}

type exported struct {
	types    *types.Package
	complete bool
	err      error
}

// newExportTypes prepares to decode the dependencies of roots.
func newExportTypes(fset *token.FileSet, roots []*packages.Package) *exportTypes {
	e := &exportTypes{fset: fset, pkgs: make(map[string]*exported), shared: make(map[string]*types.Package), variants: make(map[string]bool)}
	// Building a view of each package's dependencies took a tenth of the
	// decoding time. One view of the whole graph serves every package
	// whose dependencies include no path that names two packages (a
	// test's recompiled variants).
	byPath := make(map[string]string)
	ambiguous := make(map[string]bool)
	packages.Visit(roots, nil, func(p *packages.Package) {
		if id, ok := byPath[p.PkgPath]; ok && id != p.ID {
			ambiguous[p.PkgPath] = true
		}
		byPath[p.PkgPath] = p.ID
	})
	packages.Visit(roots, nil, func(p *packages.Package) {
		if ambiguous[p.PkgPath] {
			e.variants[p.ID] = true
		} else {
			e.shared[p.PkgPath] = e.entry(p).types
		}
		for _, imp := range p.Imports { // visited before p
			if e.variants[imp.ID] {
				e.variants[p.ID] = true
			}
		}
	})
	return e
}

// entry returns p's package, created empty if it was never mentioned, so
// that every export data file decoded refers to the same *types.Package
// for it. Called with mu held.
func (e *exportTypes) entry(p *packages.Package) *exported {
	x := e.pkgs[p.ID]
	if x == nil {
		x = &exported{}
		if p.PkgPath == "unsafe" {
			x.types, x.complete = types.Unsafe, true
		} else {
			x.types = types.NewPackage(p.PkgPath, p.Name)
		}
		e.pkgs[p.ID] = x
	}
	return x
}

// decoded returns, by import path, the packages of imports already
// decoded, taking the lock once instead of once per import.
func (e *exportTypes) decoded(imports map[string]*packages.Package) map[string]*types.Package {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make(map[string]*types.Package, len(imports))
	for path, p := range imports {
		if x := e.pkgs[p.ID]; x != nil && x.complete {
			out[path] = x.types
		}
	}
	return out
}

// load returns p's types, decoding its export data the first time.
func (e *exportTypes) load(p *packages.Package) (*types.Package, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	x := e.entry(p)
	if x.err != nil {
		// No package: the type checker then makes a fake one, named
		// after the path, and stays quiet about its uses.
		return nil, x.err
	}
	if x.complete {
		return x.types, nil
	}
	x.err = e.decode(p, x)
	if x.err != nil {
		return nil, x.err
	}
	x.complete = true
	return x.types, nil
}

func (e *exportTypes) decode(p *packages.Package, x *exported) error {
	if p.ExportFile == "" {
		return fmt.Errorf("no export data for %s", p.ID)
	}
	f, err := os.Open(p.ExportFile)
	if err != nil {
		return err
	}
	defer f.Close()
	r, err := gcexportdata.NewReader(f)
	if err != nil {
		return fmt.Errorf("reading %s: %v", p.ExportFile, err)
	}
	// The decoder knows packages by path only. Its view is p's
	// dependency graph, in which a path names one package (one variant),
	// or the shared view when p's dependencies have one variant each.
	if !e.variants[p.ID] {
		return e.read(r, p, x, e.shared)
	}
	view := make(map[string]*types.Package)
	seen := make(map[string]bool)
	var visit func(imports map[string]*packages.Package)
	visit = func(imports map[string]*packages.Package) {
		for _, q := range imports {
			if !seen[q.ID] {
				seen[q.ID] = true
				view[q.PkgPath] = e.entry(q).types
				visit(q.Imports)
			}
		}
	}
	visit(p.Imports)
	view[p.PkgPath] = x.types
	return e.read(r, p, x, view)
}

func (e *exportTypes) read(r io.Reader, p *packages.Package, x *exported, view map[string]*types.Package) error {
	t, err := gcexportdata.Read(r, e.fset, view, p.PkgPath)
	if err != nil {
		return fmt.Errorf("reading %s: %v", p.ExportFile, err)
	}
	if t != x.types {
		return fmt.Errorf("reading %s: decoded a different package", p.ExportFile)
	}
	return nil
}
