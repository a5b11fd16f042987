// Package callerwaits is a controller that leaves the cache-sync wait to
// its caller: it never waits, never keeps a HasSynced and starts no
// informers, and its main (another package) waits on the factory before
// calling Run. The analyzer cannot see that caller and stays silent.
package callerwaits

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

type Controller struct {
	nodes corelisters.NodeLister
	queue workqueue.TypedInterface[string]
}

func New(nodes corelisters.NodeLister) *Controller {
	return &Controller{nodes: nodes, queue: workqueue.NewTyped[string]()}
}

// Run expects synced caches. Silent.
func (c *Controller) Run(ctx context.Context) {
	defer c.queue.ShutDown()
	go wait.UntilWithContext(ctx, c.worker, time.Second)
	<-ctx.Done()
}

func (c *Controller) worker(ctx context.Context) {
	for {
		name, quit := c.queue.Get()
		if quit {
			return
		}
		if node, err := c.nodes.Get(name); err == nil {
			klog.FromContext(ctx).Info("node", "node", klog.KObj(node))
		}
		c.queue.Done(name)
	}
}

// Enqueue is the handler the caller registers.
func (c *Controller) Enqueue(obj interface{}) {
	if key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj); err == nil {
		c.queue.Add(key)
	}
}
