package requeueerr

import (
	"go/types"
	"testing"

	"github.com/ctrllint/ctrllint/analyzers/internal/fixture"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

func TestErrorFuncs(t *testing.T) {
	pkgs := fixture.Types(t, "current", "fmt", "errors", kube.PkgErrorsPkg, kube.UtilErrorsPkg, kube.CRClientPkg, kube.CRReconcilePkg, kube.APIErrorsPkg)
	for _, tc := range []struct {
		path, name string
		want       errorNil
	}{
		{"fmt", "Errorf", errNever},
		{"errors", "New", errNever},
		{"errors", "Join", errJoins},
		{"errors", "Is", errTests},
		{"errors", "As", errTests},
		{kube.PkgErrorsPkg, "Errorf", errNever},
		{kube.PkgErrorsPkg, "Wrap", errWraps},
		{kube.PkgErrorsPkg, "Wrapf", errWraps},
		{kube.PkgErrorsPkg, "WithStack", errWraps},
		{kube.UtilErrorsPkg, "NewAggregate", errJoins},
		{kube.UtilErrorsPkg, "FilterOut", errFilters},
		{kube.CRClientPkg, "IgnoreNotFound", errFilters},
		{kube.CRClientPkg, "IgnoreAlreadyExists", errFilters},
		{kube.CRReconcilePkg, "TerminalError", errNever},
		{kube.APIErrorsPkg, "IsNotFound", errTests},
		{kube.APIErrorsPkg, "IsConflict", errTests},
		{kube.APIErrorsPkg, "IsTooManyRequests", errTests},
		// Not error functions, or ones that tell nothing about nil.
		{kube.APIErrorsPkg, "NewNotFound", 0},
		{kube.APIErrorsPkg, "ReasonForError", 0},
		{kube.APIErrorsPkg, "IsStoreReadError", errTests},
		{kube.UtilErrorsPkg, "Reduce", 0},
		{"fmt", "Sprintf", 0},
		{"errors", "Unwrap", 0},
		{kube.PkgErrorsPkg, "Cause", 0},
	} {
		fn, ok := lookup(t, pkgs[tc.path], tc.name).(*types.Func)
		if !ok {
			t.Fatalf("%s.%s is not a function", tc.path, tc.name)
		}
		got, found := errorFuncOf(fn)
		if got != tc.want || found != (tc.want != 0) {
			t.Errorf("errorFuncOf(%s.%s) = %v, %v; want %v", tc.path, tc.name, got, found, tc.want)
		}
	}
	// A method of the same name is not the function.
	agg := lookup(t, pkgs[kube.UtilErrorsPkg], "Aggregate").Type()
	is, _, _ := types.LookupFieldOrMethod(agg, true, nil, "Is")
	if _, ok := errorFuncOf(is.(*types.Func)); ok {
		t.Errorf("the Aggregate interface's Is method is taken for errors.Is")
	}
}

// TestErrorFuncsLegacy: apimachinery's reason tests are recognised by
// shape, so those of a release more than two years older are too.
func TestErrorFuncsLegacy(t *testing.T) {
	apierrors := fixture.Types(t, "legacy", kube.APIErrorsPkg)[kube.APIErrorsPkg]
	for _, name := range []string{"IsNotFound", "IsAlreadyExists", "IsConflict", "IsResourceExpired"} {
		if k, _ := errorFuncOf(lookup(t, apierrors, name).(*types.Func)); k != errTests {
			t.Errorf("legacy apierrors.%s: %v, want errTests", name, k)
		}
	}
}
