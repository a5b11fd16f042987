package statusupdate

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// ReconcileCompact sets the status and sends it on one line, as a short
// reconciler does: the fix rewrites the send within the line.
func (r *AppReconciler) ReconcileCompact(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var app App
	if err := r.Get(ctx, req.NamespacedName, &app); err != nil { return ctrl.Result{}, client.IgnoreNotFound(err) }
	app.Status.ObservedGeneration = app.Generation; return ctrl.Result{}, r.Update(ctx, &app) // want `App status set at line 15 is sent only with Update`
}
