// Package listerbypass holds a controller written against client-go v0.30
// that reads through its clientset what its informers cache.
package listerbypass

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/retry"
	"k8s.io/client-go/util/workqueue"
)

type EndpointsController struct {
	client        kubernetes.Interface
	serviceLister corelisters.ServiceLister
	podInformer   coreinformers.PodInformer
	queue         workqueue.RateLimitingInterface
}

func (e *EndpointsController) processNextWorkItem(ctx context.Context) bool {
	key, quit := e.queue.Get()
	if quit {
		return false
	}
	defer e.queue.Done(key)
	if err := e.syncService(ctx, key.(string)); err != nil {
		e.queue.AddRateLimited(key)
		return true
	}
	e.queue.Forget(key)
	return true
}

func (e *EndpointsController) syncService(ctx context.Context, key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	svc, err := e.client.CoreV1().Services(ns).Get(ctx, name, metav1.GetOptions{}) // want `clientset Get of Service .* read through e.serviceLister`
	if apierrors.IsNotFound(err) {
		return nil // deleted: nothing left to sync
	}
	if err != nil {
		return err
	}
	pods, err := e.client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{}) // want `clientset List of Pod .* read through e.podInformer.Lister\(\)`
	if err != nil {
		return err
	}
	_ = pods
	// Endpoints are not cached here: silent. A fresh read before the write,
	// inside RetryOnConflict: silent.
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		ep, err := e.client.CoreV1().Endpoints(ns).Get(ctx, svc.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		_, err = e.client.CoreV1().Endpoints(ns).Update(ctx, ep, metav1.UpdateOptions{})
		return err
	})
}
