package handlerblocking

import (
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
)

// A wait for informer caches inside a handler that handlerblocking knew
// only as cache.WaitForCacheSync and WaitForNamedCacheSync: a factory's
// WaitForCacheSync now comes from kube's one table of cache-sync waits
// (kube.WaitsForCacheSync). A construct: the wait belongs in Run, where
// kubernetes' controllers of client-go v0.30 call
// cache.WaitForNamedCacheSync.

// registerWaiting waits for the factory's caches in its AddFunc.
func registerWaiting(informer cache.SharedIndexInformer, factory informers.SharedInformerFactory, stop <-chan struct{}) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			factory.WaitForCacheSync(stop) // want `SharedInformerFactory.WaitForCacheSync in the AddFunc handler: event handlers run on the informer's delivery goroutine`
		},
	})
}
