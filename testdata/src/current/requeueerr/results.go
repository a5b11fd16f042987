package requeueerr

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Result helpers in the style of many operators: each Reconcile return
// goes through one of them, with the error it is given.

func requeueWithError(err error) (ctrl.Result, error) {
	return ctrl.Result{Requeue: true}, err
}

func requeueAfter(d time.Duration, err error) (ctrl.Result, error) {
	return ctrl.Result{RequeueAfter: d}, err
}

func requeueOnError(err error) (ctrl.Result, error) {
	return ctrl.Result{}, err
}

// retryLater asks for a requeue only when there is no error.
func retryLater(err error) (ctrl.Result, error) {
	if err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{RequeueAfter: time.Minute}, err
}

// VolumeReconciler returns through the helpers.
type VolumeReconciler struct {
	client.Client
}

func (r *VolumeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var pvc corev1.PersistentVolumeClaim
	if err := r.Get(ctx, req.NamespacedName, &pvc); err != nil {
		return requeueWithError(err) // want `Result with Requeue returned with a non-nil error: .* \(requeueWithError returns it with the error passed to it\)`
	}
	if pvc.Spec.VolumeName == "" {
		return requeueAfter(30*time.Second, fmt.Errorf("claim %s is not bound", pvc.Name)) // want `Result with RequeueAfter returned with a non-nil error: .* \(requeueAfter returns it with the error passed to it\)`
	}
	// The right idioms through the same helpers: silent.
	if pvc.Status.Phase == corev1.ClaimPending {
		return requeueAfter(30*time.Second, nil)
	}
	if err := r.Update(ctx, &pvc); err != nil {
		return requeueOnError(err)
	}
	if err := r.Status().Update(ctx, &pvc); err != nil {
		return retryLater(err)
	}
	// The error may be nil: silent.
	return requeueWithError(r.Delete(ctx, &pvc))
}
