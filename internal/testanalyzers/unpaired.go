package testanalyzers

import (
	"go/ast"

	"golang.org/x/tools/go/analysis"
)

// Unpaired reports every call of get in a function that calls no done, as
// queuedone reports a Get() without its Done(): the finding is on the
// get, its cause can be any line of the function.
var Unpaired = &analysis.Analyzer{
	Name: "unpaired",
	Doc:  "unpaired: report calls of get in functions that do not call done",
	Run: func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue // no body: no calls
				}
				var gets []*ast.CallExpr
				done := false
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					if call, ok := n.(*ast.CallExpr); ok {
						if id, ok := call.Fun.(*ast.Ident); ok {
							switch id.Name {
							case "get":
								gets = append(gets, call)
							case "done":
								done = true
							}
						}
					}
					return true
				})
				if done {
					continue
				}
				for _, call := range gets {
					pass.Report(analysis.Diagnostic{Pos: call.Pos(), End: call.End(), Message: "get without done"})
				}
			}
		}
		return nil, nil
	},
}
