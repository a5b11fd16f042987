package forget

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A controller-runtime reconciler never sees the queue: the framework's
// worker forgets for it. Silent.
type Reconciler struct {
	client.Client
}

func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var obj struct{}
	_ = obj
	return ctrl.Result{}, nil
}
