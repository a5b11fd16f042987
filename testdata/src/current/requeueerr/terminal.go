package requeueerr

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// SecretReconciler gives up on invalid Secrets with a TerminalError.
type SecretReconciler struct {
	client.Client
}

func (r *SecretReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var s corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &s); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if s.Type == "" {
		// A terminal error is never requeued: the Result is ignored too.
		return ctrl.Result{RequeueAfter: time.Hour}, reconcile.TerminalError(fmt.Errorf("secret %s has no type", s.Name)) // want `Result with RequeueAfter returned with a TerminalError: controller-runtime ignores the Result and never requeues a terminal error, so the requested requeue never happens`
	}
	if len(s.Data) == 0 {
		return ctrl.Result{Requeue: true}, fmt.Errorf("validating %s: %w", s.Name, reconcile.TerminalError(nil)) // want `Result with Requeue returned with a TerminalError`
	}
	if s.Immutable == nil {
		// The right idiom: silent.
		return ctrl.Result{}, reconcile.TerminalError(fmt.Errorf("secret %s is mutable", s.Name))
	}
	return ctrl.Result{}, nil
}
