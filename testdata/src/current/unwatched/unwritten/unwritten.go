// Package unwritten builds a child with its controller reference and
// hands it to a writer of another package (a server-side apply helper,
// say): whether that writer's controller watches it is not known here.
package unwritten

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Site struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

func (in *Site) DeepCopyObject() runtime.Object {
	out := *in
	return &out
}

type SiteReconciler struct {
	client.Client
	Scheme *runtime.Scheme
	Apply  func(context.Context, client.Object) error
}

func (r *SiteReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	site := &Site{}
	if err := r.Get(ctx, req.NamespacedName, site); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: site.Name, Namespace: site.Namespace}}
	if err := ctrl.SetControllerReference(site, svc, r.Scheme); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.Apply(ctx, svc)
}

func (r *SiteReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&Site{}).Complete(r)
}
