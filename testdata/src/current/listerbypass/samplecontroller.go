// Package listerbypass holds controllers that read from the API server
// what they already cache, for the listerbypass analyzer.
package listerbypass

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	appsinformers "k8s.io/client-go/informers/apps/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/retry"
	"k8s.io/client-go/util/workqueue"
)

// Controller is shaped like k8s.io/sample-controller: the sync handler is
// stored in a field and called from the worker.
type Controller struct {
	kubeclientset     kubernetes.Interface
	deploymentsLister appslisters.DeploymentLister
	nodeInformer      coreinformers.NodeInformer
	workqueue         workqueue.TypedRateLimitingInterface[string]
	syncHandler       func(ctx context.Context, key string) error
}

func NewController(ctx context.Context, client kubernetes.Interface, deployments appsinformers.DeploymentInformer, nodes coreinformers.NodeInformer) (*Controller, error) { // want NewController:`reads\(List Deployment at samplecontroller.go:\d+ \(deliberate\)\)`
	c := &Controller{
		kubeclientset:     client,
		deploymentsLister: deployments.Lister(),
		nodeInformer:      nodes,
		workqueue:         workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
	}
	c.syncHandler = c.syncDeployment
	// Set-up code runs before the informers exist: a live read is the only
	// read there is. Silent.
	if _, err := client.AppsV1().Deployments("kube-system").List(ctx, metav1.ListOptions{}); err != nil {
		return nil, err
	}
	return c, nil
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

func (c *Controller) syncDeployment(ctx context.Context, key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	d, err := c.kubeclientset.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{}) // want `clientset Get of Deployment goes to the API server on every sync, though the controller caches Deployment: read through c.deploymentsLister`
	if apierrors.IsNotFound(err) {
		return nil // deleted: nothing left to sync
	}
	if err != nil {
		return err
	}
	node, err := c.kubeclientset.CoreV1().Nodes().Get(ctx, d.Spec.Template.Spec.NodeName, metav1.GetOptions{}) // want `clientset Get of Node .* read through c.nodeInformer.Lister\(\)`
	if err != nil {
		return err
	}
	_ = node
	// Secrets are not cached by this controller: there is no lister to use.
	if _, err := c.kubeclientset.CoreV1().Secrets(ns).Get(ctx, "token", metav1.GetOptions{}); err != nil {
		return err
	}
	return c.scaleSiblings(ctx, ns)
}

// scaleSiblings lists through the client in a helper of the sync handler.
func (c *Controller) scaleSiblings(ctx context.Context, ns string) error {
	list, err := c.kubeclientset.AppsV1().Deployments(ns).List(ctx, metav1.ListOptions{}) // want `clientset List of Deployment goes to the API server`
	if err != nil {
		return err
	}
	for i := range list.Items {
		d := &list.Items[i]
		// A fresh read before a write, inside RetryOnConflict: silent.
		err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
			latest, err := c.kubeclientset.AppsV1().Deployments(ns).Get(ctx, d.Name, metav1.GetOptions{})
			if err != nil {
				return err
			}
			latest.Spec.Replicas = d.Spec.Replicas
			_, err = c.kubeclientset.AppsV1().Deployments(ns).Update(ctx, latest, metav1.UpdateOptions{})
			return err
		})
		if err != nil {
			utilruntime.HandleError(fmt.Errorf("updating %s: %w", d.Name, err))
		}
	}
	return nil
}

// adopt re-checks deletion with a live read before adopting, as
// kubernetes' controller-ref manager does, and says so.
func (c *Controller) adopt(ctx context.Context, ns, name string) error {
	// The cache may not show the owner's deletion yet.
	fresh, err := c.kubeclientset.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{}) //ctrllint:ignore listerbypass recheck deletion before adoption
	if err != nil {
		return err
	}
	if fresh.DeletionTimestamp != nil {
		return fmt.Errorf("%s/%s is being deleted", ns, name)
	}
	return nil
}

func (c *Controller) syncWithAdoption(ctx context.Context, key string) error {
	ns, name, _ := cache.SplitMetaNamespaceKey(key)
	return c.adopt(ctx, ns, name)
}

func init() {
	var c Controller
	c.syncHandler = c.syncWithAdoption
}
