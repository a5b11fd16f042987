package unwatched

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The memcached-operator of the operator-sdk tutorial
// (testdata/go/v4/memcached-operator/internal/controller/memcached_controller.go):
// deploymentForMemcached sets the controller reference, Reconcile creates
// the Deployment. Here the builder forgot Owns(&appsv1.Deployment{}), as
// operator-sdk#5949's reporter and Kong/gateway-operator#26 describe: a
// Deployment deleted under the Memcached is not put back.

// MemcachedReconciler reconciles Memcacheds.
type MemcachedReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

func (r *MemcachedReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	memcached := &Memcached{}
	if err := r.Get(ctx, req.NamespacedName, memcached); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	found := &appsv1.Deployment{}
	err := r.Get(ctx, req.NamespacedName, found)
	if err != nil && apierrors.IsNotFound(err) {
		dep, err := r.deploymentForMemcached(memcached)
		if err != nil {
			return ctrl.Result{}, err
		}
		if err := r.Create(ctx, dep); err != nil {
			return ctrl.Result{}, err
		}
		job, err := r.backupJob(memcached)
		if err != nil {
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, r.Create(ctx, job)
	}
	return ctrl.Result{}, err
}

func (r *MemcachedReconciler) deploymentForMemcached(m *Memcached) (*appsv1.Deployment, error) {
	dep := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: m.Name, Namespace: m.Namespace},
		Spec: appsv1.DeploymentSpec{
			Replicas: &m.Spec.Size,
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "memcached", Image: "memcached:1.6"}}}},
		},
	}
	if err := ctrl.SetControllerReference(m, dep, r.Scheme); err != nil { // want `this appsv1.Deployment is given a controller reference to its Memcached, but no controller of the package Owns or Watches appsv1.Deployment`
		return nil, err
	}
	return dep, nil
}

func (r *MemcachedReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&Memcached{}).
		Named("memcached").
		Complete(r)
}
