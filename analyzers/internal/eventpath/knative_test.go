package eventpath

import (
	"go/token"
	"go/types"
	"testing"
)

// TestKnativeReconcile: knative.dev/pkg is not a fixture dependency (it
// would pull in knative's whole client stack), so the methods its generated
// reconcilers call are checked on types built here, by name and path; the
// knative-serving corpus entry runs them on the real ones.
func TestKnativeReconcile(t *testing.T) {
	reconciler := types.NewPackage(KnativeReconcilerPkg, "reconciler")
	event := types.NewNamed(types.NewTypeName(token.NoPos, reconciler, "Event", nil), types.Universe.Lookup("error").Type().Underlying(), nil)
	other := types.NewPackage("example.com/app", "app")
	recvType := types.NewNamed(types.NewTypeName(token.NoPos, other, "Reconciler", nil), types.NewStruct(nil, nil), nil)
	method := func(name string, result types.Type) *types.Func {
		recv := types.NewVar(token.NoPos, other, "r", types.NewPointer(recvType))
		res := types.NewTuple(types.NewVar(token.NoPos, other, "", result))
		return types.NewFunc(token.NoPos, other, name, types.NewSignatureType(recv, nil, nil, types.NewTuple(), res, false))
	}
	for _, name := range []string{"ReconcileKind", "FinalizeKind", "ObserveKind", "ObserveFinalizeKind"} {
		if !IsKnativeReconcile(method(name, event)) {
			t.Errorf("%s returning reconciler.Event is not taken for a knative reconcile method", name)
		}
	}
	if IsKnativeReconcile(method("ReconcileKind", types.Universe.Lookup("error").Type())) {
		t.Errorf("a ReconcileKind returning a plain error is taken for knative's")
	}
	if IsKnativeReconcile(method("Reconcile", event)) {
		t.Errorf("another method returning reconciler.Event is taken for a knative reconcile method")
	}
}
