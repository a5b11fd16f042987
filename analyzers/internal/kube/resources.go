package kube

import (
	"go/types"
	"strings"
)

// Packages whose functions build clients, caches and managers from a
// *rest.Config.
const (
	RestPkg         = "k8s.io/client-go/rest"
	DiscoveryPkg    = "k8s.io/client-go/discovery"
	MetadataPkg     = "k8s.io/client-go/metadata"
	CRClusterPkg    = "sigs.k8s.io/controller-runtime/pkg/cluster"
	CRManagerPkg    = "sigs.k8s.io/controller-runtime/pkg/manager"
	CRConfigPkg     = "sigs.k8s.io/controller-runtime/pkg/client/config"
	ControllerRtPkg = "sigs.k8s.io/controller-runtime"
)

// More API packages ctrllint knows.
const (
	DynamicPkg         = "k8s.io/client-go/dynamic"
	DynamicInformerPkg = "k8s.io/client-go/dynamic/dynamicinformer"
	RetryPkg           = "k8s.io/client-go/util/retry"
	CRClientPkg        = "sigs.k8s.io/controller-runtime/pkg/client"
	CRBuilderPkg       = "sigs.k8s.io/controller-runtime/pkg/builder"
	CRSourcePkg        = "sigs.k8s.io/controller-runtime/pkg/source"
	CRReconcilePkg     = "sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// ObjectOf returns the API object type (such as k8s.io/api/core/v1.Pod, not
// a pointer) that a lister, namespace lister, informer (generated, typed or
// v0.37 typed) or typed resource client serves, or nil when t is none of
// these or serves untyped objects (cache.Indexer, GenericLister).
func ObjectOf(t types.Type) types.Type {
	switch {
	case IsTypedResourceClient(t):
		return Pointee(result(t, "Get", 0))
	case IsLister(t):
		if s, ok := types.Unalias(result(t, "List", 0)).(*types.Slice); ok {
			return Pointee(s.Elem())
		}
	case IsInformer(t):
		if l := result(t, "Lister", 0); l != nil {
			return ObjectOf(l)
		}
		if arg := TypeArg(t); arg != nil {
			return Pointee(arg)
		}
		if ix := result(t, "GetTypedIndexer", 0); ix != nil {
			return Pointee(TypeArg(ix))
		}
	}
	return nil
}

// ObjectKey names an API object type for comparisons across packages:
// "k8s.io/api/core/v1.Pod".
func ObjectKey(t types.Type) string {
	path, name := PathName(t)
	if name == "" {
		return ""
	}
	return path + "." + name
}

// Kind is the plain type name of an object type ("Pod").
func Kind(t types.Type) string {
	_, name := PathName(t)
	return name
}

// result is the type of result i of t's method name, or nil.
func result(t types.Type, method string, i int) types.Type {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, method)
	fn, ok := obj.(*types.Func)
	if !ok {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	if sig.Results().Len() <= i {
		return nil
	}
	return sig.Results().At(i).Type()
}

// Pointee is the named type t points to (or t itself when it is named and
// not a pointer), nil for any other type: the object type of *v1.Pod.
func Pointee(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if _, ok := types.Unalias(t).(*types.Named); !ok {
		return nil
	}
	return t
}

// IsDynamicResourceClient reports whether t is the dynamic client's
// per-resource interface (ResourceInterface or NamespaceableResourceInterface).
func IsDynamicResourceClient(t types.Type) bool {
	path, name := PathName(t)
	return path == DynamicPkg && (name == "ResourceInterface" || name == "NamespaceableResourceInterface")
}

// IsFreshReadFunc reports whether fn takes a closure whose reads are meant
// to bypass the cache: client-go's retry.RetryOnConflict and retry.OnError
// (read-modify-write), and kubernetes' controller.RecheckDeletionTimestamp
// (the controller-ref manager's uncached recheck before adoption).
func IsFreshReadFunc(fn *types.Func) bool {
	return IsFunc(fn, RetryPkg, "RetryOnConflict") || IsFunc(fn, RetryPkg, "OnError") ||
		IsFunc(fn, "k8s.io/kubernetes/pkg/controller", "RecheckDeletionTimestamp")
}

// IsWriteMethod reports whether a client method name writes to the API
// server.
func IsWriteMethod(name string) bool {
	switch name {
	case "Create", "Update", "UpdateStatus", "Patch", "Apply", "ApplyStatus", "Delete":
		return true
	}
	return false
}

// IsCRReader reports whether t is a controller-runtime client interface
// with Get and List (client.Reader, client.Client and friends).
func IsCRReader(t types.Type) bool {
	path, _ := PathName(t)
	return path == CRClientPkg && HasMethods(t, "Get", "List")
}

// IsAPIReaderSource reports whether fn returns a controller-runtime reader
// that bypasses the cache: a manager's or cluster's GetAPIReader, or
// client.New (an uncached client).
func IsAPIReaderSource(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	if IsFunc(fn, CRClientPkg, "New") {
		return true
	}
	return fn.Name() == "GetAPIReader" && strings.HasPrefix(fn.Pkg().Path(), "sigs.k8s.io/controller-runtime/")
}

// IsReconcile reports whether fn is a Reconcile method of a
// controller-runtime reconciler: Reconcile(context.Context, req)
// (reconcile.Result, error), or before v0.7 Reconcile(reconcile.Request)
// (reconcile.Result, error), without the context.
func IsReconcile(fn *types.Func) bool {
	if fn == nil || fn.Name() != "Reconcile" {
		return false
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil || sig.Results().Len() != 2 || !Is(sig.Results().At(0).Type(), CRReconcilePkg, "Result") {
		return false
	}
	switch sig.Params().Len() {
	case 2:
		return true
	case 1:
		return Is(sig.Params().At(0).Type(), CRReconcilePkg, "Request")
	}
	return false
}

// ReconcileRequest returns the index among fn's signature parameters of a
// Reconcile method's request: 1 after the context, 0 before v0.7.
func ReconcileRequest(sig *types.Signature) int {
	return sig.Params().Len() - 1
}

// IsCRReaderField reports whether a struct field holds, by its type and
// name, controller-runtime's uncached API reader: a client.Reader (not a
// client.Client) named for it — APIReader, apiReader, uncachedReader,
// LiveReader, directReader — the way a reconciler keeps mgr.GetAPIReader()
// beside the manager's cached client when main, another package, sets it.
func IsCRReaderField(f *types.Var) bool {
	if path, name := PathName(f.Type()); path != CRClientPkg || name != "Reader" {
		return false
	}
	n := strings.ToLower(f.Name())
	for _, w := range []string{"apireader", "uncached", "noncached", "live", "direct"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// IsCachedWatch reports whether fn tells controller-runtime's cache to
// keep an informer for its object argument: builder For/Owns/Watches,
// source.Kind, a cache's GetInformer.
func IsCachedWatch(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() {
	case CRBuilderPkg:
		// Watches(object, handler) since v0.15; before it Watches took a
		// source, whose object the source.Kind literal names.
		return fn.Name() == "For" || fn.Name() == "Owns" || fn.Name() == "Watches"
	case CRSourcePkg:
		return fn.Name() == "Kind"
	case CRCachePkg, CRCacheAPIPkg:
		return fn.Name() == "GetInformer"
	}
	return false
}

// ListItem returns the item type of an API list type (the element of its
// Items field, less a pointer), or nil.
func ListItem(t types.Type) types.Type {
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	for i := range st.NumFields() {
		if f := st.Field(i); f.Name() == "Items" {
			if s, ok := f.Type().Underlying().(*types.Slice); ok {
				return Pointee(s.Elem())
			}
		}
	}
	return nil
}
