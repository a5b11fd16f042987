// This file and sync.go are a client-go controller shaped on
// k8s.io/sample-controller's controller.go (Run, runWorker,
// processNextWorkItem, syncHandler), with Deployments in the place of Foos.
// Its bugs are deliberate: each is marked by a comment naming the analyzer
// that reports it.

// Package example is what `make example` runs ctrllint on: two small
// controllers that read like real ones, with one deliberate bug for each of
// ctrllint's analyzers, and everything else in the right shape, which
// ctrllint leaves alone. The client-go controller (controller.go, sync.go)
// keeps a Service in front of the pods of each Deployment annotated
// example.com/expose, and lists it in a ConfigMap of the namespace; the
// controller-runtime reconciler (reconciler.go) provisions cloud load
// balancers for Services.
package example

import (
	"context"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	appsinformers "k8s.io/client-go/informers/apps/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

const (
	// exposeAnnotation asks for a Service in front of a Deployment's pods.
	exposeAnnotation = "example.com/expose"
	// maxRetries is how often a key is retried before it is dropped.
	maxRetries = 15
)

// Controller keeps a Service for each exposed Deployment.
type Controller struct {
	// config is kept to build clients with their own user agent.
	config        *rest.Config
	kubeclientset kubernetes.Interface

	deploymentsLister appslisters.DeploymentLister
	deploymentsSynced cache.InformerSynced
	servicesLister    corelisters.ServiceLister
	servicesSynced    cache.InformerSynced

	// workqueue holds the namespace/name keys of Deployments to sync.
	workqueue workqueue.TypedRateLimitingInterface[string]
}

// NewController returns a controller fed by the two informers.
func NewController(
	config *rest.Config,
	kubeclientset kubernetes.Interface,
	deploymentInformer appsinformers.DeploymentInformer,
	serviceInformer coreinformers.ServiceInformer) *Controller {
	c := &Controller{
		config:            config,
		kubeclientset:     kubeclientset,
		deploymentsLister: deploymentInformer.Lister(),
		deploymentsSynced: deploymentInformer.Informer().HasSynced,
		servicesLister:    serviceInformer.Lister(),
		servicesSynced:    serviceInformer.Informer().HasSynced,
		workqueue:         workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
	}

	// Deployments are synced when they come, change and go.
	deploymentInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: c.enqueueDeployment,
		UpdateFunc: func(old, new interface{}) {
			// suppression: no analyzer is called tombstones, so the directive below suppresses nothing
			//ctrllint:ignore tombstones update events never carry tombstones
			newDepl := new.(*appsv1.Deployment)
			oldDepl := old.(*appsv1.Deployment)
			if newDepl.ResourceVersion == oldDepl.ResourceVersion {
				// A periodic resync: nothing changed.
				return
			}
			c.enqueueDeployment(new)
		},
		DeleteFunc: c.enqueueDeployment,
	})
	// A Service that goes away is recreated by a sync of its Deployment.
	serviceInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: c.handleService,
	})
	return c
}

// RunController wires the controller to a shared informer factory and
// runs it until ctx is cancelled, as sample-controller's main does.
func RunController(ctx context.Context, config *rest.Config, workers int) error {
	kubeClient, err := kubernetes.NewForConfig(config)
	if err != nil {
		return err
	}
	factory := informers.NewSharedInformerFactory(kubeClient, 30*time.Second)
	factory.Start(ctx.Done())
	controller := NewController(config, kubeClient, factory.Apps().V1().Deployments(), factory.Core().V1().Services()) // cachesync: informers asked for after Start never start
	return controller.Run(ctx, workers)
}

// Run waits for the informer caches to sync and starts the workers. It
// blocks until ctx is cancelled, then shuts down the queue.
func (c *Controller) Run(ctx context.Context, workers int) error {
	defer utilruntime.HandleCrash()
	defer c.workqueue.ShutDown()
	logger := klog.FromContext(ctx)

	logger.Info("Waiting for informer caches to sync")
	if ok := cache.WaitForCacheSync(ctx.Done(), c.deploymentsSynced, c.servicesSynced); !ok {
		return fmt.Errorf("failed to wait for caches to sync")
	}

	logger.Info("Starting workers", "count", workers)
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

// processNextWorkItem syncs one key: forgotten when done, re-queued with
// backoff on an error, dropped after maxRetries.
func (c *Controller) processNextWorkItem(ctx context.Context) bool {
	key, shutdown := c.workqueue.Get()
	if shutdown {
		return false
	}
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		// A key that cannot be split can never be synced: drop it.
		utilruntime.HandleErrorWithContext(ctx, err, "Invalid key", "key", key)
		c.workqueue.Forget(key)
		return true // queuedone: returns before the deferred Done
	}
	// Done tells the queue the key is no longer being processed, so that
	// a change that arrived meanwhile can be handed to a worker.
	defer c.workqueue.Done(key)

	if err := c.syncHandler(ctx, namespace, name); err != nil {
		if c.workqueue.NumRequeues(key) < maxRetries {
			// Back off, and try again later.
			c.workqueue.AddRateLimited(key)
			return true
		}
		utilruntime.HandleErrorWithContext(ctx, err, "Dropping Deployment out of the queue", "key", key)
		return true // forget: dropped, but never forgotten
	}
	// Forget resets the key's backoff.
	c.workqueue.Forget(key)
	return true
}

// enqueueDeployment puts a Deployment's key on the queue.
func (c *Controller) enqueueDeployment(obj interface{}) {
	// The deletion-handling key function also takes the tombstone a
	// DeleteFunc receives for a deletion the watch missed.
	key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		utilruntime.HandleError(err)
		return
	}
	c.workqueue.Add(key)
}

// handleService enqueues the exposed Deployment that owns a deleted
// Service, so that its sync creates the Service again.
func (c *Controller) handleService(obj interface{}) {
	svc := obj.(*corev1.Service) // tombstone: panics on the tombstone of a deletion the watch missed
	ref := metav1.GetControllerOf(svc)
	if ref == nil || ref.Kind != controllerKind.Kind {
		return
	}
	d, err := c.kubeclientset.AppsV1().Deployments(svc.Namespace).Get(context.TODO(), ref.Name, metav1.GetOptions{}) // handlerblocking: every later event waits for this call
	if err != nil || d.Annotations[exposeAnnotation] != "true" {
		return
	}
	c.enqueueDeployment(d)
}
