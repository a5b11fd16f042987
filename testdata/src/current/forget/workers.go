// Package forget holds worker loops shaped like real controllers, for the
// forget analyzer: wrong shapes carry expectations, right ones are silent.
package forget

import (
	"context"
	"fmt"
	"time"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

const maxRetries = 15

type Controller struct {
	queue workqueue.TypedRateLimitingInterface[string]
	sync  func(ctx context.Context, key string) error
}

// successLeak forgets nothing when the sync succeeds.
func (c *Controller) successLeak(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	if err := c.sync(ctx, key); err != nil {
		c.queue.AddRateLimited(key)
		return true
	}
	return true // want `key from c.queue.Get\(\) is neither forgotten nor re-queued on this path: its rate-limiter entry leaks`
}

// giveUpLeak drops the key after too many retries without forgetting it.
func (c *Controller) giveUpLeak(ctx context.Context) bool {
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
	return true // want `key from c.queue.Get\(\) is neither forgotten nor re-queued on this path`
}

// handleErrLeak splits the worker: the helper's success branch leaks.
func (c *Controller) handleErrLeak(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	c.handleErr(c.sync(ctx, key), key)
	return true
}

func (c *Controller) handleErr(err error, key string) { // want handleErr:`forget\(#2 some \[AddRateLimited\] exit workers.go:\d+\)`
	if err == nil {
		return // want `key \(from c.queue.Get\(\) in handleErrLeak\) is neither forgotten nor re-queued on this path`
	}
	klog.InfoS("Error syncing", "key", key, "err", err)
	c.queue.AddRateLimited(key)
}

// loopLeak is a worker loop in one function: the success path goes back to
// the next Get without forgetting the key.
func (c *Controller) loopLeak(ctx context.Context) {
	for {
		key, quit := c.queue.Get() // want `key from c.queue.Get\(\) is neither forgotten nor re-queued on the path back to the next Get\(\)`
		if quit {
			return
		}
		if err := c.sync(ctx, key); err != nil {
			c.queue.AddRateLimited(key)
		}
		c.queue.Done(key)
	}
}

// Right shapes: silent.

// sampleController follows k8s.io/sample-controller's processNextWorkItem.
func (c *Controller) sampleController(ctx context.Context) bool {
	objRef, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(objRef)
	err := c.sync(ctx, objRef)
	if err == nil {
		c.queue.Forget(objRef)
		klog.FromContext(ctx).Info("Successfully synced", "objectName", objRef)
		return true
	}
	utilruntime.HandleErrorWithContext(ctx, err, "Error syncing; requeuing for later retry", "objectReference", objRef)
	c.queue.AddRateLimited(objRef)
	return true
}

// deploymentController follows kubernetes' deployment controller: the
// worker hands the key to syncHandler and handleErr.
func (c *Controller) deploymentController(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	err := c.sync(ctx, key)
	c.handleErrRight(ctx, err, key)
	return true
}

func (c *Controller) handleErrRight(ctx context.Context, err error, key string) { // want handleErrRight:`forget\(#3 always \[Forget,AddRateLimited,NumRequeues\]\)`
	if err == nil {
		c.queue.Forget(key)
		return
	}
	logger := klog.FromContext(ctx)
	if c.queue.NumRequeues(key) < maxRetries {
		logger.V(2).Info("Error syncing deployment", "key", key, "err", err)
		c.queue.AddRateLimited(key)
		return
	}
	utilruntime.HandleError(err)
	logger.V(2).Info("Dropping deployment out of the queue", "key", key, "err", err)
	c.queue.Forget(key)
}

// deferredForget forgets in a deferred call: not a leak, silent.
func (c *Controller) deferredForget(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	defer c.queue.Forget(key)
	if err := c.sync(ctx, key); err != nil {
		c.queue.AddRateLimited(key)
	}
	return true
}

// requeueAfter re-queues on success with a delay: AddAfter settles the key.
func (c *Controller) requeueAfter(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	if err := c.sync(ctx, key); err != nil {
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.AddAfter(key, time.Minute)
	return true
}

// Delayed never rate-limits its keys: there is nothing to forget.
type Delayed struct {
	queue workqueue.TypedRateLimitingInterface[string]
	plain workqueue.TypedDelayingInterface[string]
	sync  func(string) error
}

func (d *Delayed) onlyAddAfter() bool {
	key, quit := d.queue.Get()
	if quit {
		return false
	}
	defer d.queue.Done(key)
	if err := d.sync(key); err != nil {
		d.queue.AddAfter(key, time.Second)
	}
	return true
}

func (d *Delayed) plainQueue() bool {
	key, quit := d.plain.Get()
	if quit {
		return false
	}
	defer d.plain.Done(key)
	if err := d.sync(key); err != nil {
		d.plain.AddAfter(key, time.Second)
	}
	return true
}

// suppressed leaks on purpose, and says why.
func (d *Delayed) suppressed(q workqueue.TypedRateLimitingInterface[string]) bool {
	key, quit := q.Get()
	if quit {
		return false
	}
	defer q.Done(key)
	if err := d.sync(key); err != nil {
		q.AddRateLimited(key)
		return true
	}
	return true //ctrllint:ignore forget the queue is rebuilt after every sync round
}

// neverForgets hands each key to a helper that rate-limits failures but
// forgets nothing, ever (kubernetes' node lifecycle controller): one
// finding, at the Get.
func (c *Controller) neverForgets(ctx context.Context) {
	for {
		item, quit := c.queue.Get() // want `item from c.queue.Get\(\) is never forgotten: the paths ending at lines 229 and 235 stop retrying it without Forget`
		if quit {
			return
		}
		c.processPod(ctx, item)
	}
}

func (c *Controller) processPod(ctx context.Context, item string) { // want processPod:`forget\(#2 some \[Done,AddRateLimited\]\)`
	defer c.queue.Done(item)
	if item == "" {
		return
	}
	if err := c.sync(ctx, item); err != nil {
		c.queue.AddRateLimited(item)
		return
	}
}

// sharedReturn is sample-controller's processNextWorkItem with its outcomes
// written as a switch that falls through to one return (the first draft
// of the bundled example): success leaks, but the AddRateLimited case
// reaches the same return, so a Forget inserted there would erase the
// backoff just asked for. Reported without a fix.
func (c *Controller) sharedReturn(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	err := c.sync(ctx, key)
	switch {
	case err == nil:
	case c.queue.NumRequeues(key) < maxRetries:
		c.queue.AddRateLimited(key)
	default:
		utilruntime.HandleError(fmt.Errorf("dropping %q out of the queue: %v", key, err))
	}
	return true // want `key from c.queue.Get\(\) is neither forgotten nor re-queued on this path`
}
