package cachemutation

import (
	"go/types"
	"strings"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// setterReceivers are the types whose Set* methods change the object they
// are called on, by package path and type name.
var setterReceivers = map[string]map[string]bool{
	kube.MetaV1Pkg:       {"ObjectMeta": true, "Object": true, "TypeMeta": true},
	kube.UnstructuredPkg: {"Unstructured": true},
	kube.SchemaPkg:       {"ObjectKind": true},
}

// isObjectSetter reports whether fn is a method that changes the object it
// is called on: the Set* methods of metav1.Object and metav1.ObjectMeta
// (SetLabels, SetAnnotations, SetFinalizers, SetOwnerReferences,
// SetResourceVersion, ...), of metav1.TypeMeta and schema.ObjectKind
// (SetGroupVersionKind), and of unstructured.Unstructured. A call through
// controller-runtime's client.Object or runtime.Object resolves to these.
func isObjectSetter(fn *types.Func) bool {
	if fn == nil || !strings.HasPrefix(fn.Name(), "Set") {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return false
	}
	path, name := kube.PathName(sig.Recv().Type())
	return setterReceivers[path][name]
}

// writers are package functions that change one of their arguments, by
// package path and name, with the index of that argument.
var writers = map[string]map[string]int{
	kube.MetaV1Pkg: {
		"SetMetaDataAnnotation":    0,
		"SetMetaDataLabel":         0,
		"ResetObjectMetaForStatus": 0,
	},
	kube.MetaPkg: {
		"SetStatusCondition":    0,
		"RemoveStatusCondition": 0,
	},
	kube.ControllerUtilPkg: {
		"AddFinalizer":              0,
		"RemoveFinalizer":           0,
		"SetControllerReference":    1,
		"SetOwnerReference":         1,
		"RemoveOwnerReference":      1,
		"RemoveControllerReference": 1,
	},
	kube.UnstructuredPkg: {
		"SetNestedField":       0,
		"SetNestedStringSlice": 0,
		"SetNestedSlice":       0,
		"SetNestedStringMap":   0,
		"SetNestedMap":         0,
		"RemoveNestedField":    0,
	},
}

// writtenArg reports which argument fn, a well-known helper, changes:
// metav1.SetMetaDataAnnotation and SetMetaDataLabel (the ObjectMeta),
// meta.SetStatusCondition and RemoveStatusCondition (the conditions),
// controller-runtime's controllerutil.AddFinalizer, RemoveFinalizer,
// SetControllerReference, SetOwnerReference and their Remove counterparts
// (the object), and unstructured.SetNestedField and friends (the map).
func writtenArg(fn *types.Func) (int, bool) {
	if fn == nil || fn.Pkg() == nil {
		return 0, false
	}
	i, ok := writers[fn.Pkg().Path()][fn.Name()]
	if !ok || !kube.IsFunc(fn, fn.Pkg().Path(), fn.Name()) {
		return 0, false
	}
	return i, true
}

// returnsArg reports whether fn returns its first argument itself as its
// first result, seen through an interface: meta.Accessor, whose
// metav1.Object is the object it was given.
func returnsArg(fn *types.Func) bool {
	return kube.IsFunc(fn, kube.MetaPkg, "Accessor")
}
