package load

import (
	"context"
	"slices"

	"golang.org/x/tools/go/packages"
)

// A root is type-checked from source whatever the listing says, so its
// export data is wasted work, and after an edit it is the costly part of
// a run: `go list -export` compiles the edited package, its test
// variants and its test main, with code generation, before the run
// type-checks it again (docs/performance.md: several seconds for a
// one-line edit of a controller, against a fraction of a second for a
// run over unchanged code). So List lists the graph without export data
// first, and then asks export data only for the packages that need it:
// every package but the source roots.
//
// A source root is a root that no package outside the source roots
// depends on. Only roots import it, and they get its types from its own
// type-check (Deps.Provide); no export data decoded mentions it, so its
// *types.Package is the one every importer sees. A root that some other
// package of the graph depends on (a test variant "q [p.test]" recompiled
// against it, a non-root importing it) keeps its export data, as that
// package's export data refers to it.

// splitMode is listMode without export data.
const splitMode = listMode &^ packages.NeedExportFile

// exportMode lists export data and the errors of building it, for the
// whole graph below the patterns. It lists compiled files as the first
// listing does: with them, cgo's output adds runtime/cgo to the graph.
const exportMode = packages.NeedName | packages.NeedImports | packages.NeedDeps | packages.NeedExportFile | packages.NeedCompiledGoFiles

// sourceRootsOf returns, by ID, the roots no package outside them
// depends on.
func sourceRootsOf(roots []*packages.Package) map[string]bool {
	isRoot := make(map[string]bool, len(roots))
	for _, r := range roots {
		isRoot[r.ID] = true
	}
	// Everything below a package that is not a root needs export data.
	exported := make(map[string]bool)
	var below func(p *packages.Package)
	below = func(p *packages.Package) {
		for _, imp := range p.Imports {
			if !exported[imp.ID] {
				exported[imp.ID] = true
				below(imp)
			}
		}
	}
	packages.Visit(roots, nil, func(p *packages.Package) {
		if !isRoot[p.ID] {
			below(p)
		}
	})
	source := make(map[string]bool)
	for _, r := range roots {
		if !exported[r.ID] {
			source[r.ID] = true
		}
	}
	return source
}

// sourceOf returns, by ID, the packages of the graph below roots to
// type-check from source: the source roots, and, when built is not nil
// (Built), every package whose build output the go command does not have,
// and that kept is false for (an earlier run's export data, exports.go),
// that has a file in overlay, or that is a test variant, with the packages
// that depend on one. Everything else keeps its export data.
func sourceOf(roots []*packages.Package, built map[string]bool, overlay map[string][]byte, kept func(*packages.Package) bool) map[string]bool {
	source := sourceRootsOf(roots)
	if built == nil {
		return source
	}
	// Only roots import a source root, and they are type-checked from
	// source anyway; what is not built makes its importers not built.
	stale := make(map[string]bool)
	packages.Visit(roots, nil, func(p *packages.Package) {
		if p.PkgPath == "unsafe" {
			return
		}
		// A test variant's export data comes only from listing its
		// test with -export, which builds the test's whole graph, the
		// packages not built included: type-checked from source, it
		// needs nothing built.
		s := p.ForTest != ""
		for _, f := range p.CompiledGoFiles {
			_, edited := overlay[f]
			s = s || edited
		}
		for _, imp := range p.Imports { // visited before p
			s = s || stale[imp.ID]
		}
		// Kept export data mentions the imports' types: they must be
		// decoded too, not type-checked.
		s = s || !built[p.ID] && !kept(p)
		if s {
			stale[p.ID], source[p.ID] = true, true
		}
	})
	return source
}

// addExportData lists the export data of every package of the graph
// below roots but the source packages and those kept has a file for
// (exports.go), and sets it, with the errors of building it, on the
// packages of the graph, the kept ones' to that file. ok is false when some
// package's export data could not be matched to the graph (the go
// command failed, or listed the graph differently): the caller then
// lists everything with export data, as before.
//
// Test variants ("q [p.test]") exist only in a listing with tests, which
// builds every test variant of its patterns, so they are asked for by a
// second listing with tests, of their test's package alone; the rest by
// one without.
func addExportData(ctx context.Context, opts *Options, roots []*packages.Package, source map[string]bool, kept func(*packages.Package) string) (ok bool) {
	ours := func(p *packages.Package) bool { return !source[p.ID] && kept(p) != "" }
	var plain, tests []string
	packages.Visit(roots, nil, func(p *packages.Package) {
		if !source[p.ID] && !ours(p) {
			return
		}
		for _, imp := range p.Imports {
			switch {
			case source[imp.ID] || ours(imp) || imp.PkgPath == "unsafe":
			case imp.ForTest != "":
				tests = append(tests, imp.ForTest)
			default:
				plain = append(plain, imp.PkgPath)
			}
		}
	})
	got := make(map[string]*packages.Package)
	for _, l := range []struct {
		patterns []string
		tests    bool
	}{{plain, false}, {tests, true}} {
		if len(l.patterns) == 0 {
			continue
		}
		o := *opts
		o.Patterns, o.Tests = slices.Compact(slices.Sorted(slices.Values(l.patterns))), l.tests
		listed, err := packages.Load(o.config(ctx, exportMode), o.Patterns...)
		if err != nil {
			return false
		}
		packages.Visit(listed, nil, func(p *packages.Package) {
			if _, seen := got[p.ID]; !seen {
				got[p.ID] = p
			}
		})
	}
	var want []*packages.Package
	packages.Visit(roots, nil, func(p *packages.Package) {
		switch {
		case ours(p):
			p.ExportFile = kept(p)
		case !source[p.ID] && p.PkgPath != "unsafe":
			want = append(want, p)
		}
	})
	for _, p := range want {
		if got[p.ID] == nil {
			return false
		}
	}
	for _, p := range want {
		g := got[p.ID]
		p.ExportFile = g.ExportFile
		if len(p.Errors) == 0 {
			// The compiler's, when building it failed. A package the
			// first listing found broken is not built, and the second
			// says the same of it, differently (without the importing
			// file's position when it is one of its patterns).
			p.Errors = g.Errors
		}
	}
	return true
}
