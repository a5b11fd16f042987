package cachesync

import (
	"context"
	"net/http"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// Goroutines that are not worker loops: silent.
func (c *Controller) RunServers(ctx context.Context, informer cache.SharedIndexInformer) {
	go informer.Run(ctx.Done())
	go func() {
		_ = http.ListenAndServe(":8080", nil)
	}()
	go wait.Until(func() { klog.Info("still alive") }, time.Minute, ctx.Done())
	<-ctx.Done()
}

// Relay drains a queue into a callback: it reads no informer cache, so it
// needs no sync. Silent.
type Relay struct {
	queue workqueue.TypedInterface[string]
	send  func(string) error
}

func (r *Relay) Run(ctx context.Context) {
	defer r.queue.ShutDown()
	go wait.UntilWithContext(ctx, r.drain, time.Second)
	<-ctx.Done()
}

func (r *Relay) drain(ctx context.Context) {
	for {
		item, quit := r.queue.Get()
		if quit {
			return
		}
		if err := r.send(item); err != nil {
			klog.FromContext(ctx).Error(err, "send failed", "item", item)
		}
		r.queue.Done(item)
	}
}

// Dedup reads only a store of its own, built with cache.NewStore: no
// informer fills it. Silent.
type Dedup struct {
	seen  cache.Store
	queue workqueue.TypedInterface[string]
}

func NewDedup() *Dedup {
	return &Dedup{seen: cache.NewStore(cache.MetaNamespaceKeyFunc), queue: workqueue.NewTyped[string]()}
}

func (d *Dedup) Run(ctx context.Context) {
	go wait.UntilWithContext(ctx, d.worker, time.Second)
	<-ctx.Done()
}

func (d *Dedup) worker(ctx context.Context) {
	for {
		key, quit := d.queue.Get()
		if quit {
			return
		}
		if _, exists, _ := d.seen.GetByKey(key); !exists {
			klog.FromContext(ctx).Info("new key", "key", key)
		}
		d.queue.Done(key)
	}
}
