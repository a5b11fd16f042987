package forget

import (
	"context"

	"k8s.io/client-go/util/workqueue"

	"example.com/current/forget/queueutil"
)

// Workers that hand their keys to the module's shared helpers in another
// package (queueutil): what the helper does with the key decides.

type SharedController struct {
	queue   workqueue.TypedRateLimitingInterface[string]
	retrier *queueutil.Retrier
	sync    func(ctx context.Context, key string) error
}

// retryOrForget: the helper settles the key on every path: silent.
func (c *SharedController) retryOrForget(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	err := c.sync(ctx, key)
	queueutil.RetryOrForget(c.queue, key, err != nil, maxRetries)
	return true
}

// requeueOnErrorLeak: the helper settles only failures, and the worker
// forgets nothing on success.
func (c *SharedController) requeueOnErrorLeak(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	queueutil.RequeueOnError(c.queue, key, c.sync(ctx, key)) // want `key from c.queue.Get\(\) is neither forgotten nor re-queued on a path through queueutil.RequeueOnError \(it returns at queueutil.go:\d+ without settling it\)`
	return true
}

// requeueOnErrorThenForget: the same helper, with the success Forget the
// worker owes: silent.
func (c *SharedController) requeueOnErrorThenForget(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	err := c.sync(ctx, key)
	queueutil.RequeueOnError(c.queue, key, err)
	if err == nil {
		c.queue.Forget(key)
	}
	return true
}

// logOnlyLeak: giving up, the worker hands the key and the queue to a
// helper that never settles it; the give-up path drops the key
// unforgotten.
func (c *SharedController) logOnlyLeak(ctx context.Context) bool {
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
	queueutil.LogFailure(c.queue, key, err)
	return true // want `key from c.queue.Get\(\) is neither forgotten nor re-queued on this path`
}

// withRetrier: a helper of another package that holds the queue settles the
// failure path; the worker forgets on success: silent.
func (c *SharedController) withRetrier(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	if err := c.sync(ctx, key); err != nil {
		c.retrier.Retry(key, err)
		return true
	}
	c.queue.Forget(key)
	return true
}
