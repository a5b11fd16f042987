package cachemutation

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
)

// A get-or-new helper over a lister, then a builder that fills in the
// object only where it has no resourceVersion (shaped on a controller's
// generic GetOrNew/CreateOrUpdate helpers over listers, found by code
// search): an object an informer or the API server returned always has
// one, so that branch writes only the object the helper built; the
// cached one is copied before its update.
type accounts struct {
	client kubernetes.Interface
	lister corelisters.ServiceAccountLister
}

func (a *accounts) getOrNew(ns, name string) (*corev1.ServiceAccount, error) {
	sa, err := a.lister.ServiceAccounts(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}, nil
	}
	return sa, err
}

func (a *accounts) ensure(ctx context.Context, ns, name string) error {
	sa, err := a.getOrNew(ns, name)
	if err != nil {
		return err
	}
	if sa.ResourceVersion == "" {
		sa.Labels = map[string]string{"app": name}
		_, err = a.client.CoreV1().ServiceAccounts(ns).Create(ctx, sa, metav1.CreateOptions{})
		return err
	}
	sa = sa.DeepCopy()
	sa.Labels["app"] = name
	_, err = a.client.CoreV1().ServiceAccounts(ns).Update(ctx, sa, metav1.UpdateOptions{})
	return err
}

// The same test through the getter, on the else branch of != "".
func (a *accounts) ensureGetter(ctx context.Context, ns, name string) error {
	sa, err := a.getOrNew(ns, name)
	if err != nil {
		return err
	}
	if sa.GetResourceVersion() != "" {
		return nil
	} else {
		sa.SetAnnotations(map[string]string{"owner": name})
	}
	_, err = a.client.CoreV1().ServiceAccounts(ns).Create(ctx, sa, metav1.CreateOptions{})
	return err
}

// The test guards the wrong branch: the write reaches the cached object.
func (a *accounts) ensureInverted(ctx context.Context, ns, name string) error {
	sa, err := a.getOrNew(ns, name)
	if err != nil {
		return err
	}
	if sa.ResourceVersion != "" {
		sa.Labels["app"] = name // want `sa from a\.getOrNew \(a\.lister\.ServiceAccounts\(ns\)\.Get\) is modified \(sa\.Labels\[\.\.\.\] = \.\.\.\) without DeepCopy`
		_, err = a.client.CoreV1().ServiceAccounts(ns).Update(ctx, sa, metav1.UpdateOptions{})
	}
	return err
}

// Another object's empty resourceVersion says nothing of the cached one.
func (a *accounts) ensureBeside(ns, name string) (*corev1.ServiceAccount, error) {
	sa, err := a.lister.ServiceAccounts(ns).Get(name)
	if err != nil {
		return nil, err
	}
	built := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	if built.ResourceVersion == "" {
		sa.Labels["app"] = name // want `sa from a\.lister\.ServiceAccounts\(ns\)\.Get is modified \(sa\.Labels\[\.\.\.\] = \.\.\.\) without DeepCopy`
	}
	return built, nil
}
