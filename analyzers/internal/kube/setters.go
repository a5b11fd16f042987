package kube

import (
	"go/types"
	"strings"
)

// The object setters: the library calls that change an object, or a part of
// one, handed to them. This is the one table of them; its users derive what
// they need from SetterOf:
//
//   - cachemutation: a setter called on an object of an informer's cache
//     writes to the cache (any Arg, any Field);
//   - patchbase: a setter called between MergeFrom and Patch changes the
//     patch's object (any Arg);
//   - statusupdate: a setter of a metadata field that a status update
//     resets (Labels, Annotations, Finalizers, OwnerReferences) before a
//     Status().Update loses the change; a conditions setter changes status;
//   - conflictretry: a metadata setter (a function, Field neither empty nor
//     ResourceVersion) leaves the object's resourceVersion alone.
//   - finalizerpatch: a setter of Finalizers changes the list a JSON merge
//     patch then sends whole.
//
// What only one analyzer needs (which fields it cares about) is its policy
// over this table, not a list of its own.

// Fields a setter changes (Setter.Field): the metadata fields are named as
// metav1.ObjectMeta's, the same names as the Set* methods of metav1.Object.
const (
	FieldLabels          = "Labels"
	FieldAnnotations     = "Annotations"
	FieldFinalizers      = "Finalizers"
	FieldOwnerReferences = "OwnerReferences"
	FieldResourceVersion = "ResourceVersion"
	// FieldConditions is a status's conditions slice, which
	// meta.SetStatusCondition and RemoveStatusCondition change through the
	// pointer they are given (&obj.Status.Conditions): not metadata.
	FieldConditions = "Conditions"
)

// A Setter describes a library call that changes one of its arguments.
type Setter struct {
	// Arg is the index of the changed argument, a method's receiver
	// counting as argument 0 (also when called through an interface).
	Arg int
	// Field is what the call changes in that argument: an ObjectMeta field
	// (FieldLabels, FieldFinalizers, FieldResourceVersion, "Name", ...)
	// for the metadata setters, FieldConditions for the status conditions
	// helpers, "" when it is not one known field (unstructured's
	// SetNestedField and kin, which change the object's map wherever the
	// path points; metav1.ResetObjectMetaForStatus, which resets several;
	// SetGroupVersionKind and SetUnstructuredContent).
	Field string
}

// Meta reports whether the setter changes one metadata field (an
// ObjectMeta field: Labels, Finalizers, ResourceVersion, ...).
func (s Setter) Meta() bool { return s.Field != "" && s.Field != FieldConditions }

// setterFuncs are the package functions that change an argument, by
// package path and name.
var setterFuncs = map[string]map[string]Setter{
	MetaV1Pkg: {
		"SetMetaDataAnnotation": {0, FieldAnnotations},
		"SetMetaDataLabel":      {0, FieldLabels},
		// (meta, existingMeta): copies the stored metadata over meta's.
		"ResetObjectMetaForStatus": {0, ""},
	},
	MetaPkg: {
		"SetStatusCondition":    {0, FieldConditions},
		"RemoveStatusCondition": {0, FieldConditions},
	},
	ControllerUtilPkg: {
		"AddFinalizer":    {0, FieldFinalizers},
		"RemoveFinalizer": {0, FieldFinalizers},
		// (owner, object, scheme, ...)
		"SetControllerReference":    {1, FieldOwnerReferences},
		"SetOwnerReference":         {1, FieldOwnerReferences},
		"RemoveOwnerReference":      {1, FieldOwnerReferences},
		"RemoveControllerReference": {1, FieldOwnerReferences},
	},
	UnstructuredPkg: {
		"SetNestedField":       {0, ""},
		"SetNestedStringSlice": {0, ""},
		"SetNestedSlice":       {0, ""},
		"SetNestedStringMap":   {0, ""},
		"SetNestedMap":         {0, ""},
		"RemoveNestedField":    {0, ""},
	},
}

// setterReceivers are the types whose Set* methods change the value they
// are called on, by package path and type name: true where each sets the
// ObjectMeta field its name says (SetLabels: Labels), but for
// nonMetaSetters. metav1.Object is the interface controller-runtime's
// client.Object and every typed object embed: a setter called through
// client.Object is metav1.Object's.
var setterReceivers = map[string]map[string]bool{
	MetaV1Pkg:       {"ObjectMeta": true, "Object": true, "TypeMeta": false},
	UnstructuredPkg: {"Unstructured": true},
	SchemaPkg:       {"ObjectKind": false},
}

// nonMetaSetters are the Set* methods of unstructured.Unstructured that set
// no ObjectMeta field: its type, its whole content, and a list's metadata
// (continue, remainingItemCount). TestSetterTable checks that every other
// Set* method sets an ObjectMeta field of its name.
var nonMetaSetters = map[string]bool{
	"SetUnstructuredContent": true,
	"SetGroupVersionKind":    true,
	"SetAPIVersion":          true,
	"SetKind":                true,
	"SetContinue":            true,
	"SetRemainingItemCount":  true,
}

// SetterOf reports whether fn is a library call that changes one of its
// arguments, and which argument and field: the Set* methods of
// metav1.ObjectMeta (promoted to every object type), of the metav1.Object
// interface (so also called through client.Object), of
// unstructured.Unstructured, and of metav1.TypeMeta and schema.ObjectKind;
// metav1.SetMetaDataLabel, SetMetaDataAnnotation and
// ResetObjectMetaForStatus; meta.SetStatusCondition and
// RemoveStatusCondition; controllerutil.AddFinalizer, RemoveFinalizer,
// SetControllerReference, SetOwnerReference, RemoveOwnerReference and
// RemoveControllerReference; unstructured.SetNestedField and its kin.
func SetterOf(fn *types.Func) (Setter, bool) {
	if fn == nil || fn.Pkg() == nil {
		return Setter{}, false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil {
		return Setter{}, false
	}
	if sig.Recv() == nil {
		s, ok := setterFuncs[fn.Pkg().Path()][fn.Name()]
		return s, ok
	}
	if !strings.HasPrefix(fn.Name(), "Set") {
		return Setter{}, false
	}
	path, name := PathName(sig.Recv().Type())
	meta, ok := setterReceivers[path][name]
	if !ok {
		return Setter{}, false
	}
	s := Setter{Arg: 0}
	if meta && !nonMetaSetters[fn.Name()] {
		s.Field = strings.TrimPrefix(fn.Name(), "Set")
	}
	return s, true
}
