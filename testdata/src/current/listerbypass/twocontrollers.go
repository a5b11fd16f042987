package listerbypass

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// Two controllers in one package, shaped like kubernetes'
// pkg/controller/serviceaccount, where the service-account controller and
// the token controllers beside it each keep listers of their own. A
// suggestion names a lister the reporting controller reaches; a controller
// without one is not told to read through another's (once reported by
// mistake): that informer may be filtered, or fed by another factory in
// another process.

// AccountsController keeps service accounts and namespaces in listers.
type AccountsController struct {
	client   kubernetes.Interface
	saLister corelisters.ServiceAccountLister
	nsLister corelisters.NamespaceLister
	queue    workqueue.TypedRateLimitingInterface[string]
}

func (c *AccountsController) processNextWorkItem(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	if err := c.syncNamespace(ctx, key); err != nil {
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.Forget(key)
	return true
}

func (c *AccountsController) syncNamespace(ctx context.Context, key string) error {
	ns, err := c.client.CoreV1().Namespaces().Get(ctx, key, metav1.GetOptions{}) // want `clientset Get of Namespace .* read through c.nsLister`
	if apierrors.IsNotFound(err) {
		return nil // deleted: nothing left to sync
	}
	if err != nil {
		return err
	}
	if ns.Status.Phase == corev1.NamespaceTerminating {
		return nil
	}
	return defaultAccountReady(ctx, c.client, ns.Name)
}

// defaultAccountReady is a helper without a receiver, on the path of the
// controller that keeps the service-account lister.
func defaultAccountReady(ctx context.Context, client kubernetes.Interface, ns string) error {
	sa, err := client.CoreV1().ServiceAccounts(ns).Get(ctx, "default", metav1.GetOptions{}) // want `clientset Get of ServiceAccount .* read through the saLister field's lister`
	if err != nil {
		return err
	}
	if len(sa.Secrets) == 0 && sa.AutomountServiceAccountToken == nil {
		return fmt.Errorf("service account %s/default has no token yet", ns)
	}
	return nil
}

// TokenCleaner keeps secrets in a lister and no service accounts.
type TokenCleaner struct {
	client       kubernetes.Interface
	secretLister corelisters.SecretLister
	queue        workqueue.TypedRateLimitingInterface[string]
}

func (tc *TokenCleaner) processNextWorkItem(ctx context.Context) bool {
	key, quit := tc.queue.Get()
	if quit {
		return false
	}
	defer tc.queue.Done(key)
	if err := tc.syncSecret(ctx, key); err != nil {
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
	secret, err := tc.secretLister.Secrets(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return nil // deleted: nothing left to sync
	}
	if err != nil {
		return err
	}
	// No service-account lister in this controller: silent.
	sa, err := tc.client.CoreV1().ServiceAccounts(ns).Get(ctx, secret.Annotations[corev1.ServiceAccountNameKey], metav1.GetOptions{})
	if err != nil {
		return err
	}
	if string(sa.UID) != secret.Annotations[corev1.ServiceAccountUIDKey] {
		return fmt.Errorf("secret %s belongs to a replaced service account", key)
	}
	if err := accountMounted(ctx, tc.client, sa); err != nil {
		return err
	}
	return nil
}

// accountMounted is a helper without a receiver reached only from the
// controller without a service-account or namespace lister: silent.
func accountMounted(ctx context.Context, client kubernetes.Interface, sa *corev1.ServiceAccount) error {
	ns, err := client.CoreV1().Namespaces().Get(ctx, sa.Namespace, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if ns.Status.Phase == corev1.NamespaceTerminating {
		return fmt.Errorf("namespace %s is terminating", ns.Name)
	}
	return nil
}
