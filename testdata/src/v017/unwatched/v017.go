// Package unwatched holds unwatched's fixtures on controller-runtime v0.5,
// whose Watches takes a source: &source.Kind{Type: &corev1.Service{}}
// with an EnqueueRequestForOwner struct, as kubebuilder v2's scaffolds
// and the memcached-operator of operator-sdk v0.17 wrote it.
package unwatched

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/source"
)

type Memcached struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

func (in *Memcached) DeepCopyObject() runtime.Object {
	out := *in
	return &out
}

type MemcachedReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

func (r *MemcachedReconciler) Reconcile(req ctrl.Request) (ctrl.Result, error) {
	ctx := context.Background()
	m := &Memcached{}
	if err := r.Get(ctx, req.NamespacedName, m); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	meta := metav1.ObjectMeta{Name: m.Name, Namespace: m.Namespace}
	dep := &appsv1.Deployment{ObjectMeta: meta}
	if err := ctrl.SetControllerReference(m, dep, r.Scheme); err != nil { // want `this appsv1.Deployment is given a controller reference to its Memcached, but no controller of the package Owns or Watches appsv1.Deployment`
		return ctrl.Result{}, err
	}
	svc := &corev1.Service{ObjectMeta: meta}
	if err := ctrl.SetControllerReference(m, svc, r.Scheme); err != nil { // watched through the source below
		return ctrl.Result{}, err
	}
	if err := r.Create(ctx, dep); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.Create(ctx, svc)
}

func (r *MemcachedReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&Memcached{}).
		Watches(&source.Kind{Type: &corev1.Service{}}, &handler.EnqueueRequestForOwner{OwnerType: &Memcached{}, IsController: true}).
		Complete(r)
}
