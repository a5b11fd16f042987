package requeueerr

import (
	"go/types"
	"testing"

	"github.com/ctrllint/ctrllint/analyzers/internal/fixture"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

func TestReconcileTypes(t *testing.T) {
	pkgs := fixture.Types(t, "current", kube.CRReconcilePkg, "sigs.k8s.io/controller-runtime")
	reconcile, ctrl := pkgs[kube.CRReconcilePkg], pkgs["sigs.k8s.io/controller-runtime"]

	result := lookup(t, reconcile, "Result").Type()

	typedFunc := lookup(t, reconcile, "TypedFunc").Type()
	request := lookup(t, reconcile, "Request").Type()
	inst, err := types.Instantiate(nil, typedFunc, []types.Type{request}, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		what string
		t    types.Type
		want bool
	}{
		{"reconcile.Func (an alias of TypedFunc[Request])", lookup(t, reconcile, "Func").Type(), true},
		{"reconcile.TypedFunc[Request]", inst, true},
		{"reconcile.Reconciler", lookup(t, reconcile, "Reconciler").Type(), false},
		{"*reconcile.Func", types.NewPointer(inst), false},
	} {
		if got := isReconcileFunc(tc.t); got != tc.want {
			t.Errorf("isReconcileFunc(%s) = %v, want %v", tc.what, got, tc.want)
		}
	}

	st := result.Underlying().(*types.Struct)
	fields := map[string]bool{}
	for i := range st.NumFields() {
		f := st.Field(i)
		fields[f.Name()] = requeueField(f)
	}
	if want := map[string]bool{"Requeue": true, "RequeueAfter": true, "Priority": false}; len(fields) != len(want) || fields["Requeue"] != want["Requeue"] || fields["RequeueAfter"] != want["RequeueAfter"] || fields["Priority"] != want["Priority"] {
		t.Errorf("RequeueField over reconcile.Result's fields = %v, want %v", fields, want)
	}
	other := types.NewField(0, ctrl, "Requeue", types.Typ[types.Bool], false)
	if requeueField(other) {
		t.Errorf("a Requeue field of another package's struct is taken for Result's")
	}

	if !isTerminalError(lookup(t, reconcile, "TerminalError").(*types.Func)) {
		t.Errorf("reconcile.TerminalError is not recognised")
	}
	if isTerminalError(lookup(t, reconcile, "AsReconciler").(*types.Func)) {
		t.Errorf("reconcile.AsReconciler is taken for TerminalError")
	}
	isZero, _, _ := types.LookupFieldOrMethod(types.NewPointer(result), true, reconcile, "IsZero")
	if !isResultReader(isZero.(*types.Func)) {
		t.Errorf("(*reconcile.Result).IsZero is not a Result reader")
	}
	reconcileMethod, _, _ := types.LookupFieldOrMethod(inst, true, reconcile, "Reconcile")
	if isResultReader(reconcileMethod.(*types.Func)) {
		t.Errorf("TypedFunc.Reconcile is taken for a Result reader")
	}
}

// lookup returns the package-level object name of pkg.
func lookup(t *testing.T, pkg *types.Package, name string) types.Object {
	t.Helper()
	obj := pkg.Scope().Lookup(name)
	if obj == nil {
		t.Fatalf("%s.%s not found", pkg.Path(), name)
	}
	return obj
}
