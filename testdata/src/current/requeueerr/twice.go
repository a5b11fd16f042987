package requeueerr

import (
	"context"
	"errors"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"
)

// FirstReconciler and SecondReconciler return different Results of one
// helper with its error: the helper is visited once for each, and its
// return is reported once.
type FirstReconciler struct{}

func (FirstReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	first, _, err := bothResults()
	return first, err
}

type SecondReconciler struct{}

func (SecondReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	_, second, err := bothResults()
	return second, err
}

func bothResults() (ctrl.Result, ctrl.Result, error) {
	return ctrl.Result{RequeueAfter: time.Second}, ctrl.Result{RequeueAfter: time.Second}, errors.New("not yet") // want `Result with RequeueAfter returned with a non-nil error`
}
