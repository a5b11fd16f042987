// Package requeueerr holds a reconciler written against controller-runtime
// v0.5, before v0.7 gave Reconcile a context: Reconcile(req). Its worker
// (pkg/internal/controller.reconcileHandler) rate-limits the request on an
// error and ignores the Result returned with it, as later releases do.
// Shaped on cluster-api v0.2's Machine reconciler
// (sigs.k8s.io/cluster-api@v0.2.3 controllers/machine_controller.go).
package requeueerr

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// PodReconciler waits for its pods' node.
type PodReconciler struct {
	Client client.Client
}

func (r *PodReconciler) Reconcile(req ctrl.Request) (ctrl.Result, error) {
	ctx := context.Background()
	var pod corev1.Pod
	if err := r.Client.Get(ctx, req.NamespacedName, &pod); err != nil {
		if apierrors.IsNotFound(err) {
			return ctrl.Result{}, nil
		}
		return ctrl.Result{RequeueAfter: 10 * time.Second}, err // want `Result with RequeueAfter returned with a non-nil error`
	}
	if pod.Spec.NodeName == "" {
		return ctrl.Result{Requeue: true}, fmt.Errorf("pod %s has no node yet", pod.Name) // want `Result with Requeue returned with a non-nil error`
	}
	if pod.Status.PodIP == "" {
		// The right idiom: silent.
		return ctrl.Result{RequeueAfter: 10 * time.Second}, nil
	}
	return ctrl.Result{}, nil
}
