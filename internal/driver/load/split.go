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

// AnalysedModules are the paths of the modules of roots: the driver
// analyses those modules' packages that roots import for their facts
// (the summary units). A module's version does not matter: the corpus
// analyses kubernetes as a module required at a version.
func AnalysedModules(roots []*packages.Package) map[string]bool {
	mods := make(map[string]bool)
	for _, r := range roots {
		if m := r.Module; m != nil && m.Path != "" {
			mods[m.Path] = true
		}
	}
	return mods
}

// sourceOf returns, by ID, the packages of the graph below roots to
// type-check from source.
//
// With built nil (a re-run after an edit) the source packages are the
// source roots. Otherwise (Built) a package can be decoded when the go
// command has built it, or when kept says an earlier run kept its export
// data (exports.go); a test variant, whose export data only a listing
// that builds its test's whole graph would give, a package with a file in
// overlay, and the packages depending on one cannot. Every package that
// is type-checked (the roots, and the source packages) needs each of its
// imports decoded or from source: one that cannot be decoded is from
// source, and so on below it; as are the packages of whole that cannot be
// decoded (DecodePlan decodes those whole). A package decoded must not
// mention the types of one from source (they would be other types), so
// one that depends on a source package is from source too.
//
// What is neither (below a kept package, not built, and imported by no
// package type-checked) has no types of its own: they are what the export
// data decoded mentions of it, as for any package no root imports. A package
// of the roots' modules is never taken from kept export data: the driver
// type-checks some of those for their facts (units.go), against their
// imports' types.
func sourceOf(roots []*packages.Package, built map[string]bool, overlay map[string][]byte, kept func(*packages.Package) bool, whole []string) map[string]bool {
	source := sourceRootsOf(roots)
	if built == nil {
		return source
	}
	var graph []*packages.Package
	packages.Visit(roots, nil, func(p *packages.Package) { graph = append(graph, p) }) // imports first
	analysed := AnalysedModules(roots)
	forced := make(map[string]bool)
	for _, p := range graph {
		f := p.ForTest != ""
		for _, name := range p.CompiledGoFiles {
			_, edited := overlay[name]
			f = f || edited
		}
		for _, imp := range p.Imports {
			f = f || forced[imp.ID]
		}
		forced[p.ID] = f
	}
	decodable := make(map[string]bool)
	for _, p := range graph {
		ours := p.Module != nil && analysed[p.Module.Path]
		decodable[p.ID] = p.PkgPath == "unsafe" || !forced[p.ID] && (built[p.ID] || !ours && kept(p))
	}
	var fromSource func(p *packages.Package)
	needs := func(p *packages.Package) {
		for _, imp := range p.Imports {
			if !decodable[imp.ID] {
				fromSource(imp)
			}
		}
	}
	fromSource = func(p *packages.Package) {
		if !source[p.ID] {
			source[p.ID] = true
			needs(p)
		}
	}
	for _, r := range roots {
		if source[r.ID] || !decodable[r.ID] {
			source[r.ID] = false
			fromSource(r)
		}
		needs(r)
	}
	for _, p := range graph {
		if slices.Contains(whole, p.PkgPath) && !decodable[p.ID] {
			fromSource(p)
		}
	}
	for changed := true; changed; {
		changed = false
		below := make(map[string]bool) // depends on a source package
		for _, p := range graph {
			for _, imp := range p.Imports {
				below[p.ID] = below[p.ID] || source[imp.ID] || below[imp.ID]
			}
			if below[p.ID] && !source[p.ID] && p.PkgPath != "unsafe" {
				fromSource(p)
				changed = true
			}
		}
	}
	return source
}

// addExportData lists the export data of the packages some package
// type-checked imports (a root, a source package) and of the packages of
// whole, and of everything below those, but for the source packages and
// those kept has a file for (exports.go). It sets it, with the errors of
// building it, on the packages of the graph, the kept ones' to that file.
// ok is false when some package that needs export data could not be
// matched to the graph (the go command failed, or listed the graph
// differently): the caller then lists everything with export data, as
// before.
//
// Test variants ("q [p.test]") exist only in a listing with tests, which
// builds every test variant of its patterns, so they are asked for by a
// second listing with tests, of their test's package alone; the rest by
// one without.
func addExportData(ctx context.Context, opts *Options, roots []*packages.Package, source map[string]bool, whole []string, kept func(*packages.Package) string) (ok bool) {
	isRoot := make(map[string]bool, len(roots))
	for _, r := range roots {
		isRoot[r.ID] = true
	}
	ours := func(p *packages.Package) bool { return !source[p.ID] && kept(p) != "" }
	var need []*packages.Package
	needed := make(map[string]bool)
	add := func(p *packages.Package) {
		if !source[p.ID] && !ours(p) && p.PkgPath != "unsafe" && !needed[p.ID] {
			needed[p.ID] = true
			need = append(need, p)
		}
	}
	packages.Visit(roots, nil, func(p *packages.Package) {
		if source[p.ID] || isRoot[p.ID] {
			for _, imp := range p.Imports {
				add(imp)
			}
		}
		if slices.Contains(whole, p.PkgPath) {
			add(p)
		}
	})
	var plain, tests []string
	for _, p := range need {
		if p.ForTest != "" {
			tests = append(tests, p.ForTest)
		} else {
			plain = append(plain, p.PkgPath)
		}
	}
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
	for _, p := range need {
		if got[p.ID] == nil {
			return false
		}
	}
	packages.Visit(roots, nil, func(p *packages.Package) {
		g := got[p.ID]
		switch {
		case ours(p):
			p.ExportFile = kept(p)
		case source[p.ID] || g == nil:
		default:
			p.ExportFile = g.ExportFile
			if len(p.Errors) == 0 {
				// The compiler's, when building it failed. A package the
				// first listing found broken is not built, and the second
				// says the same of it, differently (without the importing
				// file's position when it is one of its patterns).
				p.Errors = g.Errors
			}
		}
	})
	return true
}
