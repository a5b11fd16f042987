package kube

import "go/types"

// What a controller-runtime Reconcile returns, and how the framework reads
// it (sigs.k8s.io/controller-runtime/pkg/internal/controller, reconcileHandler):
// a non-nil error wins over the Result, which is then ignored.

// IsResult reports whether t is controller-runtime's reconcile.Result (the
// value, not a pointer), also when spelled ctrl.Result, an alias.
func IsResult(t types.Type) bool {
	return !IsPointer(t) && Is(t, CRReconcilePkg, "Result")
}

// IsReconcileFunc reports whether t is controller-runtime's function
// adaptor to a Reconciler: reconcile.TypedFunc[R] and reconcile.Func (an
// alias of TypedFunc[Request] since v0.19, its own func type before).
// Converting a function to it makes that function a Reconcile.
func IsReconcileFunc(t types.Type) bool {
	if IsPointer(t) {
		return false
	}
	path, name := PathName(t)
	return path == CRReconcilePkg && (name == "TypedFunc" || name == "Func")
}

// RequeueField reports whether f is a field of reconcile.Result that asks
// for a requeue when set: Requeue (a rate-limited requeue; deprecated) or
// RequeueAfter (a requeue after the duration, when positive). Priority
// only orders a requeue that something else asks for.
func RequeueField(f *types.Var) bool {
	if f == nil || f.Pkg() == nil || f.Pkg().Path() != CRReconcilePkg || !f.IsField() {
		return false
	}
	return f.Name() == "Requeue" || f.Name() == "RequeueAfter"
}

// IsTerminalError reports whether fn is reconcile.TerminalError, whose
// error controller-runtime logs and counts but never requeues.
func IsTerminalError(fn *types.Func) bool {
	return IsFunc(fn, CRReconcilePkg, "TerminalError")
}

// IsResultReader reports whether fn is a method of reconcile.Result that
// only reads it (IsZero, whose pointer receiver takes the address of a
// local Result).
func IsResultReader(fn *types.Func) bool {
	if fn == nil || fn.Name() != "IsZero" {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	return sig != nil && sig.Recv() != nil && IsPointer(sig.Recv().Type()) && Is(sig.Recv().Type(), CRReconcilePkg, "Result")
}
