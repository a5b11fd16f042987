package kube_test

import (
	"go/types"
	"slices"
	"strings"
	"testing"

	"github.com/ctrllint/ctrllint/analyzers/internal/fixture"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// inertPkgs are the packages of the inert table that the fixture modules
// resolve: zap and prometheus come in through controller-runtime.
var inertPkgs = []string{
	"fmt", "log", "reflect", "log/slog", "k8s.io/klog/v2", "github.com/go-logr/logr",
	"go.uber.org/zap", "github.com/prometheus/client_golang/prometheus", kube.UtilRuntimePkg,
}

// TestInertTable: every inert entry names a function or method that exists
// in the library as the fixtures build it (a misspelt entry would silently
// match nothing), except for klog v1, which no fixture requires, and
// functions newer than the legacy fixture's libraries.
func TestInertTable(t *testing.T) {
	for _, mod := range []string{"current", "legacy"} {
		pkgs := fixture.Types(t, mod, inertPkgs...)
		for key := range kube.InertFuncs() {
			path, recv, name := splitInertKey(key)
			pkg := pkgs[path]
			if pkg == nil {
				if path != "k8s.io/klog" {
					t.Errorf("%s: %s: package not loaded", mod, key)
				}
				continue
			}
			if fn := lookupFunc(pkg, recv, name); fn == nil {
				if !(mod == "legacy" && strings.HasPrefix(key, kube.UtilRuntimePkg+"..HandleErrorWith")) {
					t.Errorf("%s: %s names no function", mod, key)
				}
			} else if !kube.IsInert(fn) || kube.InertKey(fn) != key {
				t.Errorf("%s: IsInert(%s) = false (key %q)", mod, key, kube.InertKey(fn))
			}
		}
	}
}

// TestIsInert: calls that act, and wrappers of the analysed code, are not
// inert even where they sit beside the inert ones.
func TestIsInert(t *testing.T) {
	pkgs := fixture.Types(t, "current", append(inertPkgs, "os", kube.CachePkg)...)
	for _, tc := range []struct {
		path, recv, name string
		want             bool
	}{
		{"k8s.io/klog/v2", "", "InfoS", true},
		{"k8s.io/klog/v2", "Verbose", "Infof", true},
		{"github.com/go-logr/logr", "Logger", "WithValues", true},
		{"go.uber.org/zap", "SugaredLogger", "Errorw", true},
		{"go.uber.org/zap", "", "Any", true},
		{"github.com/prometheus/client_golang/prometheus", "Counter", "Inc", true},
		{"k8s.io/klog/v2", "", "Fatalf", false},
		{"k8s.io/klog/v2", "", "Flush", false},
		{"log", "", "Panicf", false},
		{"log/slog", "", "SetDefault", false},
		{"go.uber.org/zap", "Logger", "DPanic", false},
		{"go.uber.org/zap", "Logger", "Fatal", false},
		{"go.uber.org/zap", "", "ReplaceGlobals", false},
		{"github.com/go-logr/logr", "Logger", "GetSink", false},
		{kube.UtilRuntimePkg, "", "HandleCrash", false},
		{"fmt", "", "Fprintf", false},
		{"os", "", "Exit", false},
		{kube.CachePkg, "", "DeletionHandlingMetaNamespaceKeyFunc", false},
	} {
		fn := lookupFunc(pkgs[tc.path], tc.recv, tc.name)
		if fn == nil {
			t.Fatalf("%s.%s.%s not found", tc.path, tc.recv, tc.name)
		}
		if got := kube.IsInert(fn); got != tc.want {
			t.Errorf("IsInert(%s.%s.%s) = %v, want %v", tc.path, tc.recv, tc.name, got, tc.want)
		}
	}
	// A function of the analysed code with a logger's name is not inert.
	sig := types.NewSignatureType(nil, nil, nil, types.NewTuple(), types.NewTuple(), false)
	own := types.NewFunc(0, types.NewPackage("example.com/controller/log", "log"), "Printf", sig)
	if kube.IsInert(own) || kube.IsInert(nil) {
		t.Errorf("a function outside the table is inert")
	}
}

// TestReportingPkgs: the package-level facts, and that they stay apart: a
// package that builds errors does not only log, nor the other way round.
func TestReportingPkgs(t *testing.T) {
	logs := []string{
		"github.com/go-logr/logr", "k8s.io/klog/v2", "k8s.io/klog", "log", "log/slog", "go.uber.org/zap",
		"github.com/sirupsen/logrus", "sigs.k8s.io/controller-runtime/pkg/log",
		"k8s.io/client-go/tools/record", "k8s.io/client-go/tools/events",
	}
	errs := []string{"fmt", "errors", kube.PkgErrorsPkg}
	got := kube.LogPkgs()
	slices.Sort(got)
	slices.Sort(logs)
	if !slices.Equal(got, logs) {
		t.Errorf("LogPkgs() = %v, want %v", got, logs)
	}
	got = kube.ErrorPkgs()
	slices.Sort(got)
	slices.Sort(errs)
	if !slices.Equal(got, errs) {
		t.Errorf("ErrorPkgs() = %v, want %v", got, errs)
	}
	for _, p := range logs {
		if !kube.IsLogPkg(p) || kube.IsErrorPkg(p) {
			t.Errorf("%s: IsLogPkg %v, IsErrorPkg %v", p, kube.IsLogPkg(p), kube.IsErrorPkg(p))
		}
	}
	for _, p := range errs {
		if kube.IsLogPkg(p) || !kube.IsErrorPkg(p) {
			t.Errorf("%s: IsLogPkg %v, IsErrorPkg %v", p, kube.IsLogPkg(p), kube.IsErrorPkg(p))
		}
	}
	for _, p := range []string{kube.UtilRuntimePkg, "reflect", "os", kube.CRClientPkg} {
		if kube.IsLogPkg(p) || kube.IsErrorPkg(p) {
			t.Errorf("%s is taken for a logging or error package", p)
		}
	}
}

func splitInertKey(key string) (path, recv, name string) {
	i := strings.LastIndex(key, ".")
	j := strings.LastIndex(key[:i], ".")
	return key[:j], key[j+1 : i], key[i+1:]
}

// lookupFunc finds pkg's function name, or the method name of its type recv.
func lookupFunc(pkg *types.Package, recv, name string) *types.Func {
	if pkg == nil {
		return nil
	}
	if recv == "" {
		fn, _ := pkg.Scope().Lookup(name).(*types.Func)
		return fn
	}
	tn, ok := pkg.Scope().Lookup(recv).(*types.TypeName)
	if !ok {
		return nil
	}
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(tn.Type()), true, pkg, name)
	if _, isIface := tn.Type().Underlying().(*types.Interface); isIface {
		obj, _, _ = types.LookupFieldOrMethod(tn.Type(), true, pkg, name)
	}
	fn, _ := obj.(*types.Func)
	return fn
}
