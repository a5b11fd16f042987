package kube

import (
	"go/types"
	"strings"
)

// More API packages ctrllint knows.
const (
	UnstructuredPkg = "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	SchemaPkg       = "k8s.io/apimachinery/pkg/runtime/schema"
)

// setterReceivers are the types whose Set* methods change the object they
// are called on, by package path and type name.
var setterReceivers = map[string]map[string]bool{
	MetaV1Pkg:       {"ObjectMeta": true, "Object": true, "TypeMeta": true},
	UnstructuredPkg: {"Unstructured": true},
	SchemaPkg:       {"ObjectKind": true},
}

// IsObjectSetter reports whether fn is a method that changes the object it
// is called on: the Set* methods of metav1.Object and metav1.ObjectMeta
// (SetLabels, SetAnnotations, SetFinalizers, SetOwnerReferences,
// SetResourceVersion, ...), of metav1.TypeMeta and schema.ObjectKind
// (SetGroupVersionKind), and of unstructured.Unstructured. A call through
// controller-runtime's client.Object or runtime.Object resolves to these.
func IsObjectSetter(fn *types.Func) bool {
	if fn == nil || !strings.HasPrefix(fn.Name(), "Set") {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return false
	}
	path, name := PathName(sig.Recv().Type())
	return setterReceivers[path][name]
}

// writers are package functions that change one of their arguments, by
// package path and name, with the index of that argument.
var writers = map[string]map[string]int{
	MetaV1Pkg: {
		"SetMetaDataAnnotation":    0,
		"SetMetaDataLabel":         0,
		"ResetObjectMetaForStatus": 0,
	},
	MetaPkg: {
		"SetStatusCondition":    0,
		"RemoveStatusCondition": 0,
	},
	ControllerUtilPkg: {
		"AddFinalizer":              0,
		"RemoveFinalizer":           0,
		"SetControllerReference":    1,
		"SetOwnerReference":         1,
		"RemoveOwnerReference":      1,
		"RemoveControllerReference": 1,
	},
	UnstructuredPkg: {
		"SetNestedField":       0,
		"SetNestedStringSlice": 0,
		"SetNestedSlice":       0,
		"SetNestedStringMap":   0,
		"SetNestedMap":         0,
		"RemoveNestedField":    0,
	},
}

// WrittenArg reports which argument fn, a well-known helper, changes:
// metav1.SetMetaDataAnnotation and SetMetaDataLabel (the ObjectMeta),
// meta.SetStatusCondition and RemoveStatusCondition (the conditions),
// controller-runtime's controllerutil.AddFinalizer, RemoveFinalizer,
// SetControllerReference, SetOwnerReference and their Remove counterparts
// (the object), and unstructured.SetNestedField and friends (the map).
func WrittenArg(fn *types.Func) (int, bool) {
	if fn == nil || fn.Pkg() == nil {
		return 0, false
	}
	i, ok := writers[fn.Pkg().Path()][fn.Name()]
	if !ok || !IsFunc(fn, fn.Pkg().Path(), fn.Name()) {
		return 0, false
	}
	return i, true
}

// ReturnsArg reports whether fn returns its first argument itself as its
// first result, seen through an interface: meta.Accessor, whose
// metav1.Object is the object it was given.
func ReturnsArg(fn *types.Func) bool {
	return IsFunc(fn, MetaPkg, "Accessor")
}
