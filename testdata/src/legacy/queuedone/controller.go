// Package queuedone holds worker loops written against client-go v0.30's
// untyped work queues, for the queuedone analyzer.
package queuedone

import (
	"fmt"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/util/workqueue"
)

type Controller struct {
	queue       workqueue.RateLimitingInterface
	syncHandler func(key string) error
}

// badKeyReturns forgets a key of the wrong type but leaves it in
// processing.
func (c *Controller) badKeyReturns() bool {
	obj, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	key, ok := obj.(string)
	if !ok {
		c.queue.Forget(obj)
		utilruntime.HandleError(fmt.Errorf("expected string in workqueue but got %#v", obj))
		return true // want `obj from c.queue.Get\(\) is not marked Done on this path`
	}
	defer c.queue.Done(obj)
	if err := c.syncHandler(key); err != nil {
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.Forget(obj)
	return true
}

// closure is the sample-controller shape of that era: silent.
func (c *Controller) closure() bool {
	obj, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	err := func(obj interface{}) error {
		defer c.queue.Done(obj)
		key, ok := obj.(string)
		if !ok {
			c.queue.Forget(obj)
			return nil
		}
		if err := c.syncHandler(key); err != nil {
			c.queue.AddRateLimited(key)
			return err
		}
		c.queue.Forget(obj)
		return nil
	}(obj)
	if err != nil {
		utilruntime.HandleError(err)
	}
	return true
}

// plainQueue uses an untyped plain queue and marks Done on both paths.
func plainQueue(q workqueue.Interface, sync func(interface{}) error) bool {
	item, quit := q.Get()
	if quit {
		return false
	}
	if err := sync(item); err != nil {
		q.Done(item)
		q.Add(item)
		return true
	}
	q.Done(item)
	return true
}
