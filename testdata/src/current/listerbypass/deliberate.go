package listerbypass

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
)

// Deliberate fresh reads from kubernetes' controllers: silent.

// statusRetry reads the latest version before retrying a status write, in
// a loop of its own (kubernetes' updateReplicaSetStatus).
func (c *Controller) statusRetry(ctx context.Context, d *appsv1.Deployment) error {
	client := c.kubeclientset.AppsV1().Deployments(d.Namespace)
	for i := 0; ; i++ {
		d.Status.ObservedGeneration = d.Generation
		_, err := client.UpdateStatus(ctx, d, metav1.UpdateOptions{})
		if err == nil || i >= 3 {
			return err
		}
		if d, err = client.Get(ctx, d.Name, metav1.GetOptions{}); err != nil {
			return err
		}
	}
}

// latestThenHelper reads the latest version and hands it to a helper that
// writes it (kubernetes' persistent volume controller).
func (c *Controller) latestThenHelper(ctx context.Context, name string) error {
	latest, err := c.kubeclientset.AppsV1().Deployments("default").Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	return c.bumpAnnotation(ctx, latest)
}

func (c *Controller) bumpAnnotation(ctx context.Context, d *appsv1.Deployment) error {
	d = d.DeepCopy()
	d.Annotations["bumped"] = "true"
	_, err := c.kubeclientset.AppsV1().Deployments(d.Namespace).Update(ctx, d, metav1.UpdateOptions{})
	return err
}

// cacheMissFallback reads the lister first and the API server only when
// the cache does not have the object yet.
func (c *Controller) cacheMissFallback(ctx context.Context, ns, name string) (*appsv1.Deployment, error) {
	d, err := c.deploymentsLister.Deployments(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return c.kubeclientset.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
	}
	return d, err
}

// storeFallback consults an untyped mutation cache, then the API server
// (kubernetes' resourceclaim controller).
func (c *Controller) storeFallback(ctx context.Context, store cache.MutationCache, ns, name string) error {
	if _, exists, err := store.GetByKey(ns + "/" + name); err != nil || exists {
		return err
	}
	_, err := c.kubeclientset.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
	return err
}

func (c *Controller) syncDeliberate(ctx context.Context, key string) error {
	ns, name, _ := cache.SplitMetaNamespaceKey(key)
	if _, err := c.cacheMissFallback(ctx, ns, name); err != nil {
		return err
	}
	if err := c.storeFallback(ctx, nil, ns, name); err != nil {
		return err
	}
	if err := c.latestThenHelper(ctx, name); err != nil {
		return err
	}
	return c.statusRetry(ctx, &appsv1.Deployment{})
}

func init() {
	var c Controller
	c.syncHandler = c.syncDeliberate
}
