package tombstone

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// Suppression directives: with a reason they silence the finding on their
// line (or the next line); without a reason, or with nothing to silence,
// they are reported themselves.
func suppressed(informer cache.SharedIndexInformer, q workqueue.TypedRateLimitingInterface[string]) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			pod := obj.(*v1.Pod) //ctrllint:ignore tombstone the test informer never re-lists
			q.Add(pod.Name)
		},
	})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			//ctrllint:ignore tombstone fake informer in a unit test, never disconnects
			pod := obj.(*v1.Pod)
			q.Add(pod.Name)
		},
	})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			pod := obj.(*v1.Pod) /* want `type assertion to \*v1.Pod panics` `ctrllint:ignore directive for tombstone needs a reason` */ //ctrllint:ignore tombstone
			q.Add(pod.Name)
		},
	})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			pod := obj.(*v1.Pod) /* want `ctrllint:ignore directive for tombstone suppresses nothing` */ //ctrllint:ignore tombstone stale: add handlers are never reported
			q.Add(pod.Name)
		},
	})
}
