// Package waitapi is shaped like k8s.io/apiserver's peerproxy: the
// package offers its caller a WaitForCacheSync method and a Run method
// that does not wait, and the caller is to call the first before the
// second. The analyzer cannot see the caller and stays silent.
package waitapi

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

type Handler struct {
	leases coreinformers.ConfigMapInformer
	queue  workqueue.TypedInterface[string]
}

func New(leases coreinformers.ConfigMapInformer) *Handler {
	return &Handler{leases: leases, queue: workqueue.NewTyped[string]()}
}

// WaitForCacheSync is for the caller, before RunWorkers.
func (h *Handler) WaitForCacheSync(stopCh <-chan struct{}) bool {
	return cache.WaitForNamedCacheSync("handler", stopCh, h.leases.Informer().HasSynced)
}

// RunWorkers expects the caller to have waited. Silent.
func (h *Handler) RunWorkers(ctx context.Context) {
	defer h.queue.ShutDown()
	go wait.UntilWithContext(ctx, h.worker, time.Second)
	<-ctx.Done()
}

func (h *Handler) worker(ctx context.Context) {
	for {
		key, quit := h.queue.Get()
		if quit {
			return
		}
		if cms, err := h.leases.Lister().List(nil); err == nil {
			klog.FromContext(ctx).V(4).Info("config maps", "count", len(cms), "key", key)
		}
		h.queue.Done(key)
	}
}
