package cachemutation

import (
	"go/types"
	"testing"

	"github.com/ctrllint/ctrllint/analyzers/internal/fixture"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

func TestMutators(t *testing.T) {
	pkg := fixture.LoadOne(t, "current", "./kube", fixture.SyntaxMode)
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
		fn, _ := fixture.Method(t, scope, c.variable, c.method)
		if got := isObjectSetter(fn); got != c.setter {
			t.Errorf("isObjectSetter(%s.%s) = %v, want %v", c.variable, c.method, got, c.setter)
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
		arg, ok := writtenArg(fn)
		if ok != c.ok || ok && arg != c.arg {
			t.Errorf("writtenArg(%s) = %d, %v; want %d, %v", c.name, arg, ok, c.arg, c.ok)
		}
	}
	meta := kube.LookupPackage(pkg.Types, kube.MetaPkg)
	if !returnsArg(meta.Scope().Lookup("Accessor").(*types.Func)) {
		t.Errorf("meta.Accessor does not return its argument")
	}
	if returnsArg(meta.Scope().Lookup("TypeAccessor").(*types.Func)) {
		t.Errorf("meta.TypeAccessor is taken to return its argument")
	}
}
