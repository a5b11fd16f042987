package finalizer

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// BestEffortReconciler gives up on its external container on purpose, as
// vault-access-operator's reconcileDelete does, and says why in a
// directive.
type BestEffortReconciler struct {
	ContainerReconciler
}

func (r *BestEffortReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	c := &Container{}
	if err := r.Get(ctx, req.NamespacedName, c); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if c.DeletionTimestamp != nil {
		cli, err := newDocker(ctx, c.Spec.Host)
		if err == nil {
			_ = r.deleteExternalResources(ctx, cli, c)
		}
		controllerutil.RemoveFinalizer(c, containerFinalizer) //ctrllint:ignore finalizer the host's garbage collector removes containers whose owner is gone
		return ctrl.Result{}, r.Update(ctx, c)
	}
	return ctrl.Result{}, nil
}
