// This file is shaped on a reconciler of kubebuilder's v3 scaffold
// (testdata/project-v3/controllers, kubernetes-sigs/kubebuilder v3.14,
// controller-runtime v0.1x) that scales the Deployments of its objects
// through the scale subresource and watches the ConfigMaps they name; and
// on the reconciler of the operator-sdk#1973 report (db-operator's
// DbCopyJob controller), whose markers sat directly above Reconcile.

// Package rbacmarkers holds the rbacmarkers fixtures for
// controller-runtime v0.18.
package rbacmarkers

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// ScalerReconciler keeps a Deployment at the replicas its ConfigMap says.
type ScalerReconciler struct {
	client.Client
}

// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=apps,resources=deployments/status,verbs=get

// Reconcile scales the Deployment.
func (r *ScalerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var deploy appsv1.Deployment
	if err := r.Get(ctx, req.NamespacedName, &deploy); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	scale := &autoscalingv1.Scale{Spec: autoscalingv1.ScaleSpec{Replicas: 3}}
	if err := r.SubResource("scale").Update(ctx, &deploy, client.WithSubResourceBody(scale)); err != nil { // want `r\.SubResource\("scale"\)\.Update updates the scale of a Deployment, and no \+kubebuilder:rbac marker grants update on deployments/scale\.apps: the API server refuses the call under the role controller-gen generates; add // \+kubebuilder:rbac:groups=apps,resources=deployments/scale,verbs=update`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// SetupWithManager watches Deployments and the ConfigMaps they name.
func (r *ScalerReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&appsv1.Deployment{}).
		Watches(&corev1.ConfigMap{}, handler.EnqueueRequestsFromMapFunc(func(ctx context.Context, o client.Object) []reconcile.Request { // want `Watches starts an informer on ConfigMaps, and no \+kubebuilder:rbac marker grants list and watch on configmaps: an informer lists and watches: this one cannot sync, and the controller fails to start; add // \+kubebuilder:rbac:groups=core,resources=configmaps,verbs=list;watch`
			return []reconcile.Request{{NamespacedName: client.ObjectKey{Namespace: o.GetNamespace(), Name: o.GetName()}}}
		})).
		Complete(r)
}

// CopyJobReconciler copies databases.
type CopyJobReconciler struct {
	client.Client
}

// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get;list;watch;create // want `controller-gen does not read this \+kubebuilder:rbac marker: it is in the doc comment of method CopyJobReconciler\.Reconcile`
func (r *CopyJobReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return ctrl.Result{}, nil
}
