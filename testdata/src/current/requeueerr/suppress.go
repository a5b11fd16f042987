package requeueerr

import (
	"context"
	"errors"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"
)

// LegacyReconciler keeps a requeue for an old controller-runtime fork that
// honoured it with an error, and says so.
type LegacyReconciler struct{}

func (LegacyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	if req.Name == "" {
		return ctrl.Result{RequeueAfter: time.Minute}, errors.New("unnamed") //ctrllint:ignore requeueerr the fork this runs on honours RequeueAfter with an error
	}
	return ctrl.Result{}, nil
}
