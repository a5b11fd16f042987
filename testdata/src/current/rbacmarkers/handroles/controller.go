// Package handroles is shaped on kueue's MultiKueue cluster controller
// (pkg/controller/admissionchecks/multikueue, sigs.k8s.io/kueue v0.17.0),
// which reads what its markers do not grant because a Role written by hand
// does (config/components/rbac/manager_secrets_role.yaml): the rules of
// such roles count, those of the role controller-gen generates from the
// markers (manager-role, config/rbac/role.yaml) do not.
package handroles

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// RolloutReconciler watches ReplicaSets and keeps a DaemonSet.
type RolloutReconciler struct {
	client.Client
}

// +kubebuilder:rbac:groups=apps,resources=statefulsets,verbs=get;list;watch

// Reconcile lists the ReplicaSets (config/rbac/replicasets_role.yaml
// grants them) and creates the DaemonSet (only the generated role.yaml
// has it, from a marker since deleted).
func (r *RolloutReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var sets appsv1.ReplicaSetList
	if err := r.List(ctx, &sets, client.InNamespace(req.Namespace)); err != nil {
		return ctrl.Result{}, err
	}
	ds := &appsv1.DaemonSet{}
	ds.Name, ds.Namespace = req.Name, req.Namespace
	if err := r.Create(ctx, ds); err != nil { // want `r\.Create creates a DaemonSet, and no \+kubebuilder:rbac marker grants create on daemonsets\.apps`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}
