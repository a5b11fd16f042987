package kube

import "go/types"

// HandlerStruct describes one of client-go's event-handler adaptor structs.
type HandlerStruct struct {
	// Typed is true for the v0.37 generic variants, whose DeleteFunc
	// receives a cache.DeletedObject[T] instead of interface{}.
	Typed bool
	// Filtering is true for FilteringResourceEventHandler and its typed
	// variant: their FilterFunc sees deletions too.
	Filtering bool
}

// handlerStructs are the adaptor structs of k8s.io/client-go/tools/cache.
var handlerStructs = map[string]HandlerStruct{
	"ResourceEventHandlerFuncs":              {},
	"ResourceEventHandlerDetailedFuncs":      {},
	"FilteringResourceEventHandler":          {Filtering: true},
	"TypedResourceEventHandlerFuncs":         {Typed: true},
	"TypedResourceEventHandlerDetailedFuncs": {Typed: true},
	"TypedFilteringResourceEventHandler":     {Typed: true, Filtering: true},
}

// HandlerStructOf reports whether t (or *t) is one of client-go's
// event-handler adaptor structs, including aliases such as the generated
// corev1informers.PodHandlerFuncs.
func HandlerStructOf(t types.Type) (HandlerStruct, bool) {
	path, name := PathName(t)
	if path != CachePkg {
		return HandlerStruct{}, false
	}
	h, ok := handlerStructs[name]
	return h, ok
}

// registrationMethods are the informer methods that take an event handler.
var registrationMethods = map[string]bool{
	"AddEventHandler":                 true,
	"AddEventHandlerWithResyncPeriod": true,
	"AddEventHandlerWithOptions":      true,
	"AddTypedEventHandler":            true,
}

// IsHandlerRegistration reports whether fn is an informer method that
// registers an event handler: client-go's SharedInformer family (typed and
// untyped, including generated types such as corev1informers.PodIndexInformer)
// and controller-runtime's cache.Informer, which wraps it.
//
// The receiver's type decides as well as the method's package: in compiler
// export data (go vet), the methods of a defined interface type such as
// `type PodIndexInformer cache.TypedSharedIndexInformer[*v1.Pod]` belong to
// the package that defines the type, not to client-go's cache package.
func IsHandlerRegistration(fn *types.Func) bool {
	if fn == nil || !registrationMethods[fn.Name()] || fn.Pkg() == nil {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return false
	}
	switch fn.Pkg().Path() {
	case CachePkg, CRCachePkg, CRCacheAPIPkg:
		return true
	}
	return IsInformer(sig.Recv().Type())
}

// IsTombstone reports whether t is cache.DeletedFinalStateUnknown (the value
// type informers deliver; see IsTombstonePointer).
func IsTombstone(t types.Type) bool {
	return !IsPointer(t) && Is(t, CachePkg, "DeletedFinalStateUnknown")
}

// IsTombstonePointer reports whether t is *cache.DeletedFinalStateUnknown,
// which informers never deliver: an assertion to it never succeeds.
func IsTombstonePointer(t types.Type) bool {
	return IsPointer(t) && Is(t, CachePkg, "DeletedFinalStateUnknown")
}

// IsDeletedObject reports whether t is the v0.37 cache.DeletedObject[T].
func IsDeletedObject(t types.Type) bool {
	return !IsPointer(t) && Is(t, CachePkg, "DeletedObject")
}

// IsUntypedHandler reports whether t implements client-go's untyped
// cache.ResourceEventHandler interface; cachePkg is client-go's cache
// package as seen from the analysed package (see LookupPackage).
func IsUntypedHandler(t types.Type, cachePkg *types.Package) bool {
	if cachePkg == nil {
		return false
	}
	obj, _ := cachePkg.Scope().Lookup("ResourceEventHandler").(*types.TypeName)
	if obj == nil {
		return false
	}
	iface, _ := obj.Type().Underlying().(*types.Interface)
	return iface != nil && types.Implements(t, iface)
}

// TombstoneFunc describes a client-go or apimachinery function that takes
// the object a delete handler received.
type TombstoneFunc struct {
	// Handles is true for functions that unwrap tombstones themselves.
	Handles bool
	// Replacement names the deletion-handling variant in the same package
	// for a function that fails on tombstones ("" when there is none).
	Replacement string
}

// tombstoneFuncs are keyed by package path, then function name.
var tombstoneFuncs = map[string]map[string]TombstoneFunc{
	CachePkg: {
		"MetaNamespaceKeyFunc":                 {Replacement: "DeletionHandlingMetaNamespaceKeyFunc"},
		"ObjectToName":                         {Replacement: "DeletionHandlingObjectToName"},
		"DeletionHandlingMetaNamespaceKeyFunc": {Handles: true},
		"DeletionHandlingObjectToName":         {Handles: true},
	},
	MetaPkg: {
		"Accessor": {},
		// meta.ListAccessor, TypeAccessor and friends are not used on single
		// deleted objects in practice; keep the table to what real
		// controllers call.
	},
}

// TombstoneFuncOf reports whether fn is a known key or metadata function of
// the deleted object, and how it treats tombstones.
func TombstoneFuncOf(fn *types.Func) (TombstoneFunc, bool) {
	if fn == nil || fn.Pkg() == nil {
		return TombstoneFunc{}, false
	}
	byName, ok := tombstoneFuncs[fn.Pkg().Path()]
	if !ok {
		return TombstoneFunc{}, false
	}
	tf, ok := byName[fn.Name()]
	if ok && !IsFunc(fn, fn.Pkg().Path(), fn.Name()) {
		return TombstoneFunc{}, false // a method of the same name
	}
	return tf, ok
}
