package clientperreconcile

import (
	"context"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/util/workqueue"
)

// Controller is sample-controller's shape on client-go v0.30 (untyped
// work queue) with the builds per event a client-go controller makes.
type Controller struct {
	config    *rest.Config
	dyn       dynamic.Interface
	clientset kubernetes.Interface
	workqueue workqueue.RateLimitingInterface
	// syncHandler is sample-controller's func-typed field: the path goes
	// through it to the method stored in it.
	syncHandler func(ctx context.Context, key string) error
	synced      cache.InformerSynced
}

func NewController(config *rest.Config, informer cache.SharedIndexInformer) (*Controller, error) {
	// Built once, in the constructor: silent.
	dyn, err := dynamic.NewForConfig(config)
	if err != nil {
		return nil, err
	}
	c := &Controller{config: config, dyn: dyn, workqueue: workqueue.NewRateLimitingQueue(workqueue.DefaultControllerRateLimiter())}
	c.syncHandler = c.syncWidget
	c.synced = informer.HasSynced
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: c.onUpdate,
	})
	return c, nil
}

// onUpdate asks for object metadata through a metadata client built per
// event.
func (c *Controller) onUpdate(old, cur interface{}) {
	mc, err := metadata.NewForConfig(c.config) // want `metadata.NewForConfig in \(\*Controller\).onUpdate builds a new client on every event`
	if err != nil {
		return
	}
	_ = mc
	if key, err := cache.MetaNamespaceKeyFunc(cur); err == nil {
		c.workqueue.Add(key)
	}
}

func (c *Controller) Run(ctx context.Context) {
	if !cache.WaitForCacheSync(ctx.Done(), c.synced) {
		return
	}
	go wait.UntilWithContext(ctx, c.runWorker, time.Second)
}

func (c *Controller) runWorker(ctx context.Context) {
	for c.processNextWorkItem(ctx) {
	}
}

func (c *Controller) processNextWorkItem(ctx context.Context) bool {
	obj, shutdown := c.workqueue.Get()
	if shutdown {
		return false
	}
	defer c.workqueue.Done(obj)
	key, ok := obj.(string)
	if !ok {
		c.workqueue.Forget(obj)
		return true
	}
	if err := c.syncHandler(ctx, key); err != nil {
		c.workqueue.AddRateLimited(key)
		return true
	}
	c.workqueue.Forget(obj)
	return true
}

// syncWidget lists a custom resource through a dynamic informer factory
// it starts for each key: shaped on controllers that build a factory of
// the resource a CR names to read it (a list of the whole cluster per
// sync), then read the lister.
func (c *Controller) syncWidget(ctx context.Context, key string) error {
	gvr := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	factory := dynamicinformer.NewDynamicSharedInformerFactory(c.dyn, 0) // want `dynamicinformer.NewDynamicSharedInformerFactory in \(\*Controller\).processNextWorkItem → \(\*Controller\).syncWidget builds an informer factory on every sync`
	lister := factory.ForResource(gvr).Lister()
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())
	_, err := lister.List(nil)
	if err != nil {
		return err
	}
	return c.ensureClientset(ctx)
}

// ensureClientset builds the clientset on first use, under a nil check of
// the field: silent.
func (c *Controller) ensureClientset(ctx context.Context) error {
	if c.clientset == nil {
		cs, err := kubernetes.NewForConfig(c.config)
		if err != nil {
			return err
		}
		c.clientset = cs
	}
	_, err := c.clientset.CoreV1().Namespaces().Get(ctx, "kube-system", metav1.GetOptions{})
	return err
}

// RemoteSync reaches a remote cluster from a kubeconfig it is handed per
// key: a client per target, silent.
func (c *Controller) RemoteSync(ctx context.Context, kubeconfig []byte) error {
	cfg, err := clientcmd.RESTConfigFromKubeConfig(kubeconfig)
	if err != nil {
		return err
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return fmt.Errorf("remote: %w", err)
	}
	_, err = cs.CoreV1().Nodes().Get(ctx, "control-plane", metav1.GetOptions{})
	return err
}
