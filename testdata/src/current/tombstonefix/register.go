// Package tombstonefix holds the findings that have a mechanical fix; the
// .golden files hold the code after `ctrllint -fix`.
package tombstonefix

import (
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

type Controller struct {
	queue workqueue.TypedRateLimitingInterface[string]
}

func (c *Controller) Register(informer cache.SharedIndexInformer) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.enqueue,
		DeleteFunc: c.enqueue,
	})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			name, err := cache.ObjectToName(obj) // want `use cache.DeletionHandlingObjectToName`
			if err != nil {
				return
			}
			c.queue.Add(name.String())
		},
	})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.deletePod})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.deleteNode})
}

func (c *Controller) enqueue(obj interface{}) {
	key, err := cache.MetaNamespaceKeyFunc(obj) // want `use cache.DeletionHandlingMetaNamespaceKeyFunc`
	if err != nil {
		return
	}
	c.queue.Add(key)
}
