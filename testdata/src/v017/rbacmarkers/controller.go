// This file is shaped on kubebuilder v2's scaffold (testdata/project-v2/
// controllers, kubernetes-sigs/kubebuilder v2.3, controller-runtime v0.5):
// Reconcile(req) without a context, the markers above it, watches
// declared with the &source.Kind{} literal; and on the ListenerTemplate
// reconciler of controller-tools#221 (2019), whose markers sat directly
// above Reconcile.

// Package rbacmarkers holds the rbacmarkers fixtures for
// controller-runtime v0.5.
package rbacmarkers

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/source"
)

// CaptainReconciler reconciles a Deployment and the Secret it mounts.
type CaptainReconciler struct {
	client.Client
}

// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=apps,resources=deployments/status,verbs=get;update;patch

func (r *CaptainReconciler) Reconcile(req ctrl.Request) (ctrl.Result, error) {
	ctx := context.Background()
	var deploy appsv1.Deployment
	if err := r.Get(ctx, req.NamespacedName, &deploy); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	mirror := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: deploy.Name + "-mirror", Namespace: deploy.Namespace}}
	if err := r.Create(ctx, mirror); err != nil { // want `r\.Create creates a Deployment, and no \+kubebuilder:rbac marker grants create on deployments\.apps: the API server refuses the call under the role controller-gen generates; add // \+kubebuilder:rbac:groups=apps,resources=deployments,verbs=create`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.Status().Update(ctx, &deploy)
}

func (r *CaptainReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&appsv1.Deployment{}).
		Watches(&source.Kind{Type: &corev1.Secret{}}, &handler.EnqueueRequestForObject{}). // want `source\.Kind starts an informer on Secrets, and no \+kubebuilder:rbac marker grants list and watch on secrets: an informer lists and watches`
		Complete(r)
}

// ListenerTemplateReconciler reconciles a ListenerTemplate object.
type ListenerTemplateReconciler struct {
	client.Client
}

// +kubebuilder:rbac:groups=tektonexperimental.vincent-pli.com,resources=listenertemplates,verbs=get;list;watch;create;update;patch;delete // want `controller-gen does not read this \+kubebuilder:rbac marker: it is in the doc comment of method ListenerTemplateReconciler\.Reconcile`
func (r *ListenerTemplateReconciler) Reconcile(req ctrl.Request) (ctrl.Result, error) {
	return ctrl.Result{}, nil
}
