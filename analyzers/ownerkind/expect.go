package ownerkind

import (
	"go/types"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// An identity is the group and kind the API server knows a Go type by.
type identity struct {
	group part // unknown when the package's group is not a constant
	kind  string
}

// identityOf returns the group and kind of a concrete API object type (a
// struct embedding metav1.ObjectMeta, or a pointer to one): a type of
// k8s.io/api (or the extension API servers') by its package's GroupName
// and its name; a custom type by its package's GroupVersion or
// SchemeGroupVersion (kubebuilder's groupversion_info.go, code-generator's
// register.go) and the kind it is registered under. ok is false for
// anything else: interfaces, unstructured objects, a type its package does
// not visibly register.
func (a *checker) identityOf(t types.Type) (identity, bool) {
	if t == nil || types.IsInterface(t) || !kube.IsObjectType(t) {
		return identity{}, false
	}
	n := kube.Named(t)
	pkg := n.Obj().Pkg()
	if pkg == nil || !a.visible(pkg) {
		return identity{}, false
	}
	if kube.BuiltinGroup(pkg.Path()) != "" {
		if !embedsTypeMeta(n) {
			return identity{}, false // a template (PodTemplateSpec embeds ObjectMeta), not a kind
		}
		return identity{group: builtinGV(pkg).group, kind: n.Obj().Name()}, true
	}
	if id, ok := a.identities[n.Obj()]; ok {
		return id, id.kind != ""
	}
	id := a.customIdentity(n.Obj())
	a.identities[n.Obj()] = id
	return id, id.kind != ""
}

// embedsTypeMeta reports whether a struct embeds metav1.TypeMeta, as every
// kind of k8s.io/api does.
func embedsTypeMeta(n *types.Named) bool {
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		if f := st.Field(i); f.Embedded() && kube.Is(f.Type(), kube.MetaV1Pkg, "TypeMeta") {
			return true
		}
	}
	return false
}

// customIdentity reads a custom API type's group from its package's group
// version variable and its kind from its registration, found in the file
// declaring the type (kubebuilder registers in the types file's init) or
// the one declaring the group version (register.go's addKnownTypes).
func (a *checker) customIdentity(obj *types.TypeName) identity {
	pkg := obj.Pkg()
	var gvVar *types.Var
	for _, name := range []string{"GroupVersion", "SchemeGroupVersion"} {
		if v, ok := pkg.Scope().Lookup(name).(*types.Var); ok {
			gvVar = v
			break
		}
	}
	if gvVar == nil {
		return identity{} // not an API package
	}
	ev := &evaluator{a: a}
	gv := ev.pkgVar(gvVar)
	var kind part
	for _, declaring := range []types.Object{obj, gvVar} {
		f, own := a.src.fileOf(declaring)
		if f == nil {
			continue
		}
		if k, ok := a.registrations(f, own, pkg)[obj.Name()]; ok {
			kind = k
			break
		}
	}
	if !kind.ok {
		return identity{}
	}
	return identity{group: gv.group, kind: kind.s}
}

// visible reports whether the analysed package can see the whole scope of
// pkg: its own, or one it imports directly (export data holds a directly
// imported package whole; one imported further down may hold only what
// other packages mention).
func (a *checker) visible(pkg *types.Package) bool {
	if pkg == a.pass.Pkg {
		return true
	}
	for _, imp := range a.pass.Pkg.Imports() {
		if imp == pkg {
			return true
		}
	}
	return false
}

// sameGroup compares groups, taking as one the groups that serve the same
// kinds from the same storage (extensions/v1beta1's Deployment, DaemonSet,
// ReplicaSet, Ingress, NetworkPolicy and PodSecurityPolicy; core and
// events.k8s.io Events): an owner reference naming either finds the same
// object.
func sameGroup(x, y string) bool {
	if x == y {
		return true
	}
	if x > y {
		x, y = y, x
	}
	switch [2]string{x, y} {
	case [2]string{"apps", "extensions"}, [2]string{"extensions", "networking.k8s.io"}, [2]string{"extensions", "policy"}, [2]string{"", "events.k8s.io"}:
		return true
	}
	return false
}
