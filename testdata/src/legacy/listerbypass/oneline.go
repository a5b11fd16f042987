package listerbypass

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/util/workqueue"
)

// A worker and its sync written compactly, each branch on one line, on
// client-go v0.30's untyped queue: the fix replaces the clientset read on
// a line that holds other statements.

type EndpointsWatcher struct {
	client   kubernetes.Interface
	epLister corelisters.EndpointsLister
	queue    workqueue.RateLimitingInterface
}

func (w *EndpointsWatcher) processNextWorkItem(ctx context.Context) bool {
	key, quit := w.queue.Get()
	if quit { return false }
	defer w.queue.Done(key)
	if err := w.sync(ctx, key.(string)); err != nil { w.queue.AddRateLimited(key); return true }
	w.queue.Forget(key)
	return true
}

func (w *EndpointsWatcher) sync(ctx context.Context, name string) error {
	ep, err := w.client.CoreV1().Endpoints("kube-system").Get(ctx, name, metav1.GetOptions{}); if apierrors.IsNotFound(err) { return nil }; if err != nil { return err } // want `clientset Get of Endpoints .* read through w.epLister`
	_ = ep.Subsets
	return nil
}
