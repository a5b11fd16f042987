package forget

import (
	"context"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
)

// processCompact is a worker written with each branch on one line, as
// small controllers write it: the fix puts the Forget before a return
// that shares its line with the error report.
func (c *Controller) processCompact(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit { return false }
	defer c.queue.Done(key)
	err := c.sync(ctx, key)
	if err == nil { c.queue.Forget(key); return true }
	if c.queue.NumRequeues(key) < maxRetries { c.queue.AddRateLimited(key); return true }
	utilruntime.HandleError(err); return true // want `key from c.queue.Get\(\) is neither forgotten nor re-queued on this path`
}
