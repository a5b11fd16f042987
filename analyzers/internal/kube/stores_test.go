package kube_test

import (
	"go/types"
	"testing"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// method looks up a method of a fixture variable's type.
func method(t *testing.T, scope *types.Scope, variable, name string) (*types.Func, types.Type) {
	t.Helper()
	obj := scope.Lookup(variable)
	if obj == nil {
		t.Fatalf("no fixture variable %s", variable)
	}
	m, _, _ := types.LookupFieldOrMethod(obj.Type(), true, nil, name)
	fn, ok := m.(*types.Func)
	if !ok {
		t.Fatalf("%s has no method %s", variable, name)
	}
	return fn, obj.Type()
}

// TestCacheReadOf: the reads of listers, stores and indexers return cached
// objects (one, or a fresh slice of many); other methods and clients do
// not.
func TestCacheReadOf(t *testing.T) {
	type tc struct {
		variable, method string
		read, many       bool
	}
	common := []tc{
		{"listerPods", "List", true, true},
		{"listerPods", "Pods", false, false},
		{"listerPodsNS", "Get", true, false},
		{"listerPodsNS", "List", true, true},
		{"listerIndexer", "GetByKey", true, false},
		{"listerIndexer", "Get", true, false},
		{"listerIndexer", "ByIndex", true, true},
		{"listerIndexer", "Index", true, true},
		{"listerIndexer", "List", true, true},
		{"listerIndexer", "ListKeys", false, false},
		{"listerIndexer", "IndexKeys", false, false},
		{"listerIndexer", "Add", false, false},
		{"listerStore", "GetByKey", true, false},
		{"listerGeneric", "Get", true, false},
		{"listerGeneric", "List", true, true},
		{"listerGeneric", "ByNamespace", false, false},
		{"listerReplicaSets", "GetPodReplicaSets", true, true},
		{"typedClientPods", "Get", false, false},
		{"typedClientPods", "List", false, false},
		{"informerShared", "GetStore", false, false},
	}
	current := append(common,
		tc{"listerTypedIndexer", "ByTypedIndex", true, true},
		tc{"listerTypedIndexer", "GetByKey", true, false},
		tc{"notResourceIndexer", "Get", true, false},
		tc{"notResourceIndexer", "List", true, true},
		tc{"notCRClient", "Get", false, false},
		tc{"notCRClient", "List", false, false},
		tc{"notDynamicLister", "List", true, true},
		tc{"notDynamicLister", "Namespace", false, false},
		tc{"notDynamicNSLister", "Get", true, false},
	)
	for fixture, cases := range map[string][]tc{"current": current, "legacy": common} {
		scope := load(t, fixture).Types.Scope()
		for _, c := range cases {
			fn, recv := method(t, scope, c.variable, c.method)
			r, ok := kube.CacheReadOf(fn, recv)
			if ok != c.read || r.Many != c.many {
				t.Errorf("%s: CacheReadOf(%s.%s) = %+v, %v; want read %v, many %v", fixture, c.variable, c.method, r, ok, c.read, c.many)
			}
		}
	}
}

func TestMutators(t *testing.T) {
	pkg := load(t, "current")
	scope := pkg.Types.Scope()
	for _, c := range []struct {
		variable, method string
		setter           bool
	}{
		{"notPod", "SetLabels", true},
		{"notPod", "SetFinalizers", true},
		{"notPod", "SetResourceVersion", true},
		{"notPod", "GetLabels", false},
		{"notPod", "DeepCopy", false},
		{"notMetaObject", "SetAnnotations", true},
		{"notMetaObject", "GetAnnotations", false},
		{"notCRClient", "Update", false},
		{"notUnstructured", "SetLabels", true},
		{"notUnstructured", "SetGroupVersionKind", true},
		{"listerIndexer", "Add", false},
	} {
		fn, _ := method(t, scope, c.variable, c.method)
		if got := kube.IsObjectSetter(fn); got != c.setter {
			t.Errorf("IsObjectSetter(%s.%s) = %v, want %v", c.variable, c.method, got, c.setter)
		}
	}
	for _, c := range []struct {
		pkg, name string
		arg       int
		ok        bool
	}{
		{kube.MetaV1Pkg, "SetMetaDataLabel", 0, true},
		{kube.MetaV1Pkg, "SetMetaDataAnnotation", 0, true},
		{kube.MetaV1Pkg, "HasAnnotation", 0, false},
		{kube.MetaPkg, "SetStatusCondition", 0, true},
		{kube.MetaPkg, "FindStatusCondition", 0, false},
		{kube.ControllerUtilPkg, "AddFinalizer", 0, true},
		{kube.ControllerUtilPkg, "SetControllerReference", 1, true},
		{kube.ControllerUtilPkg, "ContainsFinalizer", 0, false},
		{kube.UnstructuredPkg, "SetNestedField", 0, true},
		{kube.UnstructuredPkg, "NestedString", 0, false},
	} {
		p := kube.LookupPackage(pkg.Types, c.pkg)
		if p == nil {
			t.Fatalf("the fixture does not import %s", c.pkg)
		}
		fn, _ := p.Scope().Lookup(c.name).(*types.Func)
		if fn == nil {
			t.Fatalf("no function %s.%s", c.pkg, c.name)
		}
		arg, ok := kube.WrittenArg(fn)
		if ok != c.ok || ok && arg != c.arg {
			t.Errorf("WrittenArg(%s) = %d, %v; want %d, %v", c.name, arg, ok, c.arg, c.ok)
		}
	}
	meta := kube.LookupPackage(pkg.Types, kube.MetaPkg)
	if !kube.ReturnsArg(meta.Scope().Lookup("Accessor").(*types.Func)) {
		t.Errorf("meta.Accessor does not return its argument")
	}
	if kube.ReturnsArg(meta.Scope().Lookup("TypeAccessor").(*types.Func)) {
		t.Errorf("meta.TypeAccessor is taken to return its argument")
	}
}
