// Package twofixes is a controller with suggested fixes of two analyzers,
// tombstone and forget, in one file: the fixture of the tests that choose
// whose fixes are applied (cmd/ctrllint's TestGoFixSelectsAnalyzers).
// controller.go.golden is the file after every analyzer's fixes,
// controller.go.NAME.golden after analyzer NAME's alone.
package twofixes

import (
	"context"
	"fmt"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

const maxRetries = 5

type Controller struct {
	queue workqueue.TypedRateLimitingInterface[string]
	sync  func(ctx context.Context, key string) error
}

func (c *Controller) Register(informer cache.SharedIndexInformer) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.enqueue,
		DeleteFunc: c.enqueue,
	})
}

// enqueue is the delete handler too: the tombstone fix.
func (c *Controller) enqueue(obj interface{}) {
	key, err := cache.MetaNamespaceKeyFunc(obj)
	if err != nil {
		utilruntime.HandleError(err)
		return
	}
	c.queue.Add(key)
}

// processNextItem drops a key after too many retries without forgetting
// it: the forget fix.
func (c *Controller) processNextItem(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	err := c.sync(ctx, key)
	if err == nil {
		c.queue.Forget(key)
		return true
	}
	if c.queue.NumRequeues(key) < maxRetries {
		c.queue.AddRateLimited(key)
		return true
	}
	utilruntime.HandleError(fmt.Errorf("dropping %q out of the queue: %v", key, err))
	return true
}
