package cachesync

import (
	"context"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// SliceController is shaped like dynamic-resource-allocation's
// resourceslice controller: its constructor runs its own informer and
// polls the handler registration's HasSynced, returning an error when
// stopped; StartController starts the worker only when that succeeded.
type SliceController struct {
	store cache.Indexer
	queue workqueue.TypedRateLimitingInterface[string]
}

// StartController: the constructor waited. Silent.
func StartController(ctx context.Context, informer cache.SharedIndexInformer) (*SliceController, error) {
	c, err := newSliceController(ctx, informer)
	if err != nil {
		return nil, fmt.Errorf("create controller: %w", err)
	}
	go func() {
		c.run(ctx)
	}()
	return c, nil
}

func newSliceController(ctx context.Context, informer cache.SharedIndexInformer) (*SliceController, error) {
	c := &SliceController{
		store: informer.GetIndexer(),
		queue: workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
	}
	handler, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
				c.queue.Add(key)
			}
		},
	})
	if err != nil {
		return nil, err
	}
	go informer.RunWithContext(ctx)
	for !handler.HasSynced() {
		select {
		case <-time.After(time.Second):
		case <-ctx.Done():
			return nil, fmt.Errorf("sync informer: %w", context.Cause(ctx))
		}
	}
	return c, nil
}

func (c *SliceController) run(ctx context.Context) {
	for c.processNextWorkItem(ctx) {
	}
}

func (c *SliceController) processNextWorkItem(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	if _, exists, err := c.store.GetByKey(key); err != nil || !exists {
		klog.FromContext(ctx).V(4).Info("gone", "key", key)
	}
	c.queue.Forget(key)
	return true
}

// RunPolled waits with wait.PollUntilContextCancel on the informer's
// HasSynced. Silent.
func (c *SliceController) RunPolled(ctx context.Context, informer cache.SharedIndexInformer) {
	err := wait.PollUntilContextCancel(ctx, 100*time.Millisecond, true, func(context.Context) (bool, error) {
		return informer.HasSynced(), nil
	})
	if err != nil {
		return
	}
	go wait.UntilWithContext(ctx, c.run, time.Second)
	<-ctx.Done()
}

// RunUnsynced starts the worker with no wait at all.
func (c *SliceController) RunUnsynced(ctx context.Context) {
	go wait.UntilWithContext(ctx, c.run, time.Second) // want `worker c.run starts before the informer caches it reads have synced`
	<-ctx.Done()
}
