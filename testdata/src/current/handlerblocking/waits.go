package handlerblocking

import (
	"context"

	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
)

// Waits for informer caches inside a handler that handlerblocking knew only
// as cache.WaitForCacheSync and WaitForNamedCacheSync: the contextual form
// kubernetes' controllers call in Run since client-go v0.32
// (cache.WaitForNamedCacheSyncWithContext) and a factory's
// WaitForCacheSync now come from kube's one table of cache-sync waits
// (kube.WaitsForCacheSync). Constructs, like Notifier's wait: the waits
// belong in Run.

// RegisterWaiting waits for a second informer's cache in its AddFunc.
func RegisterWaiting(ctx context.Context, informer, other cache.SharedIndexInformer, factory informers.SharedInformerFactory) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if !cache.WaitForNamedCacheSyncWithContext(ctx, other.HasSynced) { // want `cache.WaitForNamedCacheSyncWithContext in the AddFunc handler: event handlers run on the informer's delivery goroutine, and waiting there for a cache to sync can wait for this very informer`
				return
			}
		},
		UpdateFunc: func(_, _ any) {
			factory.WaitForCacheSync(ctx.Done()) // want `SharedInformerFactory.WaitForCacheSync in the UpdateFunc handler`
		},
	})
}
