// Package example is a small controller with the delete-handler bugs that
// ctrllint finds, bundled so that `make example` shows real findings on
// code compiled against the real client-go. It keeps a ConfigMap per
// Deployment and forgets a Deployment's pods when they are deleted.
package example

import (
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	appsinformers "k8s.io/client-go/informers/apps/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// Controller enqueues Deployments and tracks the pods that belong to them.
type Controller struct {
	queue workqueue.TypedRateLimitingInterface[string]
	pods  map[string]int
}

// New wires the controller to its informers.
func New(deployments appsinformers.DeploymentInformer, pods coreinformers.TypedPodInformer) *Controller {
	c := &Controller{
		queue: workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
		pods:  map[string]int{},
	}
	// One function for all three events: fine for adds and updates, wrong
	// for deletes.
	deployments.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.enqueue,
		UpdateFunc: func(_, cur interface{}) { c.enqueue(cur) },
		DeleteFunc: c.enqueue,
	})
	_, _ = pods.TypedInformer().AddTypedEventHandler(coreinformers.PodHandlerFuncs{
		AddFunc: func(pod *corev1.Pod) { c.pods[pod.Namespace]++ },
		DeleteFunc: func(d cache.DeletedObject[*corev1.Pod]) {
			c.pods[d.OptionalObj.Namespace]--
		},
	})
	pods.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: c.deletePod,
	})
	deployments.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: c.deleteDeployment,
	})
	return c
}

func (c *Controller) enqueue(obj interface{}) {
	key, err := cache.MetaNamespaceKeyFunc(obj)
	if err != nil {
		utilruntime.HandleError(err)
		return
	}
	c.queue.Add(key)
}

func (c *Controller) deletePod(obj interface{}) {
	pod := obj.(*corev1.Pod)
	for _, ref := range pod.OwnerReferences {
		if ref.Kind == "ReplicaSet" {
			c.queue.Add(pod.Namespace + "/" + ref.Name)
		}
	}
}

// deleteDeployment is the right shape, for comparison: nothing reported.
func (c *Controller) deleteDeployment(obj interface{}) {
	d, ok := obj.(*appsv1.Deployment)
	if !ok {
		tombstone, ok := obj.(cache.DeletedFinalStateUnknown)
		if !ok {
			utilruntime.HandleError(fmt.Errorf("unexpected object %T", obj))
			return
		}
		if d, ok = tombstone.Obj.(*appsv1.Deployment); !ok {
			utilruntime.HandleError(fmt.Errorf("tombstone holds %T", tombstone.Obj))
			return
		}
	}
	klog.InfoS("Deployment deleted", "deployment", klog.KObj(d))
}

// Run processes the queue until stop closes.
func (c *Controller) Run(workers int, stop <-chan struct{}) {
	defer c.queue.ShutDown()
	for i := 0; i < workers; i++ {
		go wait.Until(c.worker, time.Second, stop)
	}
	<-stop
}

func (c *Controller) worker() {
	for {
		key, shutdown := c.queue.Get()
		if shutdown {
			return
		}
		klog.InfoS("Syncing", "key", key)
		c.queue.Forget(key)
		c.queue.Done(key)
	}
}
