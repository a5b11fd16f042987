package kube_test

import (
	"go/ast"
	"go/constant"
	"go/types"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// TestNoCopiedTables keeps each fact about the Kubernetes APIs in one
// table, here: it fails when the code of an analyzer (analyzers/*,
// analyzers/internal/* but kube) declares a list of API names that one of
// kube's tables holds — a composite literal (slice, array or map), the
// values of one case clause, or the variadic arguments of one call, with
// two or more string constants each of which is a package path or a
// function or method name of a kube table (kube.TableEntries). Constants
// are taken as the type checker evaluates them, so kube.MetaV1Pkg and
// kube.UtilRuntimePkg+"..HandleError" count. Such a list is a second copy
// of the fact, which drifts from the first: derive what the analyzer
// needs from kube's table instead (a policy over it), or add to the table.
func TestNoCopiedTables(t *testing.T) {
	paths, names := kube.TableEntries()
	held := func(s string) bool { return paths[s] || names[s] }

	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo,
		Dir:  "../..",
	}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	const kubePath = "github.com/ctrllint/ctrllint/analyzers/internal/kube"
	checked := 0
	seen := make(map[string]bool) // pendingCopies found
	for _, pkg := range pkgs {
		for _, e := range pkg.Errors {
			t.Errorf("%s: %v", pkg.PkgPath, e)
		}
		if pkg.PkgPath == kubePath || pkg.TypesInfo == nil {
			continue
		}
		checked++
		for _, f := range pkg.Syntax {
			name := pkg.Fset.Position(f.Pos()).Filename
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			// lists reports a list of constants that kube's tables hold.
			list := func(n ast.Node, what string, exprs []ast.Expr) {
				var found []string
				for _, e := range exprs {
					if kv, ok := e.(*ast.KeyValueExpr); ok {
						if _, inner := kv.Value.(*ast.CompositeLit); inner {
							// A key that indexes a table of its own (a
							// package path over its functions): the inner
							// table is checked by itself.
							continue
						}
						found = append(found, heldConsts(pkg.TypesInfo, held, kv.Key, kv.Value)...)
						continue
					}
					found = append(found, heldConsts(pkg.TypesInfo, held, e)...)
				}
				if len(found) >= 2 {
					sort.Strings(found)
					rel := strings.TrimPrefix(pkg.PkgPath, "github.com/ctrllint/ctrllint/analyzers/") + "/" + filepath.Base(name)
					if reason, ok := pendingCopies[rel]; ok {
						seen[rel] = true
						t.Logf("%s: a known copy, left for now: %s", pkg.Fset.Position(n.Pos()), reason)
						return
					}
					found = slices.Compact(found)
					shown := strings.Join(found[:min(len(found), 6)], ", ")
					if len(found) > 6 {
						shown += ", ..."
					}
					t.Errorf("%s: %s lists %d API names that a table of analyzers/internal/kube holds (%s): use kube's table, not a copy of it",
						pkg.Fset.Position(n.Pos()), what, len(found), shown)
				}
			}
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CompositeLit:
					switch pkg.TypesInfo.TypeOf(n).Underlying().(type) {
					case *types.Slice, *types.Array, *types.Map:
						list(n, "a composite literal", n.Elts)
					}
				case *ast.CaseClause:
					list(n, "a case clause", n.List)
				case *ast.CallExpr:
					sig, ok := pkg.TypesInfo.TypeOf(n.Fun).(*types.Signature)
					if ok && sig.Variadic() && !n.Ellipsis.IsValid() && len(n.Args) >= sig.Params().Len() {
						list(n, "a variadic call", n.Args[sig.Params().Len()-1:])
					}
				}
				return true
			})
		}
	}
	if checked < 20 {
		t.Fatalf("only %d analyzer packages checked", checked)
	}
	for file := range pendingCopies {
		if !seen[file] {
			t.Errorf("analyzers/%s: no copy of a kube table left: remove it from pendingCopies", file)
		}
	}
}

// pendingCopies are the copies of a kube table that this test knows of and
// lets pass for now, by file under analyzers/, with what is to be done. A
// file here that no longer holds a copy fails the test: the entry goes.
var pendingCopies = map[string]string{}

// heldConsts returns the string constants among exprs that kube's tables
// hold.
func heldConsts(info *types.Info, held func(string) bool, exprs ...ast.Expr) []string {
	var out []string
	for _, e := range exprs {
		tv, ok := info.Types[e]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
			continue
		}
		if s := constant.StringVal(tv.Value); held(s) {
			out = append(out, s)
		}
	}
	return out
}
