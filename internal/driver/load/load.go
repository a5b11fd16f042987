// Package load is how the driver gets packages: the go command's
// listings, the choice of variants, one classification of what went wrong
// (Problems, Error), decoding dependencies from export data, and parsing
// and type-checking one root against them. It knows nothing of analyzers
// or of the result cache.
package load

import (
	"context"
	"errors"
	"fmt"
	"go/token"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"
)

// rootMode loads syntax and types for the requested packages only.
// Without NeedDeps, go/packages type-checks dependencies from the
// compiler's export data (go list -export), as go vet does, instead of
// parsing and type-checking all of client-go from source: our analyzers
// use no facts, so dependencies never need analysing.
const rootMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedTypes | packages.NeedTypesSizes |
	packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule | packages.NeedForTest

// RootMode is the packages.Mode Load uses. The
// benchmark's floor (hack/bench/floor) loads with it, so that the floor is
// exactly ctrllint's own loading and type-checking, and nothing more.
const RootMode = rootMode

// ErrNoPatterns is returned when no package patterns are given.
var ErrNoPatterns = errors.New("no packages given")

// Options say which packages to load, and how the go command runs.
type Options struct {
	// Dir is the directory the go command runs in; patterns are relative
	// to it. Empty means the current directory.
	Dir string
	// Patterns are go list package patterns. At least one is required:
	// an empty list is an error rather than an implicit ".", because a
	// silently narrowed run looks exactly like a clean one.
	Patterns []string
	// Tags are build tags, passed to the go command as -tags.
	Tags []string
	// Tests includes _test.go files, as go vet does.
	Tests bool
	// Env is the go command's environment; nil means os.Environ().
	Env []string
	// Overlay replaces the content of files by absolute path, as
	// packages.Config.Overlay does: an editor's unsaved buffers.
	Overlay map[string][]byte
	// ExportDir, if set, is where dependencies type-checked from source
	// (Unbuilt) leave their export data for later runs, and where those
	// runs find it (exports.go).
	ExportDir string
	// FromSource lists as Unbuilt would if the go command had built
	// nothing: every dependency is type-checked from source, or decoded
	// from ExportDir. It tests a first run's path on a machine that has
	// built the graph.
	FromSource bool
	// WholePackages are the import paths of the packages decoded whole
	// when in the graph (driver.Config's): with Unbuilt, they are
	// decoded or type-checked from source, like the imports of a package
	// type-checked.
	WholePackages []string
}

// Packages loads the packages matching opts.Patterns, syntax and types
// included, all at once (the editor server's way; the driver's Analyze
// streams them instead).
//
// Packages that loaded cleanly are returned even when the error is a
// *Error, so the caller can analyse what can be analysed.
//
// With opts.Tests, a package with in-package tests is represented only by
// its test variant "p [p.test]", a superset of p, as go vet does; the
// generated test main packages are dropped.
//
// The roots are listed as a re-run after an edit lists them (split.go):
// an editor's load is of text the go command has not built (an unsaved
// buffer, a file just saved), and building its export data, which
// nothing reads, would be most of the load.
func Packages(ctx context.Context, opts *Options) ([]*packages.Package, error) {
	l, err := ListHedged(ctx, opts, SourceRoots)
	if err != nil {
		return nil, err
	}
	return checkListing(ctx, opts, l)
}

// checkListing type-checks l's roots, and the dependencies it lists
// without export data (SourceDeps), each after the source packages it
// imports: a dependency may import a root ("q [p.test]" imports
// "p [p.test]"), and a root a dependency.
func checkListing(ctx context.Context, opts *Options, l *Listing) ([]*packages.Package, error) {
	isRoot := make(map[string]bool, len(l.Roots))
	for _, r := range l.Roots {
		isRoot[r.ID] = true
	}
	// Imports first; the go command lists no cycle but with errors,
	// which the listing reports.
	var order []*packages.Package
	packages.Visit(l.Roots, nil, func(p *packages.Package) {
		if isRoot[p.ID] || l.Source[p.ID] {
			order = append(order, p)
		}
	})
	deps := NewDeps(token.NewFileSet(), l.Roots, l)
	checked := make(map[string]*packages.Package, len(l.Roots))
	var failed []*packages.Package
	listedAs := make(map[*packages.Package]*packages.Package)
	for _, r := range order {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		pkg := Root(r, deps.FileSet())
		Parse(pkg, opts.Overlay)
		if ok, byImport := CheckListed(r, pkg, deps, !isRoot[r.ID]); !ok {
			if !byImport {
				failed = append(failed, pkg)
				listedAs[pkg] = r
			}
			continue
		}
		if isRoot[r.ID] {
			checked[r.ID] = pkg
		}
	}
	var good []*packages.Package
	for _, r := range l.Roots {
		if p := checked[r.ID]; p != nil {
			good = append(good, p)
		}
	}
	// The listing holds the whole graph, with the go command's message
	// for a dependency that failed to build.
	graphOf := func(pkgs []*packages.Package) []*packages.Package {
		var graph []*packages.Package
		for _, p := range pkgs {
			graph = append(graph, listedAs[p])
		}
		return graph
	}
	if err := Failure(failed, l.Base, graphOf); err != nil {
		return good, err
	}
	return good, nil
}

