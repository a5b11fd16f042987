package queuedone

import (
	"context"

	"example.com/current/queuedone/tracked"
)

// Workers that hand their key to a queue wrapper of another package of
// the module (tracked): what the wrapper does with the key decides.
type TrackedController struct {
	queue *tracked.Queue
	sync  func(ctx context.Context, key string) error
}

// finish: the wrapper marks the key Done on every path: silent.
func (c *TrackedController) finish(ctx context.Context) bool {
	key, quit := c.queue.Q.Get()
	if quit {
		return false
	}
	defer c.queue.Finish(key)
	if err := c.sync(ctx, key); err != nil {
		c.queue.Q.AddRateLimited(key)
		return true
	}
	c.queue.Q.Forget(key)
	return true
}

// finishIfSyncedLeak: the wrapper leaves a failed key processing, and the
// worker does not finish it.
func (c *TrackedController) finishIfSyncedLeak(ctx context.Context) bool {
	key, quit := c.queue.Q.Get()
	if quit {
		return false
	}
	err := c.sync(ctx, key)
	c.queue.FinishIfSynced(key, err) // want `key from c.queue.Q.Get\(\) is not marked Done on a path through \(\*tracked.Queue\).FinishIfSynced \(it returns at tracked.go:\d+ without settling it\)`
	return true
}
