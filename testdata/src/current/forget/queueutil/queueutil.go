// Package queueutil is a module's shared work-queue helpers, which the
// workers of other packages hand their keys to. The helpers are shaped on
// retryOrForget in kubernetes' pkg/controller/serviceaccount
// (tokens_controller.go), as a module that shares it across controllers
// would move it to a package of its own.
package queueutil

import (
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// RetryOrForget re-queues the key while it has retries left and forgets
// it otherwise: every path settles it.
func RetryOrForget[T comparable](queue workqueue.TypedRateLimitingInterface[T], key T, requeue bool, maxRetries int) {
	if requeue && queue.NumRequeues(key) < maxRetries {
		queue.AddRateLimited(key)
		return
	}
	queue.Forget(key)
}

// RequeueOnError re-queues a failed key and does nothing on success: the
// caller must forget it then.
func RequeueOnError(queue workqueue.TypedRateLimitingInterface[string], key string, err error) {
	if err == nil {
		return
	}
	klog.ErrorS(err, "Requeuing", "key", key)
	queue.AddRateLimited(key)
}

// LogFailure only logs; it is handed the queue for its length.
func LogFailure(queue workqueue.TypedRateLimitingInterface[string], key string, err error) {
	klog.ErrorS(err, "Sync failed", "key", key, "queueLength", queue.Len())
}

// Retrier holds the queue itself: its callers hand it only the key.
type Retrier struct {
	Queue      workqueue.TypedRateLimitingInterface[string]
	MaxRetries int
}

// Retry re-queues the key while it has retries left, and forgets it when
// it gives up.
func (r *Retrier) Retry(key string, err error) {
	if r.Queue.NumRequeues(key) < r.MaxRetries {
		klog.ErrorS(err, "Retrying", "key", key)
		r.Queue.AddRateLimited(key)
		return
	}
	klog.ErrorS(err, "Dropping", "key", key)
	r.Queue.Forget(key)
}
