package forget

import (
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
)

const maxCompactRetries = 5

// processCompact is a worker written with each branch on one line, on
// client-go v0.30's untyped queue: the fix puts the Forget before a return
// that shares its line with the error report.
func (c *Controller) processCompact() bool {
	obj, quit := c.workqueue.Get()
	if quit { return false }
	defer c.workqueue.Done(obj)
	key := obj.(string)
	err := c.syncHandler(key)
	if err == nil { c.workqueue.Forget(obj); return true }
	if c.workqueue.NumRequeues(obj) < maxCompactRetries { c.workqueue.AddRateLimited(obj); return true }
	utilruntime.HandleError(err); return true // want `neither forgotten nor re-queued on this path`
}
