package cachesync

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	coreinformers "k8s.io/client-go/informers/core/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// CloneProtection is shaped like external-provisioner's
// CloningProtectionController: it keeps no HasSynced and never waits,
// because its main starts the factory and waits for it before running the
// controllers. Other controllers of the same package wait themselves; this
// one leaves it to its caller, which the analyzer cannot see. Silent.
type CloneProtection struct {
	claims corelisters.PersistentVolumeClaimLister
	queue  workqueue.TypedRateLimitingInterface[string]
}

func NewCloneProtection(claims coreinformers.PersistentVolumeClaimInformer) *CloneProtection {
	p := &CloneProtection{
		claims: claims.Lister(),
		queue:  workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
	}
	claims.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(_, obj interface{}) {
			if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
				p.queue.Add(key)
			}
		},
	})
	return p
}

func (p *CloneProtection) Run(ctx context.Context, workers int) {
	defer p.queue.ShutDown()
	for range workers {
		go wait.Until(func() { p.runClaimWorker(ctx) }, time.Second, ctx.Done())
	}
	<-ctx.Done()
}

func (p *CloneProtection) runClaimWorker(ctx context.Context) {
	for p.processNextClaim(ctx) {
	}
}

func (p *CloneProtection) processNextClaim(ctx context.Context) bool {
	key, shutdown := p.queue.Get()
	if shutdown {
		return false
	}
	defer p.queue.Done(key)
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		p.queue.Forget(key)
		return true
	}
	if _, err := p.claims.PersistentVolumeClaims(ns).Get(name); err != nil {
		p.queue.AddRateLimited(key)
		return true
	}
	klog.FromContext(ctx).V(4).Info("claim", "key", key)
	p.queue.Forget(key)
	return true
}
