// want package:"filtered \\[k8s.io/api/core/v1.Pod by labels at tls.go:\\d+\\]; unfiltered \\[k8s.io/api/core/v1.ConfigMap k8s.io/api/core/v1.Pod k8s.io/api/core/v1.Secret\\]"

// Package tls holds reconcilers whose watches of Secrets, ConfigMaps and
// Pods want every object of the kind, whatever their predicates: the
// filtered fixture's commands running them report nothing.
//
//   - CertReconciler: predicate.Or of a label selector and another
//     predicate passes objects the selector does not select;
//   - BundleReconciler: a filter on an annotation, which no cache
//     selector can select by;
//   - PodReconciler: a label-selected Pod watch next to another
//     controller's Owns of Pods with no predicate (cert-manager's
//     certificaterequests and acme solvers watch the same kinds both ways).
package tls

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
)

type CertReconciler struct{ client.Client }

func (r *CertReconciler) SetupWithManager(mgr ctrl.Manager) error {
	managed, err := predicate.LabelSelectorPredicate(metav1.LabelSelector{MatchLabels: map[string]string{"app.kubernetes.io/managed-by": "tls-operator"}})
	if err != nil {
		return err
	}
	injectable := predicate.NewPredicateFuncs(func(obj client.Object) bool {
		return obj.GetAnnotations()["tls.example.com/inject"] == "true"
	})
	return ctrl.NewControllerManagedBy(mgr).
		For(&corev1.Secret{}, builder.WithPredicates(predicate.Or(managed, injectable))).
		Complete(r)
}

func (r *CertReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return ctrl.Result{}, nil
}

type BundleReconciler struct{ client.Client }

func (r *BundleReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&appsv1.Deployment{}).
		Watches(&corev1.ConfigMap{}, &handler.EnqueueRequestForObject{}, builder.WithPredicates(predicate.NewPredicateFuncs(func(obj client.Object) bool {
			_, ok := obj.GetAnnotations()["tls.example.com/bundle"]
			return ok
		}))).
		Complete(r)
}

func (r *BundleReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return ctrl.Result{}, nil
}

type PodReconciler struct{ client.Client }

func (r *PodReconciler) SetupWithManager(mgr ctrl.Manager) error {
	solver, err := predicate.LabelSelectorPredicate(metav1.LabelSelector{MatchLabels: map[string]string{"acme.example.com/http01-solver": "true"}})
	if err != nil {
		return err
	}
	if err := ctrl.NewControllerManagedBy(mgr).
		For(&appsv1.Deployment{}).
		Watches(&corev1.Pod{}, &handler.EnqueueRequestForObject{}, builder.WithPredicates(solver)).
		Complete(r); err != nil {
		return err
	}
	return ctrl.NewControllerManagedBy(mgr).
		Named("pod-owner").
		For(&appsv1.StatefulSet{}).
		Owns(&corev1.Pod{}).
		Complete(r)
}

func (r *PodReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return ctrl.Result{}, nil
}
