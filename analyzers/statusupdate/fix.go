package statusupdate

import (
	"go/ast"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers/internal/edit"
)

// statusFix sends a status-only change to the status subresource:
//
//	c.client.AppsV1().Deployments(ns).Update(ctx, d, opts)  →  ...UpdateStatus(ctx, d, opts)
//	r.Update(ctx, obj)                                      →  r.Status().Update(ctx, obj)
//	r.Patch(ctx, obj, patch)                                →  r.Status().Patch(ctx, obj, patch)
//	pods.Patch(ctx, name, pt, data, opts)                   →  pods.Patch(ctx, name, pt, data, opts, "status")
//
// Controller-runtime's calls are rewritten only without options: the
// status writer takes SubResourceUpdateOption and SubResourcePatchOption,
// not UpdateOption and PatchOption. A typed Patch gets the "status"
// subresource argument; Apply is left alone.
func statusFix(pass *analysis.Pass, u event) *analysis.SuggestedFix {
	call := edit.CallAt(pass, u.direct.call.Pos())
	if call == nil || call.Ellipsis.IsValid() {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != u.direct.verb {
		return nil
	}
	switch {
	case u.direct.typed && u.direct.verb == "Update":
		return &analysis.SuggestedFix{
			Message:   "Send the status with UpdateStatus",
			TextEdits: []analysis.TextEdit{{Pos: sel.Sel.Pos(), End: sel.Sel.End(), NewText: []byte("UpdateStatus")}},
		}
	case u.direct.typed && u.direct.verb == "Patch" && len(call.Args) == 5:
		last := call.Args[4]
		return &analysis.SuggestedFix{
			Message:   "Send the patch to the status subresource",
			TextEdits: []analysis.TextEdit{{Pos: last.End(), End: last.End(), NewText: []byte(`, "status"`)}},
		}
	case !u.direct.typed && u.direct.verb == "Update" && len(call.Args) == 2,
		!u.direct.typed && u.direct.verb == "Patch" && len(call.Args) == 3:
		return &analysis.SuggestedFix{
			Message:   "Send the status with Status()." + u.direct.verb,
			TextEdits: []analysis.TextEdit{{Pos: sel.Sel.Pos(), End: sel.Sel.Pos(), NewText: []byte("Status().")}},
		}
	}
	return nil
}
