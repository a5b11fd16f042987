package requeueerr

import (
	"context"
	"time"

	"github.com/pkg/errors"
	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/util/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// MachineReconciler is shaped like cluster-api's: named results, a
// deferred patch that aggregates its error into the returned one, and the
// work done in helpers whose Result and error Reconcile returns as its own.
type MachineReconciler struct {
	Client client.Client
}

func (r *MachineReconciler) Reconcile(ctx context.Context, req ctrl.Request) (_ ctrl.Result, reterr error) {
	m := &corev1.Pod{}
	if err := r.Client.Get(ctx, req.NamespacedName, m); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		if err := r.patch(ctx, m); err != nil {
			reterr = kerrors.NewAggregate([]error{reterr, err})
		}
	}()
	if m.Spec.NodeName == "" {
		return ctrl.Result{RequeueAfter: 20 * time.Second}, errors.New("waiting for a node") // want `Result with RequeueAfter returned with a non-nil error`
	}
	if !m.DeletionTimestamp.IsZero() {
		return r.reconcileDelete(ctx, m)
	}
	res, err := r.reconcileNormal(ctx, m)
	if err != nil {
		return res, errors.Wrap(err, "reconciling machine")
	}
	// The phases' Results are merged and their errors aggregated: neither
	// the phases nor this return are followed or proven.
	return r.reconcilePhases(ctx, m)
}

func (r *MachineReconciler) patch(ctx context.Context, m *corev1.Pod) error {
	return r.Client.Update(ctx, m)
}

func (r *MachineReconciler) reconcileNormal(ctx context.Context, m *corev1.Pod) (ctrl.Result, error) {
	if err := r.patch(ctx, m); err != nil {
		return ctrl.Result{RequeueAfter: 20 * time.Second}, errors.Wrapf(err, "failed to patch %s", m.Name) // want `Result with RequeueAfter returned with a non-nil error: .* \(returned by \(\*MachineReconciler\)\.Reconcile\)`
	}
	if m.Status.PodIP == "" {
		// Waiting is not an error: silent.
		return ctrl.Result{RequeueAfter: 20 * time.Second}, nil
	}
	return ctrl.Result{}, nil
}

func (r *MachineReconciler) reconcileDelete(ctx context.Context, m *corev1.Pod) (ctrl.Result, error) {
	res, err := r.reconcileExternal(ctx, m)
	if err != nil || !res.IsZero() {
		return res, err
	}
	return ctrl.Result{}, r.Client.Delete(ctx, m)
}

func (r *MachineReconciler) reconcileExternal(ctx context.Context, m *corev1.Pod) (ctrl.Result, error) {
	if m.Spec.Hostname != "" {
		return ctrl.Result{Requeue: true}, errors.Errorf("external object %s still exists", m.Spec.Hostname) // want `Result with Requeue returned with a non-nil error: .* \(returned by \(\*MachineReconciler\)\.Reconcile via \(\*MachineReconciler\)\.reconcileDelete\)`
	}
	return ctrl.Result{}, nil
}

func (r *MachineReconciler) reconcilePhases(ctx context.Context, m *corev1.Pod) (ctrl.Result, error) {
	phases := []func(context.Context, *corev1.Pod) (ctrl.Result, error){r.reconcileBootstrap, r.reconcileInfrastructure}
	res := ctrl.Result{}
	errs := []error{}
	for _, phase := range phases {
		phaseResult, err := phase(ctx, m)
		if err != nil {
			errs = append(errs, err)
		}
		if len(errs) > 0 {
			continue
		}
		if phaseResult.RequeueAfter > 0 && (res.RequeueAfter == 0 || phaseResult.RequeueAfter < res.RequeueAfter) {
			res = phaseResult
		}
	}
	return res, kerrors.NewAggregate(errs)
}

func (r *MachineReconciler) reconcileBootstrap(ctx context.Context, m *corev1.Pod) (ctrl.Result, error) {
	if m.Spec.ServiceAccountName == "" {
		// A phase called through a func value: not followed.
		return ctrl.Result{RequeueAfter: time.Minute}, errors.New("no bootstrap data")
	}
	return ctrl.Result{}, nil
}

func (r *MachineReconciler) reconcileInfrastructure(ctx context.Context, m *corev1.Pod) (ctrl.Result, error) {
	return ctrl.Result{}, nil
}

// ClusterReconciler's defer may clear the error: nothing is proven.
type ClusterReconciler struct {
	Client client.Client
}

func (r *ClusterReconciler) Reconcile(ctx context.Context, req ctrl.Request) (res ctrl.Result, reterr error) {
	defer func() {
		if errors.Is(reterr, errNotReady) {
			reterr = nil // the Result is honoured after all
		}
	}()
	if req.Name == "" {
		return ctrl.Result{RequeueAfter: time.Minute}, errNotReady
	}
	defer func() {
		res = ctrl.Result{}
	}()
	return ctrl.Result{RequeueAfter: time.Minute}, errors.New("failed")
}

// ServiceReconciler logs a helper's error and replaces its Result: the
// helper's Result never reaches the framework with an error. Silent.
type ServiceReconciler struct {
	Client client.Client
}

func (r *ServiceReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	res, err := r.ensure(ctx, req)
	if err != nil {
		return ctrl.Result{RequeueAfter: time.Minute}, nil
	}
	return res, nil
}

func (r *ServiceReconciler) ensure(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return ctrl.Result{RequeueAfter: time.Minute}, errors.New("not yet")
}

// NodeReconciler's defer may clear the error its helper returns: the
// helper's Result may be honoured. Silent.
type NodeReconciler struct {
	Client client.Client
}

func (r *NodeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (_ ctrl.Result, reterr error) {
	defer func() {
		if errors.Is(reterr, errNotReady) {
			reterr = nil
		}
	}()
	return r.waitForNode(ctx, req)
}

func (r *NodeReconciler) waitForNode(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return ctrl.Result{RequeueAfter: time.Minute}, errNotReady
}
