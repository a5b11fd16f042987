package listerbypass

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// DeploymentReconciler keeps an API reader beside the manager's client.
type DeploymentReconciler struct {
	client.Client
	apiReader client.Reader
}

func (r *DeploymentReconciler) SetupWithManager(mgr ctrl.Manager) error {
	r.apiReader = mgr.GetAPIReader()
	return ctrl.NewControllerManagedBy(mgr).For(&appsv1.Deployment{}).Owns(&corev1.ConfigMap{}).Complete(r)
}

func (r *DeploymentReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var d appsv1.Deployment
	if err := r.apiReader.Get(ctx, req.NamespacedName, &d); err != nil { // want `Get of Deployment through an uncached reader goes to the API server on every reconcile, though the manager's cache watches Deployment`
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	// The manager's client reads from the cache: silent.
	var cached appsv1.Deployment
	if err := r.Get(ctx, req.NamespacedName, &cached); err != nil {
		return ctrl.Result{}, err
	}
	var cms corev1.ConfigMapList
	if err := r.apiReader.List(ctx, &cms, client.InNamespace(req.Namespace)); err != nil { // want `List of ConfigMap through an uncached reader`
		return ctrl.Result{}, err
	}
	// Secrets are not watched: an uncached read is the only one. Silent.
	var s corev1.Secret
	if err := r.apiReader.Get(ctx, client.ObjectKey{Namespace: req.Namespace, Name: "creds"}, &s); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return ctrl.Result{}, nil
}
