package finalizerpatch

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"

	"github.com/ctrllint/ctrllint/analyzers/internal/edit"
)

// lockFix adds the optimistic lock to the patch: MergeFrom(base) becomes
// MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}), and
// MergeFromWithOptions(base, opts) gets the lock after its options, with
// the package's name for controller-runtime's client as the call spells it
// (qual, "" for a dot import). No fix for a call that spreads a slice
// (opts...), which is never reported.
func lockFix(pass *analysis.Pass, call *ast.CallExpr, qual string) *analysis.SuggestedFix {
	if call == nil || len(call.Args) == 0 || call.Ellipsis.IsValid() {
		return nil
	}
	var name *ast.Ident
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		name = fun.Sel
	case *ast.Ident:
		name = fun
	default:
		return nil
	}
	last := call.Args[len(call.Args)-1]
	edits := []analysis.TextEdit{{Pos: last.End(), End: last.End(), NewText: []byte(", " + qual + "MergeFromWithOptimisticLock{}")}}
	if name.Name == "MergeFrom" {
		edits = append([]analysis.TextEdit{{Pos: name.Pos(), End: name.End(), NewText: []byte("MergeFromWithOptions")}}, edits...)
	}
	return &analysis.SuggestedFix{Message: "Patch with the optimistic lock", TextEdits: edits}
}

// assignedAt is the one left-hand side of the assignment at pos, as
// written ("obj.Finalizers"), or "".
func assignedAt(pass *analysis.Pass, pos token.Pos) string {
	f := edit.FileOf(pass, pos)
	if f == nil || !pos.IsValid() {
		return ""
	}
	path, _ := astutil.PathEnclosingInterval(f, pos, pos)
	for _, n := range path {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == 1 {
				return types.ExprString(n.Lhs[0])
			}
			return ""
		case ast.Stmt:
			return ""
		}
	}
	return ""
}
