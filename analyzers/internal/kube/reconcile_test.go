package kube_test

import (
	"go/types"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// loadPackages loads packages of a fixture module's build, with their
// complete types (an importer's view of a dependency holds only what the
// importer uses).
func loadPackages(t *testing.T, fixture string, paths ...string) map[string]*types.Package {
	t.Helper()
	out := make(map[string]*types.Package)
	for _, p := range loadFixture(t, fixture, packages.NeedName|packages.NeedTypes, paths...) {
		out[p.PkgPath] = p.Types
	}
	for _, path := range paths {
		if out[path] == nil {
			t.Fatalf("%s not loaded from %s", path, fixture)
		}
	}
	return out
}

func lookup(t *testing.T, pkg *types.Package, name string) types.Object {
	t.Helper()
	obj := pkg.Scope().Lookup(name)
	if obj == nil {
		t.Fatalf("%s.%s not found", pkg.Path(), name)
	}
	return obj
}

func TestReconcileTypes(t *testing.T) {
	pkgs := loadPackages(t, "current", kube.CRReconcilePkg, "sigs.k8s.io/controller-runtime")
	reconcile, ctrl := pkgs[kube.CRReconcilePkg], pkgs["sigs.k8s.io/controller-runtime"]

	result := lookup(t, reconcile, "Result").Type()
	for _, tc := range []struct {
		what string
		t    types.Type
		want bool
	}{
		{"reconcile.Result", result, true},
		{"ctrl.Result (an alias)", lookup(t, ctrl, "Result").Type(), true},
		{"*reconcile.Result", types.NewPointer(result), false},
		{"reconcile.Request", lookup(t, reconcile, "Request").Type(), false},
		{"a Result of another package", types.NewNamed(types.NewTypeName(0, types.NewPackage("sigs.k8s.io/controller-runtime/pkg/finalizer", "finalizer"), "Result", nil), types.NewStruct(nil, nil), nil), false},
	} {
		if got := kube.IsResult(tc.t); got != tc.want {
			t.Errorf("IsResult(%s) = %v, want %v", tc.what, got, tc.want)
		}
	}

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
		if got := kube.IsReconcileFunc(tc.t); got != tc.want {
			t.Errorf("IsReconcileFunc(%s) = %v, want %v", tc.what, got, tc.want)
		}
	}

	st := result.Underlying().(*types.Struct)
	fields := map[string]bool{}
	for i := range st.NumFields() {
		f := st.Field(i)
		fields[f.Name()] = kube.RequeueField(f)
	}
	if want := map[string]bool{"Requeue": true, "RequeueAfter": true, "Priority": false}; len(fields) != len(want) || fields["Requeue"] != want["Requeue"] || fields["RequeueAfter"] != want["RequeueAfter"] || fields["Priority"] != want["Priority"] {
		t.Errorf("RequeueField over reconcile.Result's fields = %v, want %v", fields, want)
	}
	other := types.NewField(0, ctrl, "Requeue", types.Typ[types.Bool], false)
	if kube.RequeueField(other) {
		t.Errorf("a Requeue field of another package's struct is taken for Result's")
	}

	if !kube.IsTerminalError(lookup(t, reconcile, "TerminalError").(*types.Func)) {
		t.Errorf("reconcile.TerminalError is not recognised")
	}
	if kube.IsTerminalError(lookup(t, reconcile, "AsReconciler").(*types.Func)) {
		t.Errorf("reconcile.AsReconciler is taken for TerminalError")
	}
	isZero, _, _ := types.LookupFieldOrMethod(types.NewPointer(result), true, reconcile, "IsZero")
	if !kube.IsResultReader(isZero.(*types.Func)) {
		t.Errorf("(*reconcile.Result).IsZero is not a Result reader")
	}
	reconcileMethod, _, _ := types.LookupFieldOrMethod(inst, true, reconcile, "Reconcile")
	if kube.IsResultReader(reconcileMethod.(*types.Func)) {
		t.Errorf("TypedFunc.Reconcile is taken for a Result reader")
	}
}
