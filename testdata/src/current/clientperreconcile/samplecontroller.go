package clientperreconcile

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// Controller is sample-controller's shape (controller.go: a queue worker,
// syncHandler, informer event handlers) with the three ways a client-go
// controller builds per event.
type Controller struct {
	config        *rest.Config
	kubeclientset kubernetes.Interface
	workqueue     workqueue.TypedRateLimitingInterface[string]
	synced        cache.InformerSynced
}

func NewController(config *rest.Config, kubeclientset kubernetes.Interface, informer cache.SharedIndexInformer) *Controller {
	c := &Controller{
		config:        config,
		kubeclientset: kubeclientset,
		workqueue:     workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
		synced:        informer.HasSynced,
	}
	// Built once, in the constructor: silent.
	factory := informers.NewSharedInformerFactory(kubeclientset, time.Minute)
	_ = factory
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			// An informer's handler that builds a clientset to look
			// something up: per event.
			cs, err := kubernetes.NewForConfig(c.config) // want `kubernetes.NewForConfig in the function literal at line \d+ builds a new client on every event`
			if err != nil {
				return
			}
			_ = cs
			key, err := cache.MetaNamespaceKeyFunc(obj)
			if err == nil {
				c.workqueue.Add(key)
			}
		},
	})
	return c
}

func (c *Controller) Run(ctx context.Context) {
	if !cache.WaitForCacheSync(ctx.Done(), c.synced) {
		return
	}
	go wait.UntilWithContext(ctx, c.runWorker, time.Second)
	go wait.UntilWithContext(ctx, c.resync, time.Minute)
}

func (c *Controller) runWorker(ctx context.Context) {
	for c.processNextWorkItem(ctx) {
	}
}

func (c *Controller) processNextWorkItem(ctx context.Context) bool {
	key, shutdown := c.workqueue.Get()
	if shutdown {
		return false
	}
	defer c.workqueue.Done(key)
	if err := c.syncHandler(ctx, key); err != nil {
		c.workqueue.AddRateLimited(key)
		return true
	}
	c.workqueue.Forget(key)
	return true
}

// syncHandler starts an informer factory of its own for every key: each
// one lists every pod of the cluster again. Shaped on controllers that
// build a factory where they need a lister (a lister is then read before
// any cache has synced).
func (c *Controller) syncHandler(ctx context.Context, key string) error {
	factory := informers.NewSharedInformerFactory(c.kubeclientset, 0) // want `informers.NewSharedInformerFactory in \(\*Controller\).processNextWorkItem → \(\*Controller\).syncHandler builds an informer factory on every sync from the controller's own client: once started, its informers list their resources across the cluster again`
	pods := factory.Core().V1().Pods().Lister()
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())
	_, err := pods.List(nil)
	return err
}

// resync runs every minute and builds its clientset from the in-cluster
// config each time.
func (c *Controller) resync(ctx context.Context) {
	cfg, err := rest.InClusterConfig()
	if err != nil {
		return
	}
	cs := kubernetes.NewForConfigOrDie(cfg) // want `kubernetes.NewForConfigOrDie in \(\*Controller\).resync builds a new client on every period`
	_, _ = cs.CoreV1().Namespaces().Get(ctx, "kube-system", metav1.GetOptions{})
}
