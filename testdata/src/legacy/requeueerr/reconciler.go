// Package requeueerr holds reconcilers written against controller-runtime
// v0.18, whose reconcile.Func is a func type of its own (not yet an alias
// of TypedFunc) and whose worker logs "Reconciler returned both a non-zero
// result and a non-nil error".
package requeueerr

import (
	"context"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// PodReconciler waits for its pods' node.
type PodReconciler struct {
	client.Client
}

func (r *PodReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var pod corev1.Pod
	if err := r.Get(ctx, req.NamespacedName, &pod); err != nil {
		if apierrors.IsNotFound(err) {
			return ctrl.Result{}, nil
		}
		return ctrl.Result{RequeueAfter: 10 * time.Second}, err // want `Result with RequeueAfter returned with a non-nil error`
	}
	if pod.Spec.NodeName == "" {
		return r.waitForNode(ctx, &pod)
	}
	if pod.Status.PodIP == "" {
		// The right idiom: silent.
		return ctrl.Result{RequeueAfter: 10 * time.Second}, nil
	}
	return ctrl.Result{}, nil
}

func (r *PodReconciler) waitForNode(ctx context.Context, pod *corev1.Pod) (ctrl.Result, error) {
	if pod.Spec.SchedulerName != "" {
		return ctrl.Result{Requeue: true}, fmt.Errorf("pod %s waits for scheduler %s", pod.Name, pod.Spec.SchedulerName) // want `Result with Requeue returned with a non-nil error: .* \(returned by \(\*PodReconciler\)\.Reconcile\)`
	}
	return ctrl.Result{RequeueAfter: time.Minute}, nil
}

// setup hands a function to the builder as a reconcile.Func.
func setup(mgr ctrl.Manager) error {
	return builder.ControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
		if req.Name == "" {
			return reconcile.Result{RequeueAfter: time.Minute}, reconcile.TerminalError(errors.New("unnamed")) // want `Result with RequeueAfter returned with a TerminalError`
		}
		if req.Namespace == "" {
			return reconcile.Result{}, reconcile.TerminalError(errors.New("cluster-scoped")) // silent: the right idiom
		}
		return reconcile.Result{}, nil
	}))
}
