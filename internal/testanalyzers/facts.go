package testanalyzers

import (
	"go/ast"
	"go/types"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// CallsBad reports calls, into a package imported directly, of functions
// that call bad, directly, through functions of their own package, or
// through functions of other packages that do (their facts): a summary that
// crosses package boundaries only through facts, by the rules of the
// analyzers' summaries (analyzers/internal/summary), so a chain through
// any number of packages is one call to its callers.
// It also reports, at each package clause, the package facts of its direct
// imports it sees, so that tests can tell which packages' facts reached a
// pass.
var CallsBad = &analysis.Analyzer{
	Name:      "callsbad",
	Doc:       "callsbad: report calls of other packages' functions that call bad",
	Requires:  []*analysis.Analyzer{inspect.Analyzer},
	FactTypes: []analysis.Fact{new(callsBadFact), new(seenFact)},
	Run:       runCallsBad,
}

// callsBadFact marks a function that calls bad; Via is the chain.
type callsBadFact struct{ Via string }

func (*callsBadFact) AFact()           {}
func (f *callsBadFact) String() string { return "callsBad(" + f.Via + ")" }

// seenFact marks a package that was analysed, for AllPackageFacts.
type seenFact struct{}

func (*seenFact) AFact() {}

func runCallsBad(pass *analysis.Pass) (any, error) {
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	// Within the package, until nothing changes: which functions call
	// bad, directly or through each other.
	local := make(map[*types.Func]string)
	calls := func(fd *ast.FuncDecl, visit func(call *ast.CallExpr, callee *types.Func)) {
		ast.Inspect(fd, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if id := calleeIdent(call.Fun); id != nil {
					if fn, ok := pass.TypesInfo.Uses[id].(*types.Func); ok {
						visit(call, fn)
					}
				}
			}
			return true
		})
	}
	var decls []*ast.FuncDecl
	ins.Preorder([]ast.Node{(*ast.FuncDecl)(nil)}, func(n ast.Node) { decls = append(decls, n.(*ast.FuncDecl)) })
	for changed := true; changed; {
		changed = false
		for _, fd := range decls {
			fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if fn == nil || local[fn] != "" {
				continue
			}
			calls(fd, func(_ *ast.CallExpr, callee *types.Func) {
				if local[fn] != "" {
					return
				}
				var f callsBadFact
				switch {
				case callee.Name() == "bad" && callee.Pkg() == pass.Pkg:
					local[fn] = "bad"
				case local[callee] != "":
					local[fn] = callee.Name() + "→" + local[callee]
				case callee.Pkg() != pass.Pkg && pass.ImportObjectFact(callee, &f):
					local[fn] = callee.Pkg().Name() + "." + callee.Name() + "→" + f.Via
				}
				if local[fn] != "" {
					changed = true
				}
			})
		}
	}
	for fn, via := range local {
		pass.ExportObjectFact(fn, &callsBadFact{Via: via})
	}
	pass.ExportPackageFact(new(seenFact))
	for _, fd := range decls {
		calls(fd, func(call *ast.CallExpr, callee *types.Func) {
			var f callsBadFact
			if callee.Pkg() != pass.Pkg && slices.Contains(pass.Pkg.Imports(), callee.Pkg()) && pass.ImportObjectFact(callee, &f) {
				pass.Reportf(call.Pos(), "%s.%s calls bad (%s)", callee.Pkg().Name(), callee.Name(), f.Via)
			}
		})
	}
	for _, file := range pass.Files {
		var seen []string
		for _, pf := range pass.AllPackageFacts() {
			// Direct imports only: how far facts about packages the
			// importer's types never mention travel differs by driver
			// (go vet drops them), and no analyzer could use them.
			if slices.Contains(pass.Pkg.Imports(), pf.Package) {
				seen = append(seen, pf.Package.Name())
			}
		}
		sort.Strings(seen)
		if len(seen) > 0 && !strings.HasSuffix(pass.Fset.File(file.Pos()).Name(), "_test.go") {
			pass.Reportf(file.Name.Pos(), "sees facts of %s", strings.Join(seen, ", "))
		}
		break
	}
	return nil, nil
}

func calleeIdent(fun ast.Expr) *ast.Ident {
	switch f := fun.(type) {
	case *ast.Ident:
		return f
	case *ast.SelectorExpr:
		return f.Sel
	}
	return nil
}
