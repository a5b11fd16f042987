// Package cachesync holds controllers that start their workers before the
// informer caches they read have synced, and informer factories asked for
// informers after Start, for the cachesync analyzer.
package cachesync

import (
	"context"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	appsinformers "k8s.io/client-go/informers/apps/v1"
	appslisters "k8s.io/client-go/listers/apps/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// Controller is shaped like k8s.io/sample-controller: the worker reads a
// Deployment lister through the sync handler stored in a field.
type Controller struct {
	deploymentsLister  appslisters.DeploymentLister
	deploymentsSynced  cache.InformerSynced
	deploymentsChecker cache.DoneChecker
	workqueue          workqueue.TypedRateLimitingInterface[cache.ObjectName]
	syncHandler        func(ctx context.Context, key cache.ObjectName) error
	fastStart          bool
}

func NewController(deployments appsinformers.DeploymentInformer) *Controller {
	c := &Controller{
		deploymentsLister:  deployments.Lister(),
		deploymentsSynced:  deployments.Informer().HasSynced,
		deploymentsChecker: deployments.Informer().HasSyncedChecker(),
		workqueue:          workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[cache.ObjectName]()),
	}
	c.syncHandler = c.syncDeployment
	deployments.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.enqueue,
		UpdateFunc: func(_, obj interface{}) { c.enqueue(obj) },
	})
	return c
}

func (c *Controller) enqueue(obj interface{}) {
	ref, err := cache.ObjectToName(obj)
	if err != nil {
		utilruntime.HandleError(err)
		return
	}
	c.workqueue.Add(ref)
}

// Run is sample-controller's: wait for the caches, then start the workers.
// Silent.
func (c *Controller) Run(ctx context.Context, workers int) error {
	defer utilruntime.HandleCrash()
	defer c.workqueue.ShutDown()
	if ok := cache.WaitForCacheSync(ctx.Done(), c.deploymentsSynced); !ok {
		return fmt.Errorf("failed to wait for caches to sync")
	}
	for i := 0; i < workers; i++ {
		go wait.UntilWithContext(ctx, c.runWorker, time.Second)
	}
	<-ctx.Done()
	return nil
}

func (c *Controller) runWorker(ctx context.Context) {
	for c.processNextWorkItem(ctx) {
	}
}

func (c *Controller) processNextWorkItem(ctx context.Context) bool {
	ref, shutdown := c.workqueue.Get()
	if shutdown {
		return false
	}
	defer c.workqueue.Done(ref)
	if err := c.syncHandler(ctx, ref); err != nil {
		c.workqueue.AddRateLimited(ref)
		return true
	}
	c.workqueue.Forget(ref)
	return true
}

func (c *Controller) syncDeployment(ctx context.Context, ref cache.ObjectName) error {
	d, err := c.deploymentsLister.Deployments(ref.Namespace).Get(ref.Name)
	if apierrors.IsNotFound(err) {
		// Before the cache has synced, this is where a controller decides
		// that a Deployment which exists is gone.
		klog.FromContext(ctx).Info("deployment is gone", "deployment", ref)
		return nil
	}
	if err != nil {
		return err
	}
	return c.scale(ctx, d)
}

func (c *Controller) scale(ctx context.Context, d *appsv1.Deployment) error {
	klog.FromContext(ctx).V(4).Info("scaling", "deployment", klog.KObj(d))
	return nil
}
