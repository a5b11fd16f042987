// This file holds markers controller-gen does not read, in the places
// they are found: directly above a Reconcile, in its doc comment
// (VictoriaMetrics/operator before PR #2543, every controller; the
// operator-sdk#1973 report), above a var block (controller-tools#551, the
// kubebuilder book's CronJob markers moved down), in a type's doc comment
// (kubebuilder#762: markers put in *_types.go), in a function body.

package rbacmarkers

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// VMAgentReconciler reconciles a VMAgent object.
type VMAgentReconciler struct {
	client.Client
}

// Reconcile is part of the main kubernetes reconciliation loop.
// +kubebuilder:rbac:groups=core,resources=nodes,verbs=get;list;watch // want `controller-gen does not read these 2 \+kubebuilder:rbac markers: they are in the doc comment of method VMAgentReconciler\.Reconcile, and rbac markers are read only at package level, so the role lacks what they grant; separate the markers from the doc comment with a blank line`
// +kubebuilder:rbac:groups=core,resources=nodes/proxy,verbs=get
func (r *VMAgentReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	// +kubebuilder:rbac:groups=core,resources=endpoints,verbs=get;list;watch // want `it is in the body of method VMAgentReconciler\.Reconcile, .*; move it above the declaration, separated from any doc comment by a blank line`
	return ctrl.Result{}, nil
}

// +kubebuilder:rbac:groups=core,resources=persistentvolumeclaims,verbs=get;list;watch // want `it is in the doc comment of a var declaration`
var (
	scrapeAnnotation = "operator.victoriametrics.com/scrape"
)

// VMAgentSpec is the spec of a VMAgent.
// +kubebuilder:rbac:groups=core,resources=limitranges,verbs=get;list;watch // want `it is in the doc comment of type VMAgentSpec`
type VMAgentSpec struct {
	// +kubebuilder:rbac:groups=core,resources=resourcequotas,verbs=get // want `it is in the comment of a field or parameter`
	Replicas int32
}

// +kubebuilder:rbac:groups=core,resources=podtemplates,verbs=get;list;watch

// templates lists pod templates: the marker above is separated from the
// doc comment, and read.
func (r *VMAgentReconciler) templates(ctx context.Context) (*corev1.PodTemplateList, error) {
	var list corev1.PodTemplateList
	return &list, r.List(ctx, &list)
}
