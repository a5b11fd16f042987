package tombstone

import (
	"go/types"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// isTombstoneType reports whether t is cache.DeletedFinalStateUnknown (the value
// type informers deliver; see isTombstonePointer).
func isTombstoneType(t types.Type) bool {
	return !kube.IsPointer(t) && kube.Is(t, kube.CachePkg, "DeletedFinalStateUnknown")
}

// isTombstonePointer reports whether t is *cache.DeletedFinalStateUnknown,
// which informers never deliver: an assertion to it never succeeds.
func isTombstonePointer(t types.Type) bool {
	return kube.IsPointer(t) && kube.Is(t, kube.CachePkg, "DeletedFinalStateUnknown")
}

// isDeletedObject reports whether t is the v0.37 cache.DeletedObject[T].
func isDeletedObject(t types.Type) bool {
	return !kube.IsPointer(t) && kube.Is(t, kube.CachePkg, "DeletedObject")
}

// tombstoneFunc describes a client-go or apimachinery function that takes
// the object a delete handler received.
type tombstoneFunc struct {
	// Handles is true for functions that unwrap tombstones themselves.
	Handles bool
	// Replacement names the deletion-handling variant in the same package
	// for a function that fails on tombstones ("" when there is none).
	Replacement string
}

// tombstoneFuncs are keyed by package path, then function name.
var tombstoneFuncs = map[string]map[string]tombstoneFunc{
	kube.CachePkg: {
		"MetaNamespaceKeyFunc":                 {Replacement: "DeletionHandlingMetaNamespaceKeyFunc"},
		"ObjectToName":                         {Replacement: "DeletionHandlingObjectToName"},
		"DeletionHandlingMetaNamespaceKeyFunc": {Handles: true},
		"DeletionHandlingObjectToName":         {Handles: true},
	},
	kube.MetaPkg: {
		"Accessor": {},
		// meta.ListAccessor, TypeAccessor and friends are not used on single
		// deleted objects in practice; keep the table to what real
		// controllers call.
	},
}

// tombstoneFuncOf reports whether fn is a known key or metadata function of
// the deleted object, and how it treats tombstones.
func tombstoneFuncOf(fn *types.Func) (tombstoneFunc, bool) {
	if fn == nil || fn.Pkg() == nil {
		return tombstoneFunc{}, false
	}
	byName, ok := tombstoneFuncs[fn.Pkg().Path()]
	if !ok {
		return tombstoneFunc{}, false
	}
	tf, ok := byName[fn.Name()]
	if ok && !kube.IsFunc(fn, fn.Pkg().Path(), fn.Name()) {
		return tombstoneFunc{}, false // a method of the same name
	}
	return tf, ok
}
