package listerbypass

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// A second controller in the package, shaped like the legacy token cleaner
// beside the service-account controller in kubernetes'
// pkg/controller/serviceaccount: it keeps secrets in a lister and checks
// pods live. EndpointsController's pod informer is not its to read through
// (once suggested by mistake): silent. Its own cache: reported.
type TokenCleaner struct {
	client       kubernetes.Interface
	secretLister corelisters.SecretLister
	queue        workqueue.RateLimitingInterface
}

func (tc *TokenCleaner) processNextWorkItem(ctx context.Context) bool {
	key, quit := tc.queue.Get()
	if quit {
		return false
	}
	defer tc.queue.Done(key)
	if err := tc.syncSecret(ctx, key.(string)); err != nil {
		tc.queue.AddRateLimited(key)
		return true
	}
	tc.queue.Forget(key)
	return true
}

func (tc *TokenCleaner) syncSecret(ctx context.Context, key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	pods, err := tc.client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for _, pod := range pods.Items {
		for _, v := range pod.Spec.Volumes {
			if v.Secret != nil && v.Secret.SecretName == name {
				return nil
			}
		}
	}
	return tc.markUnused(ctx, ns, name)
}

func (tc *TokenCleaner) markUnused(ctx context.Context, ns, name string) error {
	secret, err := tc.client.CoreV1().Secrets(ns).Get(ctx, name, metav1.GetOptions{}) // want `clientset Get of Secret .* read through tc.secretLister`
	if apierrors.IsNotFound(err) {
		return nil // deleted: nothing left to sync
	}
	if err != nil {
		return err
	}
	return fmt.Errorf("secret %s/%s (%d keys) is mounted by no pod", ns, name, len(secret.Data))
}
