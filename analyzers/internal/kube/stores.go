package kube

import "go/types"

// listersPkg holds client-go's generic listers.ResourceIndexer[T], which
// every v0.37 generated lister embeds; DynamicListerPkg the listers of
// dynamic informers, which serve *unstructured.Unstructured.
const (
	listersPkg       = "k8s.io/client-go/listers"
	DynamicListerPkg = "k8s.io/client-go/dynamic/dynamiclister"
)

// CacheRead describes a call that returns objects an informer's cache
// holds: not copies, the very objects every reader of the cache shares.
type CacheRead struct {
	// Many is true for a result that is a fresh slice of cached objects
	// (List, ByIndex, Index): the slice is the caller's, its elements are
	// not.
	Many bool
}

// cacheReadMethods are the read methods of client-go's untyped stores,
// indexers and generic listers, whose results are interface{} or
// runtime.Object rather than a typed object.
var cacheReadMethods = map[string]CacheRead{
	"Get":          {},
	"GetByKey":     {},
	"List":         {Many: true},
	"ByIndex":      {Many: true},
	"Index":        {Many: true},
	"ByTypedIndex": {Many: true},
	"TypedIndex":   {Many: true},
}

// CacheReadOf reports whether fn, a method called on a receiver of static
// type recv, returns cached objects as its first result: the reads of
// generated listers and namespace listers (Get, List, and expansion methods
// such as GetPodReplicaSets that return objects), of v0.37's generic
// listers.ResourceIndexer[T], and of cache.Store, cache.Indexer,
// cache.TypedIndexer[T] and cache.GenericLister (Get, GetByKey, List,
// ByIndex, Index, ...), whether the store comes from an informer's
// GetStore/GetIndexer or a lister, and of the dynamic informers'
// dynamiclister.Lister and NamespaceLister (Get, List).
//
// controller-runtime's cached client is not a source: it copies objects
// out of its cache.
func CacheReadOf(fn *types.Func, recv types.Type) (CacheRead, bool) {
	if fn == nil || recv == nil {
		return CacheRead{}, false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil || sig.Results().Len() == 0 {
		return CacheRead{}, false
	}
	path, _ := PathName(recv)
	res := sig.Results().At(0).Type()
	if IsDynamicLister(recv) {
		r, ok := cacheReadMethods[fn.Name()]
		return r, ok && (fn.Name() == "Get" || fn.Name() == "List")
	}
	if !IsLister(recv) && !Is(recv, listersPkg, "ResourceIndexer") {
		return CacheRead{}, false
	}
	if path == CachePkg || path == listersPkg {
		r, ok := cacheReadMethods[fn.Name()]
		return r, ok && carriesObjects(res)
	}
	// A generated lister: any method that returns objects reads the cache.
	if s, ok := types.Unalias(res).(*types.Slice); ok {
		return CacheRead{Many: true}, IsPointer(s.Elem()) && IsObjectType(s.Elem())
	}
	return CacheRead{}, IsPointer(res) && IsObjectType(res)
}

// IsDynamicLister reports whether t is a dynamic informer's lister,
// dynamiclister.Lister or NamespaceLister.
func IsDynamicLister(t types.Type) bool {
	return Is(t, DynamicListerPkg, "Lister") || Is(t, DynamicListerPkg, "NamespaceLister")
}

// carriesObjects reports whether a read's result can hold objects: an
// interface, a pointer to an object, or a slice of either.
func carriesObjects(t types.Type) bool {
	if s, ok := types.Unalias(t).(*types.Slice); ok {
		t = s.Elem()
	}
	if types.IsInterface(t) {
		return true
	}
	return IsPointer(t) && IsObjectType(t)
}

// CacheCallbackArg reports whether fn is one of client-go's functions that
// hand each object of a store to a callback (cache.ListAll and
// cache.ListAllByNamespace, whose AppendFunc receives the cached object
// itself, as prometheus-operator's rule selection did), and which argument
// the callback is.
func CacheCallbackArg(fn *types.Func) (int, bool) {
	switch {
	case IsFunc(fn, CachePkg, "ListAll"):
		return 2, true
	case IsFunc(fn, CachePkg, "ListAllByNamespace"):
		return 3, true
	}
	return 0, false
}
