package tombstonefix

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"
)

// Handlers written on one line, as event handlers often are
// (`DeleteFunc: func(obj interface{}) { c.enqueue(obj) },` is the most
// common shape in kubernetes' pkg/controller and in operators); the
// assertion shape is the one issue 29 reported, whose fix repeated the
// line's prefix on every inserted line and did not compile.
func (c *Controller) RegisterOneLine(informer cache.SharedIndexInformer) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) { p := obj.(*v1.Pod); c.queue.Add(p.Name) }, // want `type assertion to \*v1.Pod panics on the cache.DeletedFinalStateUnknown tombstone`
	})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) { key, _ := cache.MetaNamespaceKeyFunc(obj); c.queue.Add(key) }, // want `use cache.DeletionHandlingMetaNamespaceKeyFunc`
	})
}
