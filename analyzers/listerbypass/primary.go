package listerbypass

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// primaryRead reports whether r is a Reconcile method's read, through an
// uncached reader, of the object its request names, of the type the
// builder's For watches: the object whose cache event started the
// reconcile. Reading it live is no read-modify-write the cache cannot
// serve: a stale copy only makes the write conflict and the request
// return, and the live read costs one GET per reconcile (cluster-api's
// topology controller read its Cluster through the API reader until
// v1.5, PR 8936).
func primaryRead(fn *ssa.Function, r read, c *caches) bool {
	if r.kind != apiRead || r.method != "Get" || !c.primary[r.key] {
		return false
	}
	m, ok := fn.Object().(*types.Func)
	if !ok || !kube.IsReconcile(m) {
		return false
	}
	// fn.Params[0] is the receiver.
	i := 1 + kube.ReconcileRequest(fn.Signature)
	if i >= len(fn.Params) {
		return false
	}
	args := r.call.Common().Args
	return len(args) > 1 && fromRequest(args[1], fn.Params[i])
}

// fromRequest reports whether a key is the request's own: req.NamespacedName.
func fromRequest(v ssa.Value, req *ssa.Parameter) bool {
	for range 4 {
		switch x := v.(type) {
		case *ssa.Parameter:
			return x == req
		case *ssa.Field:
			v = x.X
		case *ssa.UnOp:
			v = x.X
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.Alloc:
			// A request whose address is taken lives in a local.
			for _, ref := range *x.Referrers() {
				if st, ok := ref.(*ssa.Store); ok && st.Addr == x && st.Val == req {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}
