package statusupdate

import (
	"go/types"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/ctrllint/ctrllint/analyzers/internal/fixture"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// loadStatusFixture loads the statusupdate fixture of the current module:
// it declares custom types with and without the status marker and imports
// client-go, whose typed clients reach every built-in API group.
func loadStatusFixture(t *testing.T) *packages.Package {
	return fixture.LoadOne(t, "current", "./statusupdate", fixture.SyntaxMode|packages.NeedDeps)
}

// typeIn looks up a named type in a package pkg imports.
func typeIn(t *testing.T, pkg *packages.Package, path, name string) types.Type {
	t.Helper()
	p := kube.LookupPackage(pkg.Types, path)
	if p == nil {
		t.Fatalf("%s is not among the fixture's imports", path)
	}
	obj, ok := p.Scope().Lookup(name).(*types.TypeName)
	if !ok {
		t.Fatalf("no type %s.%s", path, name)
	}
	return obj.Type()
}

func TestStatusOf(t *testing.T) {
	pkg := loadStatusFixture(t)
	src := kube.NewSource(&analysis.Pass{Fset: pkg.Fset, Files: pkg.Syntax})
	for _, tc := range []struct {
		path, name  string
		subresource bool
		metaIgnored []string
		custom      bool
	}{
		{"k8s.io/api/apps/v1", "Deployment", true, []string{metaLabels}, false},
		{"k8s.io/api/apps/v1", "StatefulSet", true, nil, false},
		{"k8s.io/api/core/v1", "Pod", true, []string{metaOwnerReferences}, false},
		{"k8s.io/api/core/v1", "Node", true, nil, false},
		{"k8s.io/api/core/v1", "Namespace", true, nil, false},
		{"k8s.io/api/batch/v1", "Job", true, nil, false},
		{"k8s.io/api/networking/v1", "Ingress", true, nil, false},
		{"k8s.io/api/storage/v1", "VolumeAttachment", true, []string{metaLabels, metaAnnotations, metaFinalizers, metaOwnerReferences}, false},
		{"k8s.io/api/certificates/v1", "CertificateSigningRequest", true, nil, false},
		// No StatusREST in the registry.
		{"k8s.io/api/networking/v1", "NetworkPolicy", false, nil, false},
		{"k8s.io/api/core/v1", "ConfigMap", false, nil, false},
		{"k8s.io/api/core/v1", "Endpoints", false, nil, false},
		{"k8s.io/api/storage/v1", "StorageClass", false, nil, false},
		// Not objects: a status, a list.
		{"k8s.io/api/apps/v1", "DeploymentStatus", false, nil, false},
		{"k8s.io/api/apps/v1", "DeploymentList", false, nil, false},
		// Apply configurations of the built-in kinds.
		{"k8s.io/client-go/applyconfigurations/apps/v1", "DeploymentApplyConfiguration", true, []string{metaLabels}, false},
		{"k8s.io/client-go/applyconfigurations/apps/v1", "DeploymentStatusApplyConfiguration", false, nil, false},
		{"k8s.io/client-go/applyconfigurations/core/v1", "ConfigMapApplyConfiguration", false, nil, false},
		// Custom types: the kubebuilder marker decides (App has it above a
		// blank line and its doc comment, as kubebuilder scaffolds it).
		{"example.com/current/statusupdate", "App", true, []string{metaLabels, metaAnnotations, metaFinalizers, metaOwnerReferences}, true},
		{"example.com/current/statusupdate", "Gadget", false, nil, false},
		{"example.com/current/statusupdate", "AppStatus", false, nil, false},
	} {
		typ := typeIn(t, pkg, tc.path, tc.name)
		for _, v := range []types.Type{typ, types.NewPointer(typ)} {
			got := statusOf(v, src)
			if got.Subresource != tc.subresource || got.Custom != tc.custom || !slices.Equal(got.MetaIgnored, tc.metaIgnored) {
				t.Errorf("statusOf(%s) = %+v, want subresource %v, meta ignored %v, custom %v", v, got, tc.subresource, tc.metaIgnored, tc.custom)
			}
		}
	}
	if got := statusOf(types.Typ[types.Int], src); got.Subresource {
		t.Errorf("statusOf(int) = %+v", got)
	}
	pod := statusOf(typeIn(t, pkg, "k8s.io/api/core/v1", "Pod"), src)
	if !pod.IgnoresMeta(metaOwnerReferences) || pod.IgnoresMeta(metaLabels) {
		t.Errorf("Pod's status update resets owner references only; got %v", pod.MetaIgnored)
	}
}

// typeMethod returns the method name of type path.name (or of *path.name).
func typeMethod(t *testing.T, pkg *packages.Package, path, name, m string) (*types.Func, types.Type) {
	t.Helper()
	recv := typeIn(t, pkg, path, name)
	obj, _, _ := types.LookupFieldOrMethod(recv, true, nil, m)
	fn, ok := obj.(*types.Func)
	if !ok {
		t.Fatalf("%s.%s has no method %s", path, name, m)
	}
	return fn, recv
}

func TestClientWriteOf(t *testing.T) {
	pkg := loadStatusFixture(t)
	const (
		typedCore = "k8s.io/client-go/kubernetes/typed/core/v1"
		typedCert = "k8s.io/client-go/kubernetes/typed/certificates/v1"
	)
	for _, tc := range []struct {
		path, name, method string
		kind               writeKind // 0: not a write
		object             int
		apply              bool
	}{
		{typedCore, "PodInterface", "Update", mainWrite, 1, false},
		{typedCore, "PodInterface", "UpdateStatus", statusWrite, 1, false},
		{typedCore, "PodInterface", "Patch", mainWrite, -1, false},
		{typedCore, "PodInterface", "Apply", mainWrite, 1, true},
		{typedCore, "PodInterface", "ApplyStatus", statusWrite, 1, true},
		{typedCore, "PodInterface", "Get", 0, 0, false},
		{typedCore, "PodInterface", "Create", 0, 0, false},
		{typedCore, "PodInterface", "UpdateEphemeralContainers", 0, 0, false},
		{typedCert, "CertificateSigningRequestInterface", "UpdateApproval", statusWrite, 2, false},
		{kube.CRClientPkg, "Client", "Update", mainWrite, 1, false},
		{kube.CRClientPkg, "Client", "Patch", mainWrite, 1, false},
		{kube.CRClientPkg, "Client", "Apply", mainWrite, 1, true},
		{kube.CRClientPkg, "Client", "Create", 0, 0, false},
		{kube.CRClientPkg, "Client", "Get", 0, 0, false},
		{kube.CRClientPkg, "SubResourceWriter", "Update", subresourceWrite, 1, false},
		{kube.CRClientPkg, "SubResourceWriter", "Patch", subresourceWrite, 1, false},
		{kube.CRClientPkg, "SubResourceClient", "Update", subresourceWrite, 1, false},
	} {
		fn, recv := typeMethod(t, pkg, tc.path, tc.name, tc.method)
		w, ok := clientWriteOf(fn, recv)
		if ok != (tc.kind != 0) || ok && (w.Kind != tc.kind || w.Object != tc.object || w.Apply != tc.apply || w.Method != tc.method) {
			t.Errorf("clientWriteOf(%s.%s) = %+v, %v; want kind %d object %d apply %v", tc.name, tc.method, w, ok, tc.kind, tc.object, tc.apply)
		}
	}
	fn, recv := typeMethod(t, pkg, typedCore, "PodInterface", "Patch")
	if w, _ := clientWriteOf(fn, recv); w.Data != 3 || w.Subresources != 5 || !w.Typed || kube.Kind(w.Served) != "Pod" {
		t.Errorf("typed Patch: %+v", w)
	}
	if fn, _ := typeMethod(t, pkg, kube.CRClientPkg, "Client", "Status"); !isStatusSubresourceClient(fn) || isSubresourceClient(fn) {
		t.Errorf("client.Client.Status is not recognised as the status writer")
	}
	if fn, _ := typeMethod(t, pkg, kube.CRClientPkg, "Client", "SubResource"); !isSubresourceClient(fn) || isStatusSubresourceClient(fn) {
		t.Errorf("client.Client.SubResource is not recognised")
	}
}

func TestMetaSetters(t *testing.T) {
	pkg := loadStatusFixture(t)
	fnIn := func(path, name string) *types.Func {
		p := kube.LookupPackage(pkg.Types, path)
		if p == nil {
			t.Fatalf("%s is not imported", path)
		}
		return p.Scope().Lookup(name).(*types.Func)
	}
	for _, tc := range []struct {
		fn   *types.Func
		want metaSetter
	}{
		{fnIn(kube.ControllerUtilPkg, "AddFinalizer"), metaSetter{Field: metaFinalizers, Arg: 0}},
		{fnIn(kube.ControllerUtilPkg, "RemoveFinalizer"), metaSetter{Field: metaFinalizers, Arg: 0}},
		{fnIn(kube.ControllerUtilPkg, "SetControllerReference"), metaSetter{Field: metaOwnerReferences, Arg: 1}},
		{fnIn(kube.ControllerUtilPkg, "RemoveControllerReference"), metaSetter{Field: metaOwnerReferences, Arg: 1}},
		{fnIn(kube.MetaV1Pkg, "SetMetaDataLabel"), metaSetter{Field: metaLabels, Arg: 0}},
		{fnIn(kube.MetaV1Pkg, "SetMetaDataAnnotation"), metaSetter{Field: metaAnnotations, Arg: 0}},
	} {
		if got, ok := metaSetterOf(tc.fn); !ok || got != tc.want {
			t.Errorf("metaSetterOf(%s) = %+v, %v; want %+v", tc.fn.Name(), got, ok, tc.want)
		}
	}
	setLabels, _ := typeMethod(t, pkg, kube.MetaV1Pkg, "ObjectMeta", "SetLabels")
	if got, ok := metaSetterOf(setLabels); !ok || got.Field != metaLabels {
		t.Errorf("ObjectMeta.SetLabels: %+v, %v", got, ok)
	}
	// Through the interfaces every object implements.
	for _, m := range []struct{ path, typ, name, field string }{
		{kube.MetaV1Pkg, "Object", "SetFinalizers", metaFinalizers},
		{kube.CRClientPkg, "Object", "SetOwnerReferences", metaOwnerReferences},
		{kube.CRClientPkg, "Object", "SetAnnotations", metaAnnotations},
	} {
		fn, _ := typeMethod(t, pkg, m.path, m.typ, m.name)
		if got, ok := metaSetterOf(fn); !ok || got != (metaSetter{Field: m.field, Arg: 0}) {
			t.Errorf("%s.%s.%s: %+v, %v", m.path, m.typ, m.name, got, ok)
		}
	}
	// Setters of fields a status update keeps are not its concern.
	setRV, _ := typeMethod(t, pkg, kube.MetaV1Pkg, "ObjectMeta", "SetResourceVersion")
	if _, ok := metaSetterOf(setRV); ok {
		t.Errorf("ObjectMeta.SetResourceVersion is taken for a setter of reset metadata")
	}
	getLabels, _ := typeMethod(t, pkg, kube.MetaV1Pkg, "ObjectMeta", "GetLabels")
	if _, ok := metaSetterOf(getLabels); ok {
		t.Errorf("ObjectMeta.GetLabels is taken for a setter")
	}
	if _, ok := metaSetterOf(fnIn(kube.ControllerUtilPkg, "ContainsFinalizer")); ok {
		t.Errorf("controllerutil.ContainsFinalizer is taken for a setter")
	}
	if !statusConditionFunc(fnIn(kube.MetaPkg, "SetStatusCondition")) || !statusConditionFunc(fnIn(kube.MetaPkg, "RemoveStatusCondition")) {
		t.Errorf("meta.SetStatusCondition and RemoveStatusCondition are not recognised")
	}
	if w, ok := mutateWriteOf(fnIn(kube.ControllerUtilPkg, "CreateOrUpdate")); !ok || w != (mutateWrite{Object: 2, Mutate: 3}) {
		t.Errorf("mutateWriteOf(CreateOrUpdate) = %+v, %v", w, ok)
	}
	if w, ok := mutateWriteOf(fnIn(kube.ControllerUtilPkg, "CreateOrPatch")); !ok || !w.Status {
		t.Errorf("mutateWriteOf(CreateOrPatch) = %+v, %v: it patches status too", w, ok)
	}
	if _, ok := mutateWriteOf(fnIn(kube.ControllerUtilPkg, "AddFinalizer")); ok {
		t.Errorf("AddFinalizer is taken for CreateOrUpdate")
	}
	if statusConditionFunc(fnIn(kube.MetaPkg, "FindStatusCondition")) {
		t.Errorf("meta.FindStatusCondition is taken for a setter")
	}
}
