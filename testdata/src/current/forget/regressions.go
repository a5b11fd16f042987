package forget

import (
	"context"
	"time"

	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// Shapes from kubernetes' own controllers that are right, each once
// reported by mistake: they must stay silent.

// tokensController captures the key in a deferred closure that retries or
// forgets (kubernetes' serviceaccount tokens controller): the key lives in
// a heap cell.
func (c *Controller) tokensController(ctx context.Context) {
	key, quit := c.queue.Get()
	if quit {
		return
	}
	defer c.queue.Done(key)
	retry := false
	defer func() {
		retryOrForget(c.queue, key, retry)
	}()
	if err := c.sync(ctx, key); err != nil {
		retry = true
	}
}

func retryOrForget(queue workqueue.TypedRateLimitingInterface[string], key string, requeue bool) { // want retryOrForget:`forget\(#1 always \[Forget,AddRateLimited\]\)`
	if requeue {
		queue.AddRateLimited(key)
		return
	}
	queue.Forget(key)
}

// serviceCIDRs: the sync helper re-queues on one branch only, and the
// caller settles the key after it returns (kubernetes' servicecidrs
// controller). The helper's other returns are not leaks.
func (c *Controller) serviceCIDRs(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	err := c.syncCIDR(ctx, key)
	if err == nil {
		c.queue.Forget(key)
		return true
	}
	c.queue.AddRateLimited(key)
	return true
}

func (c *Controller) syncCIDR(ctx context.Context, key string) error { // want syncCIDR:`forget\(#2 some \[AddAfter\] exit regressions.go:\d+\)`
	if key == "" {
		return nil
	}
	if len(key) > 63 {
		c.queue.AddAfter(key, time.Minute) // try again later
		return nil
	}
	return c.sync(ctx, key)
}

// pvcProtection drops a key it cannot parse without forgetting it
// (kubernetes v1.31's pvcprotection controller): a malformed key fails the
// parse every time, so it never reaches AddRateLimited and has no limiter
// entry to forget.
func (c *Controller) pvcProtection(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		klog.FromContext(ctx).Error(err, "Error parsing PVC key", "key", key)
		return true
	}
	if err := c.sync(ctx, ns+"/"+name); err == nil {
		c.queue.Forget(key)
		return true
	}
	c.queue.AddRateLimited(key)
	return true
}

type itemAction int

const (
	requeueItem = iota
	forgetItem
)

// garbageCollector switches over a helper's result, which is always one of
// two constants: there is no third path (kubernetes' garbage collector).
func (c *Controller) garbageCollector(ctx context.Context) bool {
	item, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(item)
	switch c.attemptToDelete(ctx, item) {
	case forgetItem:
		c.queue.Forget(item)
	case requeueItem:
		c.queue.AddRateLimited(item)
	}
	return true
}

func (c *Controller) attemptToDelete(ctx context.Context, item string) itemAction {
	if err := c.sync(ctx, item); err != nil {
		klog.FromContext(ctx).Error(err, "attempt to delete", "item", item)
		return requeueItem
	}
	return forgetItem
}

// fixedIntervalLimiter keeps no per-key state: its Forget does nothing, so
// a key it never forgets leaks nothing (kubernetes' HPA controller).
type fixedIntervalLimiter struct{ interval time.Duration }

func (r *fixedIntervalLimiter) When(string) time.Duration { return r.interval }
func (r *fixedIntervalLimiter) NumRequeues(string) int    { return 1 }
func (r *fixedIntervalLimiter) Forget(string)             {}

func newHPALimiter(interval time.Duration) workqueue.TypedRateLimiter[string] {
	return &fixedIntervalLimiter{interval: interval}
}

type HPA struct {
	queue workqueue.TypedRateLimitingInterface[string]
	sync  func(string) (deleted bool, err error)
}

func NewHPA() *HPA {
	return &HPA{queue: workqueue.NewTypedRateLimitingQueueWithConfig(newHPALimiter(15*time.Second),
		workqueue.TypedRateLimitingQueueConfig[string]{Name: "horizontalpodautoscaler"})}
}

func (a *HPA) processNextWorkItem() bool {
	key, quit := a.queue.Get()
	if quit {
		return false
	}
	defer a.queue.Done(key)
	deleted, _ := a.sync(key)
	if !deleted {
		a.queue.AddRateLimited(key)
	}
	return true
}
