package kube_test

import (
	"go/types"
	"testing"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

func TestErrorFuncs(t *testing.T) {
	pkgs := loadPackages(t, "current", "fmt", "errors", kube.PkgErrorsPkg, kube.UtilErrorsPkg, kube.CRClientPkg, kube.CRReconcilePkg, kube.APIErrorsPkg)
	for _, tc := range []struct {
		path, name string
		want       kube.ErrorNil
	}{
		{"fmt", "Errorf", kube.ErrNever},
		{"errors", "New", kube.ErrNever},
		{"errors", "Join", kube.ErrJoins},
		{"errors", "Is", kube.ErrTests},
		{"errors", "As", kube.ErrTests},
		{kube.PkgErrorsPkg, "Errorf", kube.ErrNever},
		{kube.PkgErrorsPkg, "Wrap", kube.ErrWraps},
		{kube.PkgErrorsPkg, "Wrapf", kube.ErrWraps},
		{kube.PkgErrorsPkg, "WithStack", kube.ErrWraps},
		{kube.UtilErrorsPkg, "NewAggregate", kube.ErrJoins},
		{kube.UtilErrorsPkg, "FilterOut", kube.ErrFilters},
		{kube.CRClientPkg, "IgnoreNotFound", kube.ErrFilters},
		{kube.CRClientPkg, "IgnoreAlreadyExists", kube.ErrFilters},
		{kube.CRReconcilePkg, "TerminalError", kube.ErrNever},
		{kube.APIErrorsPkg, "IsNotFound", kube.ErrTests},
		{kube.APIErrorsPkg, "IsConflict", kube.ErrTests},
		{kube.APIErrorsPkg, "IsTooManyRequests", kube.ErrTests},
		// Not error functions, or ones that tell nothing about nil.
		{kube.APIErrorsPkg, "NewNotFound", 0},
		{kube.APIErrorsPkg, "ReasonForError", 0},
		{kube.APIErrorsPkg, "IsStoreReadError", kube.ErrTests},
		{kube.UtilErrorsPkg, "Reduce", 0},
		{"fmt", "Sprintf", 0},
		{"errors", "Unwrap", 0},
		{kube.PkgErrorsPkg, "Cause", 0},
	} {
		fn, ok := lookup(t, pkgs[tc.path], tc.name).(*types.Func)
		if !ok {
			t.Fatalf("%s.%s is not a function", tc.path, tc.name)
		}
		got, found := kube.ErrorFuncOf(fn)
		if got != tc.want || found != (tc.want != 0) {
			t.Errorf("ErrorFuncOf(%s.%s) = %v, %v; want %v", tc.path, tc.name, got, found, tc.want)
		}
	}
	// A method of the same name is not the function.
	agg := lookup(t, pkgs[kube.UtilErrorsPkg], "Aggregate").Type()
	is, _, _ := types.LookupFieldOrMethod(agg, true, nil, "Is")
	if _, ok := kube.ErrorFuncOf(is.(*types.Func)); ok {
		t.Errorf("the Aggregate interface's Is method is taken for errors.Is")
	}
}

// TestErrorFuncsLegacy: apimachinery's reason tests are recognised by
// shape, so those of a release more than two years older are too.
func TestErrorFuncsLegacy(t *testing.T) {
	apierrors := loadPackages(t, "legacy", kube.APIErrorsPkg)[kube.APIErrorsPkg]
	for _, name := range []string{"IsNotFound", "IsAlreadyExists", "IsConflict", "IsResourceExpired"} {
		if k, _ := kube.ErrorFuncOf(lookup(t, apierrors, name).(*types.Func)); k != kube.ErrTests {
			t.Errorf("legacy apierrors.%s: %v, want ErrTests", name, k)
		}
	}
}
