package cachemutation

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// nilOnEdge reports whether phi's edge i comes from a branch on which its
// value is nil (if x != nil { x = x.DeepCopy() }: x is nil on the other
// edge).
func nilOnEdge(phi *ssa.Phi, i int) bool {
	preds := phi.Block().Preds
	if i >= len(preds) {
		return false
	}
	pred := preds[i]
	if len(pred.Instrs) == 0 || len(pred.Succs) != 2 || pred.Succs[0] == pred.Succs[1] {
		return false
	}
	cond, ok := pred.Instrs[len(pred.Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	cmp, ok := cond.Cond.(*ssa.BinOp)
	if !ok || (cmp.Op != token.EQL && cmp.Op != token.NEQ) {
		return false
	}
	v := phi.Edges[i]
	if !(cmp.X == v && isNil(cmp.Y) || cmp.Y == v && isNil(cmp.X)) {
		return false
	}
	onTrue := pred.Succs[0] == phi.Block()
	return onTrue == (cmp.Op == token.EQL)
}

func isNil(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.IsNil()
}

// mayBeObject reports whether a type assertion to t can yield an API
// object: a pointer to a struct with ObjectMeta, unstructured.Unstructured,
// or an interface (runtime.Object, metav1.Object).
func mayBeObject(t types.Type) bool {
	if types.IsInterface(t) {
		return true
	}
	return kube.IsPointer(t) && (kube.IsObjectType(t) || kube.Is(t, kube.UnstructuredPkg, "Unstructured"))
}
