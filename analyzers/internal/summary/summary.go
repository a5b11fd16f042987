// Package summary is what ctrllint's analyzers share about summaries that
// cross package boundaries: analysis facts about the functions, methods
// and types of one package, exported when it is analysed and imported by
// the packages that call it.
//
// Summaries are computed only for the packages of the modules being
// analysed (Local), the modules of the packages a run names. A dependency from another module stays what its export
// data says: the libraries a controller uses are known by name
// (analyzers/internal/kube), and analysing every dependency from source
// would multiply a run's cost. The rule is the same under every driver:
// ctrllint's own analyses those packages from source in dependency order,
// go vet asks the vettool for their facts (cmd/ctrllint skips the others
// without type-checking them), and the checker, golangci-lint and nogo run
// the analyzers on every dependency, where Local says to do nothing.
//
// Three rules make a package's findings depend only on its own code and on
// the code of the packages of the analysed modules it reaches, the same
// under every driver and in every run, whatever else it analyses (and so
// the result cache, keyed by the content of everything a package imports,
// stays exact):
//
//   - A summary says what a function does, by itself and through the
//     helpers it calls: those of its package, and those of the packages it
//     reaches, through their facts; so a helper chain across any number of
//     the module's packages is summarised bottom up.
//   - Facts are read only about objects of the package itself and of the
//     packages whose functions its code calls by name, or whose values it
//     holds when they use client-go or controller-runtime (Visible,
//     internal/edges). ctrllint's driver analyses exactly those packages
//     of the analysed modules below a root, and below them in turn, found
//     from the same syntax: a closure the package's code alone decides, so
//     its facts are the same whatever else a run analyses. go vet and the
//     checker analyse every dependency.
//   - A package exports facts only when its summaries are wanted (Local)
//     and it uses one of the APIs they are about (Exports).
//
// An imported summary may only add to what an analyzer knows: a callee
// without one is treated as before summaries existed (unknown code that
// may do anything harmless), so a missing fact can cost a finding, never
// make one.
package summary

import (
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/internal/edges"
	"github.com/ctrllint/ctrllint/internal/lend"
)

// Local reports whether the summaries of pass's package are computed and
// exported. The analyzer calling it must require lend.Analyzer.
//
//   - Under ctrllint's driver (lend.Of(pass) is not nil), always: the
//     driver analyses from source only the packages of the analysed
//     modules, the roots' modules, whatever their version (the corpus
//     analyses kubernetes as a module required at a version).
//   - Under a driver that says which module a package belongs to (the
//     checker, golangci-lint, go vet, the editor server), when it is a main
//     or workspace module, one at no version; a module replaced by a
//     directory keeps its required version and is a dependency.
//   - Under one that does not (nogo), for every package outside the
//     standard library and the Kubernetes libraries.
func Local(pass *analysis.Pass) bool {
	if lend.Of(pass) != nil {
		return true
	}
	m := pass.Module
	if m == nil {
		first, _, _ := strings.Cut(pass.Pkg.Path(), "/")
		return strings.Contains(first, ".") && !Library(pass)
	}
	return m.Path != "" && m.Version == ""
}

// Exports reports whether pass's package exports its summaries: Local,
// and it imports a package under one of Imports.
func Exports(pass *analysis.Pass) bool {
	if !Local(pass) {
		return false
	}
	for _, imp := range pass.Pkg.Imports() {
		for _, pre := range Imports {
			if strings.HasPrefix(imp.Path(), pre) {
				return true
			}
		}
	}
	return false
}

// Visible reports whether facts about obj may be read in pass: it belongs
// to the package itself, to one whose functions the package's code calls
// by name (q.F(...)), or to one that uses client-go or controller-runtime
// and whose values the code holds (a queue wrapper in a field;
// internal/edges). Every driver gives the
// facts of those packages, when they export any: ctrllint's plans them as
// summary units from the same syntax, go vet and the checker analyse every
// dependency. The analyzer calling it must require Analyzer.
func Visible(pass *analysis.Pass, obj types.Object) bool {
	return VisiblePackage(pass, obj.Pkg())
}

