package tombstone

import (
	v1 "k8s.io/api/core/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// SharedController uses one enqueue function for every event, as many
// controllers do: right for adds, wrong for deletes.
type SharedController struct {
	queue workqueue.TypedRateLimitingInterface[string]
}

func (c *SharedController) Register(informer cache.SharedIndexInformer) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: c.enqueue,
		UpdateFunc: func(old, cur interface{}) {
			c.enqueue(cur)
		},
		DeleteFunc: c.enqueue,
	})
}

func (c *SharedController) enqueue(obj interface{}) {
	key, err := cache.MetaNamespaceKeyFunc(obj) // want `cache.MetaNamespaceKeyFunc returns an error .* \(c.enqueue is both the AddFunc and the DeleteFunc of an informer handler\)`
	if err != nil {
		utilruntime.HandleError(err)
		return
	}
	c.queue.Add(key)
}

// HelperController passes the object on: the helper is checked as if it
// were the handler, through direct calls, method values and func values.
type HelperController struct {
	queue workqueue.TypedRateLimitingInterface[string]
}

func (c *HelperController) Register(informer cache.SharedIndexInformer) {
	forget := func(obj interface{}) {
		c.forgetPod(obj)
	}
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: forget,
	})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			record := c.recordDeletion
			record(obj)
		},
	})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			podKey(obj, c.queue)
		},
	})
}

func (c *HelperController) forgetPod(obj interface{}) {
	pod := obj.(*v1.Pod) // want `type assertion to \*v1.Pod panics .* \(the object comes from the DeleteFunc forget\)`
	c.queue.Forget(pod.Name)
}

func (c *HelperController) recordDeletion(obj interface{}) {
	if pod, ok := obj.(*v1.Pod); ok { // want `the deletion is dropped .* the assertion to \*v1.Pod fails`
		c.queue.Add(pod.Name)
	}
}

// podKey unwraps the tombstone itself: silent, and so is its caller.
func podKey(obj interface{}, q workqueue.TypedRateLimitingInterface[string]) {
	key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		return
	}
	q.Add(key)
}

// unwrapHelper: the failure path hands the object to a helper that deals
// with tombstones, so the comma-ok assertion is fine.
func (c *HelperController) unwrapHelper(obj interface{}) {
	pod, ok := obj.(*v1.Pod)
	if !ok {
		c.fromTombstone(obj)
		return
	}
	c.queue.Add(pod.Name)
}

func (c *HelperController) fromTombstone(obj interface{}) {
	tombstone, ok := obj.(cache.DeletedFinalStateUnknown)
	if !ok {
		return
	}
	if pod, ok := tombstone.Obj.(*v1.Pod); ok {
		c.queue.Add(pod.Name)
	}
}

// podHandler is a handler type of its own: its OnDelete sees tombstones,
// its OnAdd and OnUpdate do not.
type podHandler struct {
	queue workqueue.TypedRateLimitingInterface[string]
}

func (h *podHandler) OnAdd(obj interface{}, isInInitialList bool) {
	pod := obj.(*v1.Pod)
	h.queue.Add(pod.Name)
}

func (h *podHandler) OnUpdate(old, cur interface{}) {
	pod := cur.(*v1.Pod)
	h.queue.Add(pod.Name)
}

func (h *podHandler) OnDelete(obj interface{}) {
	pod := obj.(*v1.Pod) // want `type assertion to \*v1.Pod panics`
	h.queue.Add(pod.Name)
}

func registerHandlerType(informer cache.SharedIndexInformer, c *HelperController) {
	informer.AddEventHandler(&podHandler{queue: c.queue})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.unwrapHelper})
}

// filters: the FilterFunc of a filtering handler sees deletions too.
func filters(informer cache.SharedIndexInformer, h cache.ResourceEventHandler) {
	informer.AddEventHandler(cache.FilteringResourceEventHandler{
		FilterFunc: func(obj interface{}) bool {
			pod := obj.(*v1.Pod) // want `type assertion to \*v1.Pod panics`
			return pod.Spec.NodeName != ""
		},
		Handler: h,
	})
	informer.AddEventHandler(cache.FilteringResourceEventHandler{
		FilterFunc: func(obj interface{}) bool {
			switch t := obj.(type) {
			case *v1.Pod:
				return t.Spec.NodeName != ""
			case cache.DeletedFinalStateUnknown:
				if pod, ok := t.Obj.(*v1.Pod); ok {
					return pod.Spec.NodeName != ""
				}
				return false
			default:
				return false
			}
		},
		Handler: h,
	})
}

// isTombstone is a predicate helper: after `if isTombstone(obj) { return }`
// the object is known to be real, so the assertion that follows is silent.
func isTombstone(obj interface{}) bool {
	_, ok := obj.(cache.DeletedFinalStateUnknown)
	return ok
}

func (c *HelperController) skipsTombstones(obj interface{}) {
	if isTombstone(obj) {
		return
	}
	pod := obj.(*v1.Pod)
	c.queue.Add(pod.Name)
}

// filtersForAddsOnly: the filtered handler has no DeleteFunc, so a filter
// that returns false for a tombstone loses nothing (silent); a panic in it
// still crashes the controller (reported).
func filtersForAddsOnly(informer cache.SharedIndexInformer, c *HelperController) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.skipsTombstones})
	informer.AddEventHandler(cache.FilteringResourceEventHandler{
		FilterFunc: func(obj interface{}) bool {
			pod, ok := obj.(*v1.Pod)
			return ok && pod.Spec.NodeName == ""
		},
		Handler: cache.ResourceEventHandlerFuncs{
			AddFunc: func(obj interface{}) { c.queue.Add(obj.(*v1.Pod).Name) },
		},
	})
	informer.AddEventHandler(cache.FilteringResourceEventHandler{
		FilterFunc: func(obj interface{}) bool {
			return obj.(*v1.Pod).Spec.NodeName == "" // want `type assertion to \*v1.Pod panics`
		},
		Handler: &cache.ResourceEventHandlerFuncs{
			AddFunc: func(obj interface{}) { c.queue.Add(obj.(*v1.Pod).Name) },
		},
	})
}

// sliceTracker delivers events of its own making, never tombstones (like
// kubernetes' resourceslice tracker): handlers registered on it are silent.
type sliceTracker struct{ handlers []cache.ResourceEventHandler }

func (t *sliceTracker) AddEventHandler(h cache.ResourceEventHandler) {
	t.handlers = append(t.handlers, h)
}

func registerOnTracker(t *sliceTracker, q workqueue.TypedRateLimitingInterface[string]) {
	t.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			pod := obj.(*v1.Pod)
			q.Add(pod.Name)
		},
	})
}
