// Package queueutil is a module's shared work-queue helpers on client-go
// v0.30's untyped queues, shaped on retryOrForget in kubernetes'
// pkg/controller/serviceaccount (tokens_controller.go) moved to a package
// of its own.
package queueutil

import (
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// RetryOrForget settles the key on every path.
func RetryOrForget(queue workqueue.RateLimitingInterface, key interface{}, requeue bool, maxRetries int) {
	if requeue && queue.NumRequeues(key) < maxRetries {
		queue.AddRateLimited(key)
		return
	}
	queue.Forget(key)
}

// RequeueOnError re-queues a failed key and does nothing on success.
func RequeueOnError(queue workqueue.RateLimitingInterface, key interface{}, err error) {
	if err == nil {
		return
	}
	klog.ErrorS(err, "Requeuing", "key", key)
	queue.AddRateLimited(key)
}
