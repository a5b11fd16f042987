package conflictretry

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/client-go/util/retry"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
}

// Reconcile retries the status write on the object read at the top of
// Reconcile (the shape datadog-operator's PR 3283 replaced).
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var d appsv1.Deployment
	if err := r.Get(ctx, req.NamespacedName, &d); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		d.Status.ObservedGeneration = d.Generation
		return r.Status().Update(ctx, &d) // want `retry.RetryOnConflict retries Status\(\).Update of d, read by Get at line 20 outside the closure`
	})
	return ctrl.Result{}, err
}

// setStatusFresh Gets into the captured object first.
func (r *Reconciler) setStatusFresh(ctx context.Context, d *appsv1.Deployment) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := r.Get(ctx, client.ObjectKeyFromObject(d), d); err != nil {
			return err
		}
		d.Status.ObservedGeneration = d.Generation
		return r.Status().Update(ctx, d)
	})
}

// lockedPatch takes its optimistic-lock base before the retry.
func (r *Reconciler) lockedPatch(ctx context.Context, d *appsv1.Deployment, replicas int32) error {
	base := d.DeepCopy()
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		d.Spec.Replicas = &replicas
		return r.Patch(ctx, d, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})) // want `retry.RetryOnConflict retries Patch with MergeFromWithOptimisticLock of base, the parameter d of Reconciler.lockedPatch outside the closure`
	})
}

// mergePatch has no lock: the patch does not conflict.
func (r *Reconciler) mergePatch(ctx context.Context, d *appsv1.Deployment, replicas int32) error {
	base := d.DeepCopy()
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		d.Spec.Replicas = &replicas
		return r.Patch(ctx, d, client.MergeFrom(base))
	})
}
