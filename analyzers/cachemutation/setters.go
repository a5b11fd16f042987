package cachemutation

import (
	"go/types"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// isObjectSetter reports whether fn is a method that changes the object it
// is called on (kube.SetterOf: the Set* methods of metav1.Object and
// metav1.ObjectMeta, of metav1.TypeMeta and schema.ObjectKind, and of
// unstructured.Unstructured). A call through controller-runtime's
// client.Object or runtime.Object resolves to these.
func isObjectSetter(fn *types.Func) bool {
	if fn == nil || fn.Signature().Recv() == nil {
		return false
	}
	_, ok := kube.SetterOf(fn)
	return ok
}

// writtenArg reports which argument fn, a package function kube.SetterOf
// knows, changes: metav1.SetMetaDataAnnotation and SetMetaDataLabel (the
// ObjectMeta), meta.SetStatusCondition and RemoveStatusCondition (the
// conditions), controllerutil's finalizer and owner-reference helpers (the
// object), and unstructured.SetNestedField and friends (the map).
func writtenArg(fn *types.Func) (int, bool) {
	if fn == nil || fn.Signature().Recv() != nil {
		return 0, false
	}
	s, ok := kube.SetterOf(fn)
	return s.Arg, ok
}

// returnsArg reports whether fn returns its first argument itself as its
// first result, seen through an interface: meta.Accessor, whose
// metav1.Object is the object it was given.
func returnsArg(fn *types.Func) bool {
	return kube.IsFunc(fn, kube.MetaPkg, "Accessor")
}
