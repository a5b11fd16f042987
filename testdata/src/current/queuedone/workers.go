// Package queuedone holds worker loops shaped like real controllers, for
// the queuedone analyzer.
package queuedone

import (
	"context"
	"fmt"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/util/workqueue"
)

type Controller struct {
	queue workqueue.TypedRateLimitingInterface[string]
	plain workqueue.TypedInterface[string]
	sync  func(ctx context.Context, key string) error
}

// earlyReturn leaves the key in processing when the sync fails.
func (c *Controller) earlyReturn(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	if err := c.sync(ctx, key); err != nil {
		c.queue.AddRateLimited(key)
		return true // want `key from c.queue.Get\(\) is not marked Done on this path: the queue keeps it as processing`
	}
	c.queue.Forget(key)
	c.queue.Done(key)
	return true
}

// helperSometimes hands the key to a helper that only marks it on success.
func (c *Controller) helperSometimes(ctx context.Context) bool {
	key, quit := c.plain.Get()
	if quit {
		return false
	}
	c.process(ctx, key)
	return true
}

func (c *Controller) process(ctx context.Context, key string) { // want process:`queuedone\(#2 some \[Done\] exit workers.go:\d+\)`
	if err := c.sync(ctx, key); err != nil {
		utilruntime.HandleError(fmt.Errorf("syncing %q: %w", key, err))
		return // want `key \(from c.plain.Get\(\) in helperSometimes\) is not marked Done on this path`
	}
	c.plain.Done(key)
}

// loop marks Done only when the sync succeeds.
func (c *Controller) loop(ctx context.Context) {
	for {
		key, quit := c.plain.Get() // want `key from c.plain.Get\(\) is not marked Done on the path back to the next Get\(\)`
		if quit {
			return
		}
		if err := c.sync(ctx, key); err != nil {
			continue
		}
		c.plain.Done(key)
	}
}

// Right shapes: silent.

func (c *Controller) deferred(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	if err := c.sync(ctx, key); err != nil {
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.Forget(key)
	return true
}

// closure is the older sample-controller shape: the key goes into a
// closure that defers Done.
func (c *Controller) closure(ctx context.Context) bool {
	obj, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	err := func(key string) error {
		defer c.queue.Done(key)
		if err := c.sync(ctx, key); err != nil {
			c.queue.AddRateLimited(key)
			return fmt.Errorf("error syncing '%s': %s, requeuing", key, err.Error())
		}
		c.queue.Forget(key)
		return nil
	}(obj)
	if err != nil {
		utilruntime.HandleError(err)
	}
	return true
}

// everyPath calls Done on each path explicitly, and panics on a broken
// invariant (panics are out of scope).
func (c *Controller) everyPath(ctx context.Context) bool {
	key, quit := c.plain.Get()
	if quit {
		return false
	}
	if key == "" {
		panic("empty key")
	}
	if err := c.sync(ctx, key); err != nil {
		c.plain.Done(key)
		return false
	}
	c.plain.Done(key)
	return true
}

// goroutine hands the key to a goroutine that defers Done.
func (c *Controller) goroutine(ctx context.Context) bool {
	key, quit := c.plain.Get()
	if quit {
		return false
	}
	go c.processAsync(ctx, key)
	return true
}

func (c *Controller) processAsync(ctx context.Context, key string) { // want processAsync:`queuedone\(#2 always \[Done\]\)`
	defer c.plain.Done(key)
	_ = c.sync(ctx, key)
}

// neverDone marks nothing Done anywhere: one finding, at the Get.
func (c *Controller) neverDone(ctx context.Context) bool {
	key, quit := c.plain.Get() // want `key from c.plain.Get\(\) is not marked Done on the paths ending at lines 144 and 147`
	if quit {
		return false
	}
	if key == "" {
		return true
	}
	_ = c.sync(ctx, key)
	return true
}
