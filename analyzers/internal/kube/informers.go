package kube

import "go/types"

// Informer starts and cache-sync waits: the one owner of "this call starts
// informers" and "this call waits for their caches to sync". Users:
// cachesync (workers started before the wait, waits before the factory's
// Start, informers requested after it), cachemutation (a test that starts
// informers reads a live cache again), handlerblocking (a wait inside an
// event handler blocks the informer's delivery).

// IsFactoryStart reports whether fn, called on a receiver of static type
// recv, starts an informer factory's informers: Start or StartWithContext
// of a factory IsInformerFactory recognises.
func IsFactoryStart(fn *types.Func, recv types.Type) bool {
	if fn == nil || (fn.Name() != "Start" && fn.Name() != "StartWithContext") || recv == nil {
		return false
	}
	return IsInformerFactory(recv)
}

// IsInformerRun reports whether fn, called on a receiver of static type
// recv, runs an informer itself: Run or RunWithContext of an informer
// IsInformer recognises.
func IsInformerRun(fn *types.Func, recv types.Type) bool {
	if fn == nil || (fn.Name() != "Run" && fn.Name() != "RunWithContext") || recv == nil {
		return false
	}
	return IsInformer(recv)
}

// StartsInformers reports whether fn, called on a receiver of static type
// recv, runs informers: an informer factory's Start or StartWithContext
// (IsFactoryStart), an informer's Run or RunWithContext (IsInformerRun).
func StartsInformers(fn *types.Func, recv types.Type) bool {
	return IsFactoryStart(fn, recv) || IsInformerRun(fn, recv)
}

// cacheWaits are the functions of client-go's cache package that block
// until informers have synced: the stop-channel variants every release has,
// the contextual one (v0.32+) and the DoneChecker-based WaitFor (v0.37).
var cacheWaits = map[string]bool{
	"WaitForCacheSync":                 true,
	"WaitForNamedCacheSync":            true,
	"WaitForNamedCacheSyncWithContext": true,
	"WaitFor":                          true,
}

// factoryWaits are the methods of informer factories and of
// controller-runtime's cache that wait for their informers to sync.
var factoryWaits = map[string]bool{
	"WaitForCacheSync":            true,
	"WaitForCacheSyncWithContext": true,
}

// WaitsForCacheSync reports whether a call of fn, on a receiver of static
// type recv (nil for a function, or for the method's own receiver type),
// waits for informer caches to sync: cache.WaitForCacheSync,
// WaitForNamedCacheSync, WaitForNamedCacheSyncWithContext and WaitFor, an
// informer factory's WaitForCacheSync or WaitForCacheSyncWithContext
// (whose result is a map or a SyncResult, not a bool), and
// controller-runtime's cache WaitForCacheSync. Whether the caller looks at
// the result does not matter: it waited.
func WaitsForCacheSync(fn *types.Func, recv types.Type) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil {
		return false
	}
	if sig.Recv() == nil {
		return fn.Pkg().Path() == CachePkg && cacheWaits[fn.Name()]
	}
	if !factoryWaits[fn.Name()] {
		return false
	}
	if recv == nil {
		recv = sig.Recv().Type()
	}
	if IsInformerFactory(recv) {
		return true
	}
	switch path, _ := PathName(recv); path {
	case CRCachePkg, CRCacheAPIPkg:
		return true
	}
	return false
}
