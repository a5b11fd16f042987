package tombstone

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"
)

// Handlers written on one line, on client-go v0.30's untyped handlers:
// the shape issue 29 reported (the fix repeated the line's prefix on every
// inserted line and did not compile), and the key function's.
func (rsc *ReplicaSetController) registerOneLine(informer cache.SharedIndexInformer) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) { p := obj.(*v1.Pod); rsc.queue.Add(p.Namespace + "/" + p.Name) }, // want `type assertion to \*v1.Pod panics on the cache.DeletedFinalStateUnknown tombstone`
	})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) { key, _ := cache.MetaNamespaceKeyFunc(obj); rsc.queue.Add(key) }, // want `use cache.DeletionHandlingMetaNamespaceKeyFunc`
	})
}
