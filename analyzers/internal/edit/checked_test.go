package edit_test

import (
	"go/ast"
	"go/token"
	"strconv"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/ctrllint/ctrllint/analyzers/internal/edit"
)

// replacer reports every call bad("text") with a fix replacing the call
// by text: some replacements type-check, some do not (an undefined name,
// a variable declared and not used), one does not parse.
var replacer = &analysis.Analyzer{
	Name: "replacer",
	Doc:  "replacer: offers fixes good and broken",
	Run: edit.Checked(func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) != 1 {
					return true
				}
				if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "bad" {
					return true
				}
				lit, ok := call.Args[0].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				text, _ := strconv.Unquote(lit.Value)
				pass.Report(analysis.Diagnostic{
					Pos: call.Pos(), Message: "call of bad",
					SuggestedFixes: []analysis.SuggestedFix{{Message: "replace", TextEdits: []analysis.TextEdit{{Pos: call.Pos(), End: call.End(), NewText: []byte(text)}}}},
				})
				return true
			})
		}
		return nil, nil
	}),
}

// Every diagnostic is reported; only the fixes that keep the package
// building are (the golden file is the package with those applied). The
// two good fixes among four broken ones are found by splitting the set.
func TestChecked(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), replacer, "checked")
}
