package tombstone

import (
	v1 "k8s.io/api/core/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// TypedController uses the typed informers and handlers of client-go v0.37.
type TypedController struct {
	queue workqueue.TypedRateLimitingInterface[string]
}

func (c *TypedController) Register(pods coreinformers.TypedPodInformer) {
	_, _ = pods.TypedInformer().AddTypedEventHandler(coreinformers.PodHandlerFuncs{
		AddFunc: func(pod *v1.Pod) {
			c.queue.Add(pod.Namespace + "/" + pod.Name)
		},
		DeleteFunc: func(d cache.DeletedObject[*v1.Pod]) {
			c.queue.Add(d.OptionalObj.Namespace + "/" + d.OptionalObj.Name) // want `this dereference panics on the nil DeletedObject.OptionalObj`
		},
	})
	// GetKey and GetObjectName work with and without the object: silent.
	_, _ = pods.TypedInformer().AddTypedEventHandler(cache.TypedResourceEventHandlerFuncs[*v1.Pod]{
		DeleteFunc: func(d cache.DeletedObject[*v1.Pod]) {
			c.queue.Add(d.GetKey())
			klog.InfoS("pod deleted", "pod", d.GetObjectName(), "name", d.GetName())
		},
	})
	// A nil check, or FinalStateUnknown found nil, protects OptionalObj.
	_, _ = pods.TypedInformer().AddTypedEventHandler(cache.TypedResourceEventHandlerDetailedFuncs[*v1.Pod]{
		DeleteFunc: func(d cache.DeletedObject[*v1.Pod]) {
			if d.OptionalObj == nil {
				c.queue.Add(d.GetKey())
				return
			}
			c.queue.Add(d.OptionalObj.Spec.NodeName)
		},
	})
	_, _ = pods.TypedInformer().AddTypedEventHandler(cache.TypedResourceEventHandlerFuncs[*v1.Pod]{
		DeleteFunc: c.onDelete,
	})
	_, _ = pods.TypedInformer().AddTypedEventHandler(cache.TypedResourceEventHandlerFuncs[*v1.Pod]{
		DeleteFunc: func(d cache.DeletedObject[*v1.Pod]) {
			if pod := d.OptionalObj; pod != nil {
				c.queue.Add(pod.Spec.NodeName)
			}
		},
	})
	_, _ = pods.TypedInformer().AddTypedEventHandler(cache.TypedResourceEventHandlerFuncs[*v1.Pod]{
		DeleteFunc: func(d cache.DeletedObject[*v1.Pod]) {
			key, _ := cache.MetaNamespaceKeyFunc(d.OptionalObj) // want `cache.MetaNamespaceKeyFunc panics on the nil DeletedObject.OptionalObj`
			c.queue.Add(key)
		},
	})
	_, _ = pods.TypedInformer().AddTypedEventHandler(cache.TypedResourceEventHandlerFuncs[*v1.Pod]{
		DeleteFunc: func(d cache.DeletedObject[*v1.Pod]) {
			c.queue.Add(d.OptionalObj.GetName()) // want `this dereference panics on the nil DeletedObject.OptionalObj`
		},
	})
}

func (c *TypedController) onDelete(d cache.DeletedObject[*v1.Pod]) {
	if d.FinalStateUnknown != nil {
		c.queue.Add(d.GetKey())
		return
	}
	c.queue.Add(d.OptionalObj.Namespace + "/" + d.OptionalObj.Name)
}

// typedFilters: a typed FilterFunc receives OptionalObj on deletions.
func (c *TypedController) typedFilters(pods coreinformers.PodIndexInformer, h cache.TypedResourceEventHandler[*v1.Pod]) {
	_, _ = pods.AddTypedEventHandler(coreinformers.PodFilteringHandler{
		FilterFunc: func(pod *v1.Pod) bool {
			return pod.Spec.NodeName != "" // want `this dereference panics on the nil \*v1.Pod a typed FilterFunc receives`
		},
		Handler: h,
	})
	_, _ = pods.AddTypedEventHandler(cache.TypedFilteringResourceEventHandler[*v1.Pod]{
		FilterFunc: func(pod *v1.Pod) bool {
			return pod != nil && pod.Spec.NodeName != ""
		},
		Handler: h,
	})
	_, _ = pods.AddTypedEventHandler(cache.TypedFilteringResourceEventHandler[*v1.Pod]{
		FilterFunc: func(pod *v1.Pod) bool {
			return pod.DeepCopy() != nil // methods of *Pod are nil-safe: not a dereference here
		},
		Handler: h,
	})
	// Typed add and update handlers receive live objects: silent.
	_, _ = pods.AddTypedEventHandler(coreinformers.PodHandlerFuncs{
		AddFunc:    func(pod *v1.Pod) { c.queue.Add(pod.Name) },
		UpdateFunc: func(old, cur *v1.Pod) { c.queue.Add(cur.Name) },
	})
}