// SourceDeps returns the packages of l's graph that are not roots and
// have no export data (Listing.Source), dependencies first: each must be
// type-checked, for its importers, before them.
func SourceDeps(l *Listing) []*packages.Package {
	if len(l.Source) == 0 {
		return nil
	}
	isRoot := make(map[string]bool, len(l.Roots))
	for _, r := range l.Roots {
		isRoot[r.ID] = true
	}
	var out []*packages.Package
	packages.Visit(l.Roots, nil, func(p *packages.Package) {
		if l.Source[p.ID] && !isRoot[p.ID] {
			out = append(out, p)
		}
	})
	return out
}

// list runs the go command for opts.Patterns in lcfg's mode and selects
// the variants to analyse. It fails when the go command fails, is
// interrupted, or nothing matches.
func list(lcfg *packages.Config, opts *Options) ([]*packages.Package, error) {
	if len(opts.Patterns) == 0 {
		return nil, ErrNoPatterns
	}
	listed, err := packages.Load(lcfg, opts.Patterns...)
	if err := lcfg.Context.Err(); err != nil {
		// The go command was interrupted: what it said, or listed, is
		// not about the packages.
		return nil, err
	}
	if err != nil {
		// The go command itself failed (no go.mod, bad flags, ...).
		return nil, &Error{Problems: []Problem{{Msg: strings.TrimSpace(err.Error())}}}
	}
	pkgs := selectVariants(listed)
	if len(pkgs) == 0 {
		return nil, &Error{Problems: []Problem{{Msg: fmt.Sprintf("no packages matched %s", strings.Join(opts.Patterns, " "))}}}
	}
	return pkgs, nil
}

// selectVariants drops packages that would only duplicate work: p when
// "p [p.test]" is also present, and generated test mains.
func selectVariants(pkgs []*packages.Package) []*packages.Package {
	hasTestVariant := make(map[string]bool)
	for _, p := range pkgs {
		if p.ForTest != "" && p.PkgPath == p.ForTest {
			hasTestVariant[p.PkgPath] = true
		}
	}
	var out []*packages.Package
	for _, p := range pkgs {
		switch {
		case p.ForTest == "" && hasTestVariant[p.PkgPath]:
		case isTestMain(p):
		default:
			out = append(out, p)
		}
	}
	return out
}

// isTestMain reports whether p is the main package go test generates;
// its source lives in the build cache and is nobody's to fix.
func isTestMain(p *packages.Package) bool {
	return p.Name == "main" && p.ForTest == "" && p.ID == p.PkgPath && strings.HasSuffix(p.PkgPath, ".test")
}

// config is the go/packages configuration of every listing and load:
// opts' directory, environment, tests and tags.
func (opts *Options) config(ctx context.Context, mode packages.LoadMode) *packages.Config {
	lcfg := &packages.Config{Mode: mode, Context: ctx, Dir: opts.Dir, Env: opts.Env, Tests: opts.Tests, Overlay: opts.Overlay}
	if len(opts.Tags) > 0 {
		lcfg.BuildFlags = []string{"-tags=" + strings.Join(opts.Tags, ",")}
	}
	return lcfg
}

// Base is the absolute directory the go command runs in, against which
// problems' file names are made relative.
func (opts *Options) Base() string {
	base := opts.Dir
	if base == "" {
		base = "."
	}
	if abs, err := filepath.Abs(base); err == nil {
		base = abs
	}
	return base
}
