// Package requeueerr holds controller-runtime reconcilers that return a
// Result asking for a requeue together with an error, and the idioms that
// do not.
package requeueerr

import (
	"context"
	"errors"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

const pollInterval = 30 * time.Second

var (
	errNotReady = errors.New("dependencies are not ready")
	// requeueSoon is the package's "come back later" Result.
	requeueSoon = ctrl.Result{RequeueAfter: 5 * time.Second}
)

// DeploymentReconciler waits for an external bucket before it scales.
type DeploymentReconciler struct {
	client.Client
	RetryInterval time.Duration
}

func (r *DeploymentReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&appsv1.Deployment{}).Complete(r)
}

func (r *DeploymentReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var d appsv1.Deployment
	if err := r.Get(ctx, req.NamespacedName, &d); err != nil {
		if apierrors.IsNotFound(err) {
			return ctrl.Result{RequeueAfter: 10 * time.Second}, err // want `Result with RequeueAfter returned with a non-nil error: controller-runtime ignores the Result when the error is non-nil and requeues with rate-limited backoff instead, so the requested delay never happens`
		}
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if d.Spec.Replicas == nil {
		return ctrl.Result{RequeueAfter: pollInterval}, fmt.Errorf("deployment %s has no replicas yet", req.Name) // want `Result with RequeueAfter returned with a non-nil error`
	}
	if err := r.ensureBucket(ctx, &d); err != nil {
		return ctrl.Result{RequeueAfter: time.Minute}, err // want `Result with RequeueAfter returned with a non-nil error`
	}
	if err := r.ensureBucket(ctx, &d); err != nil {
		return ctrl.Result{RequeueAfter: r.RetryInterval}, err // want `Result with RequeueAfter returned with a non-nil error`
	}
	if d.Status.ReadyReplicas == 0 {
		return requeueSoon, errNotReady // want `Result with RequeueAfter returned with a non-nil error`
	}
	if d.Status.ObservedGeneration == 0 {
		return requeueLater(), fmt.Errorf("deployment %s not observed yet", req.Name) // want `Result with RequeueAfter returned with a non-nil error`
	}
	if d.Status.CollisionCount != nil {
		// The helper asks for a requeue on one path only: silent.
		return maybeRequeue(*d.Status.CollisionCount), fmt.Errorf("deployment %s has hash collisions", req.Name)
	}
	if d.Status.UpdatedReplicas == 0 {
		return ctrl.Result{Requeue: true}, errors.New("rollout has not started") // want `Result with Requeue returned with a non-nil error: controller-runtime ignores the Result when the error is non-nil and logs a warning on every such reconcile; the error alone already requeues`
	}
	result := ctrl.Result{}
	result.RequeueAfter = pollInterval
	if err := r.ensureBucket(ctx, &d); err != nil {
		return result, fmt.Errorf("ensuring bucket: %w", err) // want `Result with RequeueAfter returned with a non-nil error`
	}

	// The right idioms: silent.
	if err := r.ensureBucket(ctx, &d); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.ensureBucket(ctx, &d); err != nil {
		log.FromContext(ctx).Error(err, "ensuring bucket; retrying in a minute")
		return ctrl.Result{RequeueAfter: time.Minute}, nil
	}
	if d.Status.AvailableReplicas == 0 {
		return ctrl.Result{RequeueAfter: pollInterval}, nil
	}
	return ctrl.Result{}, nil
}

// requeueLater is the package's "come back later" Result, made by a function.
func requeueLater() ctrl.Result {
	return ctrl.Result{RequeueAfter: time.Minute}
}

func maybeRequeue(collisions int32) ctrl.Result {
	if collisions > 3 {
		return ctrl.Result{}
	}
	return ctrl.Result{RequeueAfter: time.Minute}
}

func (r *DeploymentReconciler) ensureBucket(ctx context.Context, d *appsv1.Deployment) error {
	if d.Annotations["bucket"] == "" {
		return errors.New("no bucket")
	}
	return nil
}

// ConfigMapReconciler's errors may be nil where it returns them with a
// requeue: nothing proves them non-nil, so it stays silent.
type ConfigMapReconciler struct {
	client.Client
}

func (r *ConfigMapReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		// IgnoreNotFound is nil for a missing object: then the requeue is honoured.
		return ctrl.Result{RequeueAfter: time.Minute}, client.IgnoreNotFound(err)
	}
	if cm.Data == nil {
		// The helper's error may well be nil.
		return ctrl.Result{RequeueAfter: pollInterval}, r.sync(ctx, &cm)
	}
	err := r.sync(ctx, &cm)
	if err == nil {
		return ctrl.Result{RequeueAfter: pollInterval}, nil
	}
	res := ctrl.Result{}
	if cm.Labels["poll"] != "" {
		res.RequeueAfter = pollInterval // on one path only
	}
	if err != nil {
		return res, err
	}
	return ctrl.Result{Requeue: false, RequeueAfter: 0}, err
}

