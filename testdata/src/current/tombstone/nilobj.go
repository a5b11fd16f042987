package tombstone

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// topologyHandlers unwraps the tombstone only when it carries an object
// (external-provisioner's capacity topology): a tombstone whose Obj is nil
// has nothing left to handle, so the failed assertion after it drops
// nothing. Silent.
func topologyHandlers(informer cache.SharedIndexInformer, queue workqueue.TypedInterface[string]) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj any) {
			if unknown, ok := obj.(cache.DeletedFinalStateUnknown); ok && unknown.Obj != nil {
				obj = unknown.Obj
			}
			node, ok := obj.(*v1.Node)
			if !ok {
				klog.Errorf("deleted object: expected Node, got %T -> ignoring it", obj)
				return
			}
			queue.Add(node.Name)
		},
	})
}

// keyOnlyTombstone checks the tombstone's key but never unwraps it:
// reported.
func keyOnlyTombstone(informer cache.SharedIndexInformer, queue workqueue.TypedInterface[string]) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj any) {
			if unknown, ok := obj.(cache.DeletedFinalStateUnknown); ok && unknown.Key == "" {
				return
			}
			node, ok := obj.(*v1.Node) // want `the deletion is dropped when the object is a cache.DeletedFinalStateUnknown tombstone`
			if !ok {
				return
			}
			queue.Add(node.Name)
		},
	})
}
