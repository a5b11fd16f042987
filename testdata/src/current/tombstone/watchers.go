package tombstone

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"

	"example.com/current/tombstone/watcher"
)

// podWatcherController implements the handler interface of the module's
// own watcher package (watcher.EventHandler), whose DeleteFunc hands each
// OnDelete the informer's object, tombstone and all: its OnDelete is a
// delete handler, although nothing here registers it on an informer.
type podWatcherController struct {
	queue workqueue.TypedRateLimitingInterface[string]
}

func (c *podWatcherController) OnAdd(obj interface{}) {
	pod := obj.(*v1.Pod) // add: never a tombstone
	c.queue.Add(pod.Name)
}

func (c *podWatcherController) OnUpdate(_, newObj interface{}) {
	pod := newObj.(*v1.Pod)
	c.queue.Add(pod.Name)
}

func (c *podWatcherController) OnDelete(obj interface{}) {
	pod := obj.(*v1.Pod) // want `type assertion to \*v1.Pod panics on the cache.DeletedFinalStateUnknown tombstone a delete handler receives after a missed watch event \(podWatcherController.OnDelete implements watcher.EventHandler.OnDelete, which package watcher calls with the objects of an informer's delete handler\)`
	c.queue.Add(pod.Name)
}

// nodeWatcherController drops the tombstone in a helper of its own.
type nodeWatcherController struct {
	queue workqueue.TypedRateLimitingInterface[string]
}

func (c *nodeWatcherController) OnAdd(obj interface{})          {}
func (c *nodeWatcherController) OnUpdate(_, newObj interface{}) {}
func (c *nodeWatcherController) OnDelete(obj interface{})       { c.forget(obj) }

func (c *nodeWatcherController) forget(obj interface{}) {
	node, ok := obj.(*v1.Node) // want `the deletion is dropped when the object is a cache.DeletedFinalStateUnknown tombstone: the assertion to \*v1.Node fails .* \(the object comes from nodeWatcherController.OnDelete, which implements watcher.EventHandler.OnDelete, which package watcher calls`
	if !ok {
		return
	}
	c.queue.Add(node.Name)
}

// checkedWatcherController unwraps (silent).
type checkedWatcherController struct {
	queue workqueue.TypedRateLimitingInterface[string]
}

func (c *checkedWatcherController) OnAdd(obj interface{})          {}
func (c *checkedWatcherController) OnUpdate(_, newObj interface{}) {}
func (c *checkedWatcherController) OnDelete(obj interface{}) {
	key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		return
	}
	c.queue.Add(key)
}

// listenerController listens to a watcher that unwraps tombstones first
// (silent): its Deleted never sees one.
type listenerController struct {
	queue workqueue.TypedRateLimitingInterface[string]
}

func (c *listenerController) Deleted(obj interface{}) {
	pod := obj.(*v1.Pod)
	c.queue.Add(pod.Name)
}

// seenController hears only of additions (silent).
type seenController struct {
	queue workqueue.TypedRateLimitingInterface[string]
}

func (c *seenController) Seen(obj interface{}) {
	pod := obj.(*v1.Pod)
	c.queue.Add(pod.Name)
}

func registerWatchers(informer cache.SharedIndexInformer) {
	w := watcher.NewResourceWatcher(informer)
	w.Register(&podWatcherController{})
	w.Register(&nodeWatcherController{})
	w.Register(&checkedWatcherController{})
	var u watcher.UnwrappingWatcher
	u.Listen(informer, &listenerController{})
	watcher.Notify(informer, &seenController{})
	w.Start()
}
