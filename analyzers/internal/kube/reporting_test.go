package kube_test

import (
	"go/types"
	"testing"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

func TestIsReporting(t *testing.T) {
	const klog, logr = "k8s.io/klog/v2", "github.com/go-logr/logr"
	pkgs := loadPackages(t, "current", "fmt", "time", klog, logr, kube.UtilRuntimePkg, kube.APIErrorsPkg, kube.CachePkg)
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
		if got := kube.IsReporting(tc.fn); got != tc.want {
			t.Errorf("IsReporting(%v) = %v, want %v", tc.fn, got, tc.want)
		}
	}
}
