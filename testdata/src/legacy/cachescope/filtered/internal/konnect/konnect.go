// want package:"filtered \\[k8s.io/api/core/v1.Secret by labels at konnect.go:\\d+; k8s.io/api/core/v1.ConfigMap by name and namespace at konnect.go:\\d+\\]; unfiltered \\[\\]"

// Package konnect holds reconcilers whose watches select the Secrets and
// ConfigMaps they want with predicates, as if that kept the others out of
// the manager's cache.
//
// Shapes:
//   - ExtensionReconciler: Kong's gateway-operator v1.5.0
//     controller/konnect/reconciler_konnectextension.go
//     (SetupWithManager, PR #1250): a LabelSelectorPredicate on the
//     Secret watch, "added to prevent from watching all secrets which may
//     cause high resource consumption", while the manager's cache holds
//     every Secret (the review of #1250, gateway-operator#1255);
//   - ConfigReconciler: the one operator ConfigMap a controller wants,
//     picked by name and namespace in a method handed to
//     predicate.NewPredicateFuncs and set builder-wide with
//     WithEventFilter (controller-runtime#3552's reject-all predicate,
//     narrowed to one object).
package konnect

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
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// SecretDataPlaneCertificateLabel marks a Secret used as a data-plane
// certificate.
const SecretDataPlaneCertificateLabel = "konghq.com/konnect-dp-cert"

// ExtensionReconciler reconciles the Deployments that mount a data-plane
// certificate.
type ExtensionReconciler struct {
	client.Client
}

func (r *ExtensionReconciler) SetupWithManager(mgr ctrl.Manager) error {
	ls := metav1.LabelSelector{
		// A secret must have the label to be watched by the controller, so
		// as not to watch all secrets.
		MatchExpressions: []metav1.LabelSelectorRequirement{{
			Key:      SecretDataPlaneCertificateLabel,
			Operator: metav1.LabelSelectorOpExists,
		}},
	}
	labelSelectorPredicate, err := predicate.LabelSelectorPredicate(ls)
	if err != nil {
		return err
	}
	return ctrl.NewControllerManagedBy(mgr).
		For(&appsv1.Deployment{}).
		Watches(&corev1.Secret{}, handler.EnqueueRequestsFromMapFunc(r.deploymentsForSecret),
			builder.WithPredicates(labelSelectorPredicate)).
		Complete(r)
}

func (r *ExtensionReconciler) deploymentsForSecret(ctx context.Context, obj client.Object) []reconcile.Request {
	return []reconcile.Request{{NamespacedName: client.ObjectKey{Namespace: obj.GetNamespace(), Name: "dataplane"}}}
}

func (r *ExtensionReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return ctrl.Result{}, nil
}

// ConfigReconciler follows the operator's own configuration ConfigMap.
type ConfigReconciler struct {
	client.Client
	Namespace string
}

func (r *ConfigReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&corev1.ConfigMap{}).
		WithEventFilter(predicate.NewPredicateFuncs(r.isOperatorConfig)).
		Complete(r)
}

func (r *ConfigReconciler) isOperatorConfig(obj client.Object) bool {
	return obj.GetNamespace() == r.Namespace && obj.GetName() == "operator-config"
}

func (r *ConfigReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return ctrl.Result{}, nil
}
