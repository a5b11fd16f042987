// Package forget holds worker loops written against client-go v0.30's
// untyped work queues, for the forget analyzer.
package forget

import (
	"fmt"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/util/workqueue"
)

type Controller struct {
	workqueue   workqueue.RateLimitingInterface
	syncHandler func(key string) error
}

func New() *Controller {
	return &Controller{workqueue: workqueue.NewNamedRateLimitingQueue(workqueue.DefaultControllerRateLimiter(), "Foos")}
}

// processNextWorkItem is the sample-controller shape of that era, with a
// closure that defers Done: silent.
func (c *Controller) processNextWorkItem() bool {
	obj, shutdown := c.workqueue.Get()
	if shutdown {
		return false
	}
	err := func(obj interface{}) error {
		defer c.workqueue.Done(obj)
		var key string
		var ok bool
		if key, ok = obj.(string); !ok {
			c.workqueue.Forget(obj)
			utilruntime.HandleError(fmt.Errorf("expected string in workqueue but got %#v", obj))
			return nil
		}
		if err := c.syncHandler(key); err != nil {
			c.workqueue.AddRateLimited(key)
			return fmt.Errorf("error syncing '%s': %s, requeuing", key, err.Error())
		}
		c.workqueue.Forget(obj)
		return nil
	}(obj)
	if err != nil {
		utilruntime.HandleError(err)
	}
	return true
}

// forgotSuccess is the same shape with the success Forget missing: the
// leak is in the closure.
func (c *Controller) forgotSuccess() bool {
	obj, shutdown := c.workqueue.Get()
	if shutdown {
		return false
	}
	err := func(obj interface{}) error {
		defer c.workqueue.Done(obj)
		key, ok := obj.(string)
		if !ok {
			return nil // a key of another type was never rate-limited: nothing to forget
		}
		if err := c.syncHandler(key); err != nil {
			c.workqueue.AddRateLimited(key)
			return err
		}
		return nil // want `obj \(from c.workqueue.Get\(\) in forgotSuccess\) is neither forgotten nor re-queued on this path`
	}(obj)
	if err != nil {
		utilruntime.HandleError(err)
	}
	return true
}

// giveUp drops the key after five retries without forgetting it.
func (c *Controller) giveUp() bool {
	key, quit := c.workqueue.Get()
	if quit {
		return false
	}
	defer c.workqueue.Done(key)
	err := c.syncHandler(key.(string))
	if err == nil {
		c.workqueue.Forget(key)
		return true
	}
	if c.workqueue.NumRequeues(key) < 5 {
		c.workqueue.AddRateLimited(key)
		return true
	}
	utilruntime.HandleError(err)
	return true // want `key from c.workqueue.Get\(\) is neither forgotten nor re-queued on this path`
}

// onlyAdd re-queues with Add and never rate-limits: silent.
func (c *Controller) onlyAdd() bool {
	key, quit := c.workqueue.Get()
	if quit {
		return false
	}
	defer c.workqueue.Done(key)
	if err := c.syncHandler(key.(string)); err != nil {
		c.workqueue.Add(key)
	}
	return true
}

// sharedReturn: success leaks at a return the AddRateLimited path shares,
// so a Forget inserted there would erase that backoff. Reported without a
// fix (see the current module's sharedReturn).
func (c *Controller) sharedReturn() bool {
	obj, shutdown := c.workqueue.Get()
	if shutdown {
		return false
	}
	defer c.workqueue.Done(obj)
	err := c.syncHandler(obj.(string))
	if err != nil {
		if c.workqueue.NumRequeues(obj) < 5 {
			c.workqueue.AddRateLimited(obj)
		} else {
			utilruntime.HandleError(err)
		}
	}
	return true // want `obj from c.workqueue.Get\(\) is neither forgotten nor re-queued on this path`
}
