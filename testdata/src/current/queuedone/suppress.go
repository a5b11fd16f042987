package queuedone

import "context"

// quarantine leaves a failing key in processing on purpose, so no worker
// takes it again until the process restarts, and says so in a directive.
func (c *Controller) quarantine(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	if err := c.sync(ctx, key); err != nil {
		return true //ctrllint:ignore queuedone a failing key stays in processing until the next restart
	}
	c.queue.Forget(key)
	c.queue.Done(key)
	return true
}
