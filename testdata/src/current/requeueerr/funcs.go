package requeueerr

import (
	"context"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Reconcilers as functions: reconcile.Func and TypedFunc literals handed
// to a builder or a controller, a method value, a package-level Func.

func setupFuncs(mgr ctrl.Manager, c client.Client) error {
	err := builder.ControllerManagedBy(mgr).For(&corev1.Secret{}).Complete(reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
		var s corev1.Secret
		if err := c.Get(ctx, req.NamespacedName, &s); err != nil {
			return reconcile.Result{RequeueAfter: time.Minute}, fmt.Errorf("reading secret: %w", err) // want `Result with RequeueAfter returned with a non-nil error`
		}
		return reconcile.Result{}, nil
	}))
	if err != nil {
		return err
	}
	p := &poller{client: c}
	_, err = controller.New("poller", mgr, controller.Options{Reconciler: reconcile.Func(p.poll)})
	if err != nil {
		return err
	}
	_, err = controller.NewTyped("typed", mgr, controller.TypedOptions[nodeRequest]{
		Reconciler: reconcile.TypedFunc[nodeRequest](func(ctx context.Context, req nodeRequest) (reconcile.Result, error) {
			if req.node == "" {
				return reconcile.Result{Requeue: true}, errors.New("no node") // want `Result with Requeue returned with a non-nil error`
			}
			return reconcile.Result{}, nil
		}),
	})
	return err
}

type nodeRequest struct{ node string }

type poller struct{ client client.Client }

func (p *poller) poll(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var pod corev1.Pod
	if err := p.client.Get(ctx, req.NamespacedName, &pod); err != nil {
		return reconcile.Result{RequeueAfter: pollInterval}, err // want `Result with RequeueAfter returned with a non-nil error`
	}
	return reconcile.Result{RequeueAfter: pollInterval}, nil
}

// packageFunc is a reconcile.Func in a package-level variable.
var packageFunc = reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	if req.Namespace == "" {
		return reconcile.Result{RequeueAfter: time.Second}, errors.New("cluster-scoped requests are not served") // want `Result with RequeueAfter returned with a non-nil error`
	}
	return reconcile.Result{}, nil
})

// PodReconciler is an ObjectReconciler: controller-runtime reads the
// object before calling it (reconcile.AsReconciler).
type PodReconciler struct{}

func (PodReconciler) Reconcile(ctx context.Context, pod *corev1.Pod) (reconcile.Result, error) {
	if pod.Spec.NodeName == "" {
		return reconcile.Result{RequeueAfter: 15 * time.Second}, fmt.Errorf("pod %s is not scheduled", pod.Name) // want `Result with RequeueAfter returned with a non-nil error`
	}
	return reconcile.Result{}, nil
}

func setupObjectReconciler(mgr ctrl.Manager) error {
	return builder.ControllerManagedBy(mgr).For(&corev1.Pod{}).Complete(reconcile.AsReconciler[*corev1.Pod](mgr.GetClient(), PodReconciler{}))
}

// A function literal with Reconcile's results that is never made a
// reconciler: silent.
var notAReconciler = func(ctx context.Context) (reconcile.Result, error) {
	return reconcile.Result{RequeueAfter: time.Second}, errors.New("not a reconciler")
}
