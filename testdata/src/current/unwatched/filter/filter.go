// Package filter holds controllers whose builder-wide event filter drops
// the status changes of the children they wait for: the shape of
// envoyproxy/gateway#1993's review (a GenerationChangedPredicate on the
// Deployment watch, while the reconciler reads its AvailableReplicas) and
// of operator-lib's NoGenerationPredicate example (Owns(&corev1.Pod{})
// under a WithEventFilter).
package filter

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
)

type Gateway struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            GatewayStatus `json:"status,omitempty"`
}

type GatewayStatus struct {
	Ready bool `json:"ready"`
}

func (in *Gateway) DeepCopyObject() runtime.Object {
	out := *in
	return &out
}

type GatewayReconciler struct {
	client.Client
}

func (r *GatewayReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	gw := &Gateway{}
	if err := r.Get(ctx, req.NamespacedName, gw); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	dep := &appsv1.Deployment{}
	if err := r.Get(ctx, req.NamespacedName, dep); err != nil {
		return ctrl.Result{}, err
	}
	gw.Status.Ready = dep.Status.AvailableReplicas > 0 // read: needs the Deployment's status changes
	return ctrl.Result{}, r.Status().Update(ctx, gw)
}

func (r *GatewayReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&Gateway{}).
		Owns(&appsv1.Deployment{}).
		WithEventFilter(predicate.GenerationChangedPredicate{}). // want `this event filter applies to every watch of the controller, and drops the status-only changes of the appsv1.Deployment it watches`
		Complete(r)
}

// An Or of predicates that all drop status-only changes drops them too.
func (r *GatewayReconciler) setupOr(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&Gateway{}).
		Owns(&appsv1.Deployment{}).
		WithEventFilter(predicate.Or(predicate.GenerationChangedPredicate{}, predicate.LabelChangedPredicate{})). // want `drops the status-only changes of the appsv1.Deployment`
		Complete(r)
}

// The predicate given to For filters the primary kind only: right.
func (r *GatewayReconciler) setupFor(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&Gateway{}, builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		Owns(&appsv1.Deployment{}).
		Complete(r)
}

// ResourceVersionChangedPredicate passes status changes.
func (r *GatewayReconciler) setupResourceVersion(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&Gateway{}).
		Owns(&appsv1.Deployment{}).
		WithEventFilter(predicate.Or(predicate.GenerationChangedPredicate{}, predicate.ResourceVersionChangedPredicate{})).
		Complete(r)
}

// A filter on a controller whose watched children's status the package
// never reads (ConfigMaps have none): nothing is lost.
func (r *GatewayReconciler) setupConfigMaps(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&Gateway{}).
		Owns(&corev1.ConfigMap{}).
		WithEventFilter(predicate.GenerationChangedPredicate{}).
		Complete(r)
}

// PhaseEnum is an enum-like variable of an unnamed struct type (KubeRay's
// ApplicationStatusEnum): reading its fields is no status read, and once
// made the analyzer crash.
var PhaseEnum = struct {
	Ready string
}{Ready: "Ready"}

// Pool's reconciler reads no Deployment status (GatewayReconciler's
// Reconcile does): with two controllers in the package, the filter of
// the one that does not read it is left alone.
type Pool struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Phase             string `json:"phase"`
}

func (in *Pool) DeepCopyObject() runtime.Object {
	out := *in
	return &out
}

type PoolReconciler struct {
	client.Client
}

func (r *PoolReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	pool := &Pool{}
	if err := r.Get(ctx, req.NamespacedName, pool); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	pool.Phase = PhaseEnum.Ready
	return ctrl.Result{}, r.Update(ctx, pool)
}

func (r *PoolReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&Pool{}).
		Owns(&appsv1.Deployment{}).
		WithEventFilter(predicate.GenerationChangedPredicate{}).
		Complete(r)
}

// configure is a helper the builder goes through before Complete
// (KubeRay's batchscheduler.ConfigureReconciler): the filter set before it
// is still the controller's, and reported.
func configure(b *builder.Builder) *builder.Builder {
	return b.Named("gateway-configured")
}

func (r *GatewayReconciler) setupHelped(mgr ctrl.Manager) error {
	b := ctrl.NewControllerManagedBy(mgr).
		For(&Gateway{}).
		Owns(&appsv1.Deployment{}).
		WithEventFilter(predicate.GenerationChangedPredicate{}) // want `drops the status-only changes of the appsv1.Deployment`
	b = configure(b)
	return b.Complete(r)
}
