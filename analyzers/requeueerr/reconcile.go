package requeueerr

import (
	"go/types"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// What a controller-runtime Reconcile returns, and how the framework reads
// it (sigs.k8s.io/controller-runtime/pkg/internal/controller, reconcileHandler):
// a non-nil error wins over the Result, which is then ignored.

// isReconcileFunc reports whether t is controller-runtime's function
// adaptor to a Reconciler: reconcile.TypedFunc[R] and reconcile.Func (an
// alias of TypedFunc[Request] since v0.19, its own func type before).
// Converting a function to it makes that function a Reconcile.
func isReconcileFunc(t types.Type) bool {
	if kube.IsPointer(t) {
		return false
	}
	path, name := kube.PathName(t)
	return path == kube.CRReconcilePkg && (name == "TypedFunc" || name == "Func")
}

// requeueField reports whether f is a field of reconcile.Result that asks
// for a requeue when set: Requeue (a rate-limited requeue; deprecated) or
// RequeueAfter (a requeue after the duration, when positive). Priority
// only orders a requeue that something else asks for.
func requeueField(f *types.Var) bool {
	if f == nil || f.Pkg() == nil || f.Pkg().Path() != kube.CRReconcilePkg || !f.IsField() {
		return false
	}
	return f.Name() == "Requeue" || f.Name() == "RequeueAfter"
}

// isTerminalError reports whether fn is reconcile.TerminalError, whose
// error controller-runtime logs and counts but never requeues.
func isTerminalError(fn *types.Func) bool {
	return kube.IsFunc(fn, kube.CRReconcilePkg, "TerminalError")
}

// isResultReader reports whether fn is a method of reconcile.Result that
// only reads it (IsZero, whose pointer receiver takes the address of a
// local Result).
func isResultReader(fn *types.Func) bool {
	if fn == nil || fn.Name() != "IsZero" {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	return sig != nil && sig.Recv() != nil && kube.IsPointer(sig.Recv().Type()) && kube.Is(sig.Recv().Type(), kube.CRReconcilePkg, "Result")
}
