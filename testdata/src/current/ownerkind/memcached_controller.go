package ownerkind

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	cachev1alpha1 "example.com/current/ownerkind/api/cache/v1alpha1"
)

// operator: a kubebuilder reconciler (operator-sdk's memcached
// tutorial) that builds its owner references by hand.

type MemcachedReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

// An apiVersion without the group: the garbage collector resolves "v1"
// Memcached in the core group, which has none, so the Deployment is never
// collected. The same mistake in GoogleCloudPlatform/marketplace-k8s-app-tools
// (PR #560, "apiVersion does not contain group", seen failing from
// Kubernetes 1.20) and ray-project/ray's operator (PR #13392), written in
// Python there.
func (r *MemcachedReconciler) deploymentFor(m *cachev1alpha1.Memcached) *appsv1.Deployment {
	return &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{
		Name:      m.Name,
		Namespace: m.Namespace,
		OwnerReferences: []metav1.OwnerReference{{
			APIVersion: "v1", // want `owner reference names Memcached of the core group but its owner m is a \*v1alpha1.Memcached \(Memcached.cache.example.com\)`
			Kind:       "Memcached",
			Name:       m.Name,
			UID:        m.UID,
		}},
	}}
}

// A GVK of a sibling kind of the same group, as metering-operator's
// ReportQueryGVK for a ReportDataSource.
func (r *MemcachedReconciler) backupSecretFor(m *cachev1alpha1.Memcached) *corev1.Secret {
	gvk := cachev1alpha1.GroupVersion.WithKind("MemcachedBackup")
	return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{
		Name:            m.Name + "-backup",
		Namespace:       m.Namespace,
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(m, gvk)}, // want `owner reference names MemcachedBackup.cache.example.com but its owner m is a \*v1alpha1.Memcached \(Memcached.cache.example.com\)`
	}}
}

// The right ways: silent.
func (r *MemcachedReconciler) configMapFor(ctx context.Context, m *cachev1alpha1.Memcached) (*corev1.ConfigMap, error) {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: m.Name, Namespace: m.Namespace}}
	// The GVK from the scheme.
	gvk, err := apiutil.GVKForObject(m, r.Scheme)
	if err != nil {
		return nil, err
	}
	cm.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(m, gvk)}
	// controller-runtime's setter, which asks the scheme too.
	if err := controllerutil.SetControllerReference(m, cm, r.Scheme); err != nil {
		return nil, err
	}
	// The group version variable and the type's own kind.
	cm.OwnerReferences = append(cm.OwnerReferences, *metav1.NewControllerRef(m, cachev1alpha1.GroupVersion.WithKind("Memcached")))
	cm.OwnerReferences = append(cm.OwnerReferences, metav1.OwnerReference{
		APIVersion: cachev1alpha1.GroupVersion.String(),
		Kind:       "Memcached",
		Name:       m.GetName(),
		UID:        m.GetUID(),
	})
	return cm, nil
}

// An unstructured owner names its own kind; an interface owner is unknown:
// silent.
func ownedBy(u *unstructured.Unstructured, owner client.Object, kind string) []metav1.OwnerReference {
	return []metav1.OwnerReference{
		*metav1.NewControllerRef(u, u.GroupVersionKind()),
		*metav1.NewControllerRef(owner, appsv1.SchemeGroupVersion.WithKind("Deployment")),
		{APIVersion: "apps/v1", Kind: kind, Name: u.GetName(), UID: u.GetUID()},
	}
}

// A type registered through an init's append (cluster-api's objectTypes),
// given a sibling's kind.
func memberOf(pool *cachev1alpha1.MemcachedPool, m *cachev1alpha1.Memcached) {
	m.OwnerReferences = append(m.OwnerReferences, *metav1.NewControllerRef(pool, cachev1alpha1.GroupVersion.WithKind("Memcached"))) // want `owner reference names Memcached.cache.example.com but its owner pool is a \*v1alpha1.MemcachedPool \(MemcachedPool.cache.example.com\)`
}
