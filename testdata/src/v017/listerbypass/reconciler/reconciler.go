// Package reconciler holds controller-runtime reconcilers as they were
// written before v0.7 (controller-runtime v0.4, beside client-go v0.17):
// Reconcile(req) without a context, and watches declared with the
// &source.Kind{Type: ...} literal. Shaped on cluster-api v0.2's
// controllers (sigs.k8s.io/cluster-api@v0.2.3 controllers/machine_controller.go
// SetupWithManager and Reconcile).
package reconciler

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/source"
)

// DeploymentReconciler keeps the manager's API reader beside its client.
type DeploymentReconciler struct {
	Client    client.Client
	APIReader client.Reader
}

func (r *DeploymentReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&appsv1.Deployment{}).
		Watches(&source.Kind{Type: &corev1.Pod{}}, &handler.EnqueueRequestForOwner{OwnerType: &appsv1.Deployment{}, IsController: true}).
		Complete(r)
}

func (r *DeploymentReconciler) Reconcile(req ctrl.Request) (ctrl.Result, error) {
	ctx := context.Background()
	d := &appsv1.Deployment{}
	if err := r.APIReader.Get(ctx, req.NamespacedName, d); err != nil { // want `Get of Deployment through an uncached reader goes to the API server on every reconcile, though the manager's cache watches Deployment`
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	pods := &corev1.PodList{}
	if err := r.APIReader.List(ctx, pods, client.InNamespace(req.Namespace), client.MatchingLabels(d.Spec.Selector.MatchLabels)); err != nil { // want `List of Pod through an uncached reader goes to the API server on every reconcile, though the manager's cache watches Pod`
		return ctrl.Result{}, err
	}
	// A Secret is not watched: reading it live is the only way. Silent.
	s := &corev1.Secret{}
	if err := r.APIReader.Get(ctx, client.ObjectKey{Namespace: req.Namespace, Name: "creds"}, s); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	d.Annotations = map[string]string{"pods": string(rune('0' + len(pods.Items)))}
	return ctrl.Result{}, r.Client.Update(ctx, d)
}
