package finalizer

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// Finalizers added before the deletion check, in cluster-api v1.4's
// shapes (internal/controllers/cluster and controlplane/kubeadm, fixed in
// v1.5.0 by "only set finalizers if deletionTimestamp is not set"): a
// Policy deleted while it lacks the finalizer gets it added back, and the
// API server refuses the write.

type policyPatcher struct{ client.Client }

func (h *policyPatcher) Patch(ctx context.Context, obj client.Object) error { return nil }

func patchPolicy(ctx context.Context, h *policyPatcher, p *Policy) error { return h.Patch(ctx, p) }

type FirstReconciler struct {
	client.Client
}

func (r *FirstReconciler) Reconcile(ctx context.Context, req ctrl.Request) (_ ctrl.Result, reterr error) {
	policy := &Policy{}
	if err := r.Get(ctx, req.NamespacedName, policy); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	helper := &policyPatcher{r.Client}
	defer func() {
		if err := patchPolicy(ctx, helper, policy); err != nil && reterr == nil {
			reterr = err
		}
	}()
	if !controllerutil.ContainsFinalizer(policy, policyFinalizer) {
		controllerutil.AddFinalizer(policy, policyFinalizer) // want `finalizer added to the Policy before its DeletionTimestamp is checked \(line 42\)`
		return ctrl.Result{}, nil
	}
	if !policy.ObjectMeta.DeletionTimestamp.IsZero() {
		controllerutil.RemoveFinalizer(policy, policyFinalizer)
		return ctrl.Result{}, nil
	}
	return ctrl.Result{}, nil
}

// guarded is KubeadmControlPlane's fix: the add checks the deletion
// itself. Silent.
func (r *FirstReconciler) guarded(ctx context.Context, policy *Policy, helper *policyPatcher) error {
	if policy.ObjectMeta.DeletionTimestamp.IsZero() && !controllerutil.ContainsFinalizer(policy, policyFinalizer) {
		controllerutil.AddFinalizer(policy, policyFinalizer)
		return helper.Patch(ctx, policy)
	}
	if !policy.ObjectMeta.DeletionTimestamp.IsZero() {
		return nil
	}
	return nil
}
