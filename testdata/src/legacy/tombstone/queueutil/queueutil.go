// Package queueutil is argo-rollouts' utils/controller (v1.10.1,
// utils/controller/controller.go) in miniature: the enqueue helpers and the
// worker loop that all of its controllers share. Enqueue drops a tombstone
// (metaNamespaceKeyFunc fails on it); whether that loses anything is up to
// the sync a controller hands RunWorker. Nothing here is a handler, so
// nothing here is reported.
package queueutil

import (
	"context"
	"fmt"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// metaNamespaceKeyFunc is a wrapper around cache.MetaNamespaceKeyFunc but
// also accepts strings.
func metaNamespaceKeyFunc(obj any) (string, error) {
	if objStr, ok := obj.(string); ok {
		obj = cache.ExplicitKey(objStr)
	}
	return cache.MetaNamespaceKeyFunc(obj)
}

// Enqueue adds the object's key to q, and drops a tombstone.
func Enqueue(obj any, q workqueue.RateLimitingInterface) {
	var key string
	var err error
	if key, err = metaNamespaceKeyFunc(obj); err != nil {
		utilruntime.HandleError(err)
		return
	}
	q.Add(key)
}

// EnqueueRateLimited is Enqueue with a rate-limited add.
func EnqueueRateLimited(obj any, q workqueue.RateLimitingInterface) {
	var key string
	var err error
	if key, err = metaNamespaceKeyFunc(obj); err != nil {
		utilruntime.HandleError(err)
		return
	}
	q.AddRateLimited(key)
}

// EnqueueCounted also counts what it enqueues: state a dropped deletion
// never updates, so it is no enqueue helper.
func EnqueueCounted(obj any, q workqueue.RateLimitingInterface, counts map[string]int) {
	key, err := metaNamespaceKeyFunc(obj)
	if err != nil {
		return
	}
	counts[key]++
	q.Add(key)
}

// RunWorker takes keys from workqueue and hands each to syncHandler until
// the queue shuts down.
func RunWorker(ctx context.Context, workqueue workqueue.RateLimitingInterface, objType string, syncHandler func(context.Context, string) error) {
	for processNextWorkItem(ctx, workqueue, objType, syncHandler) {
	}
}

func processNextWorkItem(ctx context.Context, workqueue workqueue.RateLimitingInterface, objType string, syncHandler func(context.Context, string) error) bool {
	obj, shutdown := workqueue.Get()
	if shutdown {
		return false
	}
	err := func(obj any) error {
		defer workqueue.Done(obj)
		var key string
		var ok bool
		if key, ok = obj.(string); !ok {
			workqueue.Forget(obj)
			utilruntime.HandleError(fmt.Errorf("expected string in workqueue but got %#v", obj))
			return nil
		}
		runSyncHandler := func() (err error) {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("recovered from panic: %v", r)
				}
			}()
			return syncHandler(ctx, key)
		}
		if err := runSyncHandler(); err != nil {
			klog.Errorf("%s syncHandler error: %v", objType, err)
			workqueue.AddRateLimited(key)
			return err
		}
		workqueue.Forget(obj)
		return nil
	}(obj)
	if err != nil {
		utilruntime.HandleError(err)
	}
	return true
}

// Processed is the keys RunRecordingWorker has handed to a sync.
var Processed = map[string]bool{}

// RunRecordingWorker remembers every key it syncs: a dropped deletion is
// missing there whatever the sync does, so it is no plain worker loop.
func RunRecordingWorker(ctx context.Context, q workqueue.RateLimitingInterface, syncHandler func(context.Context, string) error) {
	for {
		obj, shutdown := q.Get()
		if shutdown {
			return
		}
		key := obj.(string)
		Processed[key] = true
		if err := syncHandler(ctx, key); err != nil {
			q.AddRateLimited(key)
		} else {
			q.Forget(key)
		}
		q.Done(obj)
	}
}
