package listerbypass

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/edit"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// listerFix rewrites a typed clientset Get into a lister Get when the
// receiver holds a lister (or informer) of the resource:
//
//	c.kubeClient.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
//	c.podLister.Pods(ns).Get(name)
//
// Both return (*v1.Pod, error) with a NotFound error alike. List is left
// alone: a lister's List takes a label selector and returns a slice.
func listerFix(pass *analysis.Pass, fn *ssa.Function, r read, c *caches) *analysis.SuggestedFix {
	if r.kind != typedRead || r.method != "Get" {
		return nil
	}
	field, recv := receiverField(fn, c.fields[r.key])
	if field == nil {
		return nil
	}
	call := edit.CallAt(pass, r.call.Pos())
	if call == nil || len(call.Args) != 3 {
		return nil // subresource Gets have no lister counterpart
	}
	get, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	resource, ok := ast.Unparen(get.X).(*ast.CallExpr) // Pods(ns) or Nodes()
	if !ok {
		return nil
	}
	resSel, ok := ast.Unparen(resource.Fun).(*ast.SelectorExpr)
	if !ok || len(resource.Args) > 1 {
		return nil
	}
	id := ssax.RootIdent(resSel.X)
	if id == nil || id.Name != recv {
		return nil // the client is not reached from the receiver
	}
	if obj, ok := pass.TypesInfo.Uses[id].(*types.Var); !ok || obj != fn.Params[0].Object() {
		return nil
	}
	lister := recv + "." + accessor(field)
	text := lister
	if len(resource.Args) == 1 {
		text += "." + resSel.Sel.Name + "(" + types.ExprString(resource.Args[0]) + ")"
	}
	text += ".Get(" + types.ExprString(call.Args[1]) + ")"
	edits := []analysis.TextEdit{{Pos: call.Pos(), End: call.End(), NewText: []byte(text)}}
	if file := edit.FileOf(pass, call.Pos()); file != nil {
		edits = append(edits, edit.DropImports(pass, file, call.Pos(), call.End())...)
	}
	return &analysis.SuggestedFix{
		Message:   "Read through " + lister + " (objects from a lister are shared: copy before changing them)",
		TextEdits: edits,
	}
}
