package forget

import (
	"k8s.io/client-go/util/workqueue"

	"example.com/legacy/forget/queueutil"
)

// Workers that hand their keys to the module's shared helpers in another
// package (queueutil).
type SharedController struct {
	queue workqueue.RateLimitingInterface
	sync  func(key string) error
}

// retryOrForget: the helper settles the key on every path: silent.
func (c *SharedController) retryOrForget() bool {
	obj, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(obj)
	err := c.sync(obj.(string))
	queueutil.RetryOrForget(c.queue, obj, err != nil, 5)
	return true
}

// requeueOnErrorLeak: the helper settles only failures, and the worker
// forgets nothing on success.
func (c *SharedController) requeueOnErrorLeak() bool {
	obj, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(obj)
	queueutil.RequeueOnError(c.queue, obj, c.sync(obj.(string))) // want `obj from c.queue.Get\(\) is neither forgotten nor re-queued on a path through queueutil.RequeueOnError \(it returns at queueutil.go:\d+ without settling it\)`
	return true
}
