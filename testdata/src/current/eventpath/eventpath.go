// Package eventpath is a worker whose path runs into a closure handed to
// retry.RetryOnConflict and a method handed to sync.Once's Do: which of
// them a walk enters depends on the stop a query gives (eventpath's
// TestStopsPerQuery).
package eventpath

import (
	"sync"

	"k8s.io/client-go/util/retry"
	"k8s.io/client-go/util/workqueue"
)

type Controller struct {
	queue workqueue.Interface
	once  sync.Once
}

func (c *Controller) processNextWorkItem() bool { // want `processNextWorkItem: nil=true fresh=true once=true`
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	c.sync(key)
	return true
}

func (c *Controller) sync(key interface{}) { // want `sync: nil=true fresh=true once=true`
	_ = retry.RetryOnConflict(retry.DefaultRetry, func() error { return c.update(key) })
	c.once.Do(c.setUp)
}

// update is reached only through the closure handed to RetryOnConflict.
func (c *Controller) update(key interface{}) error { // want `update: nil=true fresh=false once=true`
	return nil
}

// setUp is reached only through sync.Once's Do.
func (c *Controller) setUp() {} // want `setUp: nil=true fresh=true once=false`

// Run starts the worker once: it is not on the path.
func (c *Controller) Run() { // want `Run: nil=false fresh=false once=false`
	for c.processNextWorkItem() {
	}
}
