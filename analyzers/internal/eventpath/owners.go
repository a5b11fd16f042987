package eventpath

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// Owners are the controller types whose processing path a function is on;
// the nil key stands for a root that has no receiver type.
type Owners map[*types.TypeName]bool

// OwnerOf is the named receiver type of fn, or of the method a closure is
// declared in; nil for a plain function.
func OwnerOf(fn *ssa.Function) *types.TypeName {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	recv := fn.Signature.Recv()
	if recv == nil {
		return nil
	}
	t := recv.Type()
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Origin().Obj()
	}
	return nil
}

// KnativeReconcilerPkg declares the Event that knative's generated
// reconcilers expect back from ReconcileKind and FinalizeKind.
const KnativeReconcilerPkg = "knative.dev/pkg/reconciler"

// IsKnativeReconcile reports whether m is a method knative's generated
// reconciler calls for every key it takes from its queue: ReconcileKind,
// FinalizeKind, ObserveKind or ObserveFinalizeKind(ctx, obj) reconciler.Event.
func IsKnativeReconcile(m *types.Func) bool {
	switch m.Name() {
	case "ReconcileKind", "FinalizeKind", "ObserveKind", "ObserveFinalizeKind":
	default:
		return false
	}
	sig := m.Type().(*types.Signature)
	return sig.Recv() != nil && sig.Results().Len() == 1 && kube.Is(sig.Results().At(0).Type(), KnativeReconcilerPkg, "Event")
}