// VisiblePackage is Visible for the package facts of p.
func VisiblePackage(pass *analysis.Pass, p *types.Package) bool {
	if p == nil {
		return false
	}
	if p == pass.Pkg {
		return true
	}
	r, ok := pass.ResultOf[Analyzer].(*Reach)
	if !ok {
		panic("summary.Visible: " + pass.Analyzer.Name + " does not require summary.Analyzer")
	}
	return r.paths[p.Path()]
}

// Reach is the set of packages whose facts a package may read.
type Reach struct{ paths map[string]bool }

// Analyzer computes, once per package, the packages Visible allows.
var Analyzer = &analysis.Analyzer{
	Name: "ctrllintreach",
	Doc:  "the imported packages whose facts a package's summaries may read: those whose functions its code calls, and those using client-go or controller-runtime whose values it holds",
	Run: func(pass *analysis.Pass) (any, error) {
		called, held := edges.Named(pass.Files, edges.Resolved(pass.TypesInfo))
		byPath := make(map[string]*types.Package)
		for _, imp := range pass.Pkg.Imports() {
			byPath[imp.Path()] = imp
		}
		return &Reach{paths: edges.Reach(called, held, func(path string) bool {
			imp := byPath[path]
			if imp == nil {
				return false
			}
			var paths []string
			for _, i := range imp.Imports() {
				paths = append(paths, i.Path())
			}
			return edges.UsesClients(paths)
		})}, nil
	},
	ResultType: reflect.TypeFor[*Reach](),
}

// Imports are the import path prefixes of the APIs summaries are about:
// client-go (queues, caches, listers, clientsets), controller-runtime,
// the API types and apimachinery (object metadata, owner references, the
// types of a module's own API packages). A package that imports none of them has nothing for an
// analyzer to summarise, and ctrllint's driver does not analyse it for
// its facts (driver.Config's SummaryImports).
var Imports = []string{"k8s.io/client-go/", "sigs.k8s.io/controller-runtime/", "k8s.io/api/", "k8s.io/apimachinery/"}

// libraries are the modules whose behaviour ctrllint's analyzers know by
// name: client-go, apimachinery, the API types and controller-runtime.
var libraries = []string{"k8s.io/client-go", "k8s.io/apimachinery", "k8s.io/api", "sigs.k8s.io/controller-runtime"}

// Library reports whether pass's package belongs to one of the Kubernetes
// libraries the analyzers know by name, as a dependency at a version (or,
// when the driver says nothing of modules, by its path). Drivers that run
// the analyzers on every dependency for their facts (the checker,
// golangci-lint, nogo) reach these packages, where no analyzer has
// anything to find or to summarise; analysed as a module of their own
// (client-go's own repository, the corpus' controller-runtime), they are
// not a library here.
func Library(pass *analysis.Pass) bool {
	mod := ""
	if m := pass.Module; m != nil {
		if m.Version == "" {
			return false
		}
		mod = m.Path
	}
	for _, lib := range libraries {
		if mod == lib || mod == "" && (pass.Pkg.Path() == lib || strings.HasPrefix(pass.Pkg.Path(), lib+"/")) {
			return true
		}
	}
	return false
}

// Callable are the functions and methods of pkg that another package can
// call by name: its exported functions, and the exported methods of its
// exported types (an unexported type's methods are reached only through an
// interface), in scope order.
func Callable(pkg *types.Package) []*types.Func {
	scope := pkg.Scope()
	var out []*types.Func
	for _, name := range scope.Names() {
		switch obj := scope.Lookup(name).(type) {
		case *types.Func:
			if obj.Exported() {
				out = append(out, obj)
			}
		case *types.TypeName:
			named, ok := obj.Type().(*types.Named)
			if !ok || obj.IsAlias() || !obj.Exported() {
				continue
			}
			for m := range named.Methods() {
				if m.Exported() {
					out = append(out, m)
				}
			}
		}
	}
	return out
}

// Where names a position of the analysed package in a message about it
// read in another package: its file and line ("pods.go:12"), which the
// reader finds from the helper's name. "" for no position.
func Where(fset *token.FileSet, pos token.Pos) string {
	if !pos.IsValid() {
		return ""
	}
	p := fset.Position(pos)
	return filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line)
}
