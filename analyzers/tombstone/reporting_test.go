package tombstone

import (
	"go/types"
	"testing"

	"github.com/ctrllint/ctrllint/analyzers/internal/fixture"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

func TestIsReporting(t *testing.T) {
	const klog, logr = "k8s.io/klog/v2", "github.com/go-logr/logr"
	pkgs := fixture.Types(t, "current", "fmt", "time", klog, logr, kube.UtilRuntimePkg, kube.APIErrorsPkg, kube.CachePkg)
	method := func(path, typ, name string) *types.Func {
		m, _, _ := types.LookupFieldOrMethod(lookup(t, pkgs[path], typ).Type(), true, nil, name)
		return m.(*types.Func)
	}
	fn := func(path, name string) *types.Func {
		f, ok := lookup(t, pkgs[path], name).(*types.Func)
		if !ok {
			t.Fatalf("%s.%s is not a function", path, name)
		}
		return f
	}
	for _, tc := range []struct {
		fn   *types.Func
		want bool
	}{
		{fn("fmt", "Errorf"), true},
		{fn(klog, "Infof"), true},
		{fn(klog, "FromContext"), true},
		{method(klog, "Verbose", "Info"), true},
		{method(logr, "Logger", "Info"), true},
		{method(logr, "Logger", "V"), true},
		{fn(kube.UtilRuntimePkg, "HandleError"), true},
		{fn(kube.APIErrorsPkg, "IsNotFound"), true},
		{fn("time", "Since"), true},
		// Calls with effects a controller can depend on.
		{fn("time", "Sleep"), false},
		{fn(kube.UtilRuntimePkg, "HandleCrash"), false},
		{fn(kube.CachePkg, "WaitForCacheSync"), false},
		{nil, false},
	} {
		if got := isReporting(tc.fn); got != tc.want {
			t.Errorf("isReporting(%v) = %v, want %v", tc.fn, got, tc.want)
		}
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
