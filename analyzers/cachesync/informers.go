package cachesync

import (
	"go/types"
	"strings"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// takesSyncChecks reports whether fn is a function with a bool result that
// is given informers' sync checks (cache.InformerSynced or
// cache.DoneChecker values, alone or in a slice): a wait helper of another
// package, such as a controller framework's WaitForCacheSync wrapper.
func takesSyncChecks(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Results().Len() != 1 {
		return false
	}
	if b, ok := sig.Results().At(0).Type().Underlying().(*types.Basic); !ok || b.Kind() != types.Bool {
		return false
	}
	for i := range sig.Params().Len() {
		t := sig.Params().At(i).Type()
		if s, ok := t.(*types.Slice); ok {
			t = s.Elem()
		}
		if isSyncCheck(t) {
			return true
		}
	}
	return false
}

// isSyncCheck reports whether t is cache.InformerSynced (an informer's
// HasSynced as a value) or cache.DoneChecker (v0.37's HasSyncedChecker).
func isSyncCheck(t types.Type) bool {
	return kube.Is(t, kube.CachePkg, "InformerSynced") || kube.Is(t, kube.CachePkg, "DoneChecker")
}

// isHasSynced reports whether fn is an informer's HasSynced or
// HasSyncedChecker method: code that mentions it means to wait for the
// cache.
func isHasSynced(fn *types.Func) bool {
	if fn == nil || (fn.Name() != "HasSynced" && fn.Name() != "HasSyncedChecker") {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return false
	}
	if fn.Pkg() != nil && (fn.Pkg().Path() == kube.CachePkg || fn.Pkg().Path() == kube.CRCachePkg || fn.Pkg().Path() == kube.CRCacheAPIPkg) {
		return true
	}
	return kube.IsInformer(sig.Recv().Type())
}

// isInformerRequest reports whether fn, called on a receiver of static type
// recv, makes an informer factory create an informer that its next Start
// runs: the factory's InformerFor and ForResource, and Informer,
// TypedInformer and Lister of a generated per-resource informer
// (factory.Core().V1().Pods().Informer()). An informer already created is
// returned again, not created twice.
func isInformerRequest(fn *types.Func, recv types.Type) bool {
	if fn == nil || recv == nil {
		return false
	}
	switch fn.Name() {
	case "InformerFor", "ForResource":
		return kube.IsInformerFactory(recv)
	case "Informer", "TypedInformer", "Lister":
		return isResourceInformer(recv)
	}
	return false
}

// isResourceInformer reports whether t is a generated per-resource informer
// of a factory (corev1informers.PodInformer, its v0.37 Typed variant, the
// informers of generated clientsets): the handle whose Informer or Lister
// asks the factory for the informer. informers.GenericInformer, which
// ForResource returns after creating the informer, is not one.
func isResourceInformer(t types.Type) bool {
	path, name := kube.PathName(t)
	if path == "" || path == kube.CachePkg || name == "GenericInformer" || !kube.IsInformer(t) {
		return false
	}
	return kube.HasMethods(t, "Informer", "Lister")
}

// isFactoryAccessor reports whether t is what a factory's group and version
// accessors return (factory.Core(), factory.Core().V1()): an interface of a
// generated informers package whose methods lead to per-resource informers.
func isFactoryAccessor(t types.Type) bool {
	path, _ := kube.PathName(t)
	if !strings.HasPrefix(path, kube.InformersPkg+"/") && !strings.Contains(path, "/informers/externalversions/") {
		return false
	}
	if kube.IsInformer(t) || kube.IsInformerFactory(t) {
		return false
	}
	_, ok := types.Unalias(t).Underlying().(*types.Interface)
	return ok
}

// storeConstructors build stores and queues that no informer fills: a
// controller's own bookkeeping, which needs no sync.
var storeConstructors = map[string]bool{
	"NewStore":                true,
	"NewIndexer":              true,
	"NewThreadSafeStore":      true,
	"NewTTLStore":             true,
	"NewExpirationStore":      true,
	"NewFakeExpirationStore":  true,
	"NewFIFO":                 true,
	"NewDeltaFIFO":            true,
	"NewDeltaFIFOWithOptions": true,
	"NewRealFIFO":             true,
	"NewRealFIFOWithOptions":  true,
	"NewHeap":                 true,
	"NewUndeltaStore":         true,
}

// isStoreConstructor reports whether fn builds a cache.Store or Indexer of
// the caller's own (cache.NewStore, NewIndexer, NewTTLStore, the FIFOs):
// reads of it are not reads of an informer's cache.
func isStoreConstructor(fn *types.Func) bool {
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == kube.CachePkg && storeConstructors[fn.Name()] && kube.IsFunc(fn, kube.CachePkg, fn.Name())
}