func (r *ConfigMapReconciler) sync(ctx context.Context, cm *corev1.ConfigMap) error {
	return r.Update(ctx, cm)
}

// notReconcile has Reconcile's results but is not a Reconcile, and no
// Reconcile returns what it returns: silent.
func notReconcile() (ctrl.Result, error) {
	return ctrl.Result{RequeueAfter: time.Second}, errors.New("not a reconciler")
}

var _ = notReconcile

// IngressReconciler's requeue comes from the same call as the error: on
// the error path it is typically zero or false. Silent.
type IngressReconciler struct {
	client.Client
}

func (r *IngressReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	after, err := r.nextCheck(ctx, req)
	if err != nil {
		return ctrl.Result{RequeueAfter: after}, err
	}
	res, err := r.check(ctx, req)
	if err != nil {
		// The helper's Result is typically empty when it fails: silent.
		return ctrl.Result{RequeueAfter: res.RequeueAfter}, err
	}
	requeue, err := r.pending(ctx, req)
	if err != nil {
		return ctrl.Result{Requeue: requeue}, fmt.Errorf("checking %s: %w", req.Name, err)
	}
	return ctrl.Result{RequeueAfter: after}, nil
}

func (r *IngressReconciler) nextCheck(ctx context.Context, req ctrl.Request) (time.Duration, error) {
	if req.Name == "" {
		return 0, errors.New("unnamed")
	}
	return time.Minute, nil
}

func (r *IngressReconciler) pending(ctx context.Context, req ctrl.Request) (bool, error) {
	if req.Namespace == "" {
		return false, errors.New("no namespace")
	}
	return true, nil
}

func (r *IngressReconciler) check(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	if req.Name == "" {
		return ctrl.Result{}, errors.New("unnamed")
	}
	return ctrl.Result{RequeueAfter: time.Minute}, nil
}

// JobReconciler's error is assigned on two branches and checked after
// they meet.
type JobReconciler struct {
	client.Client
}

func (r *JobReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	var err error
	if req.Namespace == "" {
		err = r.Get(ctx, req.NamespacedName, &cm)
	} else {
		err = r.Get(ctx, client.ObjectKey{Namespace: "default", Name: req.Name}, &cm)
	}
	if err != nil {
		return ctrl.Result{RequeueAfter: pollInterval}, err // want `Result with RequeueAfter returned with a non-nil error`
	}
	return ctrl.Result{}, nil
}

// MachinePoolReconciler's deferred status update reads err, so err lives
// in memory rather than in SSA registers.
type MachinePoolReconciler struct {
	client.Client
}

func (r *MachinePoolReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	err := r.Get(ctx, req.NamespacedName, &cm)
	if err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		r.recordStatus(&cm, err)
	}()
	owner, err := r.owner(ctx, &cm)
	if err != nil {
		return ctrl.Result{Requeue: true}, err // want `Result with Requeue returned with a non-nil error`
	}
	if owner == "" {
		err = errors.New("no owner")
	}
	// err is nil on one path and set on the other: silent.
	return ctrl.Result{RequeueAfter: pollInterval}, err
}

func (r *MachinePoolReconciler) owner(ctx context.Context, cm *corev1.ConfigMap) (string, error) {
	if len(cm.OwnerReferences) == 0 {
		return "", errors.New("no owner references")
	}
	return cm.OwnerReferences[0].Name, nil
}

func (r *MachinePoolReconciler) recordStatus(cm *corev1.ConfigMap, err error) {}
