package queuedone

import "example.com/legacy/queuedone/tracked"

// Workers that hand their key to a queue wrapper of another package.
type TrackedController struct {
	queue *tracked.Queue
	sync  func(key string) error
}

// finish: the wrapper marks the key Done on every path: silent.
func (c *TrackedController) finish() bool {
	obj, quit := c.queue.Q.Get()
	if quit {
		return false
	}
	defer c.queue.Finish(obj)
	if err := c.sync(obj.(string)); err != nil {
		c.queue.Q.AddRateLimited(obj)
		return true
	}
	c.queue.Q.Forget(obj)
	return true
}

// finishIfSyncedLeak: a failed key is left processing.
func (c *TrackedController) finishIfSyncedLeak() bool {
	obj, quit := c.queue.Q.Get()
	if quit {
		return false
	}
	err := c.sync(obj.(string))
	c.queue.FinishIfSynced(obj, err) // want `obj from c.queue.Q.Get\(\) is not marked Done on a path through \(\*tracked.Queue\).FinishIfSynced \(it returns at tracked.go:\d+ without settling it\)`
	return true
}
