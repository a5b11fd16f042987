// Package testanalyzers holds analyzers that exist only to test the
// driver and the ctrllint command: their behaviour is fixed and trivial,
// so output and fix tests do not move when the real analyzers do.
package testanalyzers

import (
	"errors"
	"go/ast"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/ctrllint/ctrllint/internal/crash"
)

// BadCall reports every call of a function named bad, with a fix that
// renames the call to good. It requires inspect so that tests cover
// analyzers consuming other analyzers' results.
var BadCall = newBadCall("badcall", false)

// BadCallTwin is BadCall under another name: its fixes are identical
// edits, which -fix must apply once.
var BadCallTwin = newBadCall("badcalltwin", false)

// BadCallWhole reports the same calls with a fix rewriting the whole
// call expression, which conflicts with BadCall's rename.
var BadCallWhole = newBadCall("badcallwhole", true)

func newBadCall(name string, whole bool) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:     name,
		Doc:      name + ": report calls to bad\n\nCalls to bad should call good.",
		URL:      "https://example.com/" + name,
		Requires: []*analysis.Analyzer{inspect.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
			ins.Preorder([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node) {
				call := n.(*ast.CallExpr)
				id, ok := call.Fun.(*ast.Ident)
				if !ok || id.Name != "bad" {
					return
				}
				edit := analysis.TextEdit{Pos: id.Pos(), End: id.End(), NewText: []byte("good")}
				if whole {
					edit = analysis.TextEdit{Pos: call.Pos(), End: call.End(), NewText: []byte("good()")}
				}
				pass.Report(analysis.Diagnostic{
					Pos:            call.Pos(),
					End:            call.End(),
					Category:       "calls",
					Message:        "call of bad",
					SuggestedFixes: []analysis.SuggestedFix{{Message: "call good instead", TextEdits: []analysis.TextEdit{edit}}},
				})
			})
			return nil, nil
		},
	}
}

// Panicky panics on function B of every package named boom, saying
// which function it was analysing as ctrllint's analyzers do (crash.At).
var Panicky = &analysis.Analyzer{
	Name: "panicky",
	Doc:  "panicky: panic on packages named boom",
	Run: func(pass *analysis.Pass) (any, error) {
		if pass.Pkg.Name() != "boom" {
			return nil, nil
		}
		for _, f := range pass.Files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "B" {
					func() {
						defer crash.At(pass.Fset, fd.Pos())
						var m map[string]int
						m["x"] = 1 // nil map write: a real runtime panic
					}()
				}
			}
		}
		return nil, nil
	},
}

// Failing returns an error on every package named fail.
var Failing = &analysis.Analyzer{
	Name: "failing",
	Doc:  "failing: return an error on packages named fail",
	Run: func(pass *analysis.Pass) (any, error) {
		if pass.Pkg.Name() == "fail" {
			return nil, errors.New("cannot cope")
		}
		return nil, nil
	},
}
