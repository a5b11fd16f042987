package finalizer

import (
	"context"
	"fmt"
	"os"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
)

// BookReconciler is the kubebuilder book's finalizer example
// (kubernetes-sigs/kubebuilder, docs/book/src/cronjob-tutorial/testdata/finalizer_example.go):
// the finalizer is added only while DeletionTimestamp is zero, and removed
// only after the cleanup's error has returned. Silent.
type BookReconciler struct {
	client.Client
}

func (r *BookReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj := &Container{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if obj.ObjectMeta.DeletionTimestamp.IsZero() {
		if !controllerutil.ContainsFinalizer(obj, containerFinalizer) {
			controllerutil.AddFinalizer(obj, containerFinalizer)
			if err := r.Update(ctx, obj); err != nil {
				return ctrl.Result{}, err
			}
		}
	} else {
		if controllerutil.ContainsFinalizer(obj, containerFinalizer) {
			if err := r.deleteExternalResources(obj); err != nil {
				return ctrl.Result{}, err
			}
			controllerutil.RemoveFinalizer(obj, containerFinalizer)
			if err := r.Update(ctx, obj); err != nil {
				return ctrl.Result{}, err
			}
		}
		return ctrl.Result{}, nil
	}
	return ctrl.Result{}, nil
}

func (r *BookReconciler) deleteExternalResources(obj *Container) error { return nil }

// NotFoundReconciler lets only NotFound through: the child is gone
// already. client.IgnoreNotFound wraps the error, and the wrapped error
// returns. Silent.
type NotFoundReconciler struct {
	client.Client
}

func (r *NotFoundReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj := &Container{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if obj.GetDeletionTimestamp() != nil {
		dep := &appsv1.Deployment{}
		dep.Name, dep.Namespace = obj.Name, obj.Namespace
		if err := client.IgnoreNotFound(r.Delete(ctx, dep)); err != nil {
			return ctrl.Result{}, fmt.Errorf("deleting %s: %w", dep.Name, err)
		}
		controllerutil.RemoveFinalizer(obj, containerFinalizer)
		return ctrl.Result{}, r.Update(ctx, obj)
	}
	return ctrl.Result{}, nil
}

// WaitReconciler removes its finalizer only once the children are gone,
// waiting for them rather than calling a cleanup (cluster-api's
// reconcileDelete shape: list descendants, requeue while any is left).
// The status update's error is ignored, but a status update is no
// cleanup. Silent.
type WaitReconciler struct {
	client.Client
}

func (r *WaitReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj := &Container{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if obj.DeletionTimestamp == nil {
		return ctrl.Result{}, nil
	}
	obj.Status.Phase = "Deleting"
	_ = r.Status().Update(ctx, obj)
	var children appsv1.DeploymentList
	if err := r.List(ctx, &children, client.InNamespace(obj.Namespace)); err != nil {
		return ctrl.Result{}, err
	}
	if len(children.Items) > 0 {
		for i := range children.Items {
			if err := r.Delete(ctx, &children.Items[i]); client.IgnoreNotFound(err) != nil {
				return ctrl.Result{}, err
			}
		}
		return ctrl.Result{RequeueAfter: 5 * time.Second}, nil
	}
	controllerutil.RemoveFinalizer(obj, containerFinalizer)
	return ctrl.Result{}, r.Update(ctx, obj)
}

// RequeueReconciler is shaped on a GPU provisioner's handleDeletion: the
// cloud's error is only logged, but the branch requeues instead of going
// on to the removal. Silent.
type RequeueReconciler struct {
	client.Client
	IdP IdentityProvider
}

func (r *RequeueReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj := &Container{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !obj.DeletionTimestamp.IsZero() {
		log := logf.FromContext(ctx)
		if err := r.IdP.DeleteUser(ctx, obj.Status.ID); err != nil {
			log.Error(err, "failed to delete the user")
			return ctrl.Result{RequeueAfter: 30 * time.Second}, nil
		}
		controllerutil.RemoveFinalizer(obj, containerFinalizer)
		if err := r.Update(ctx, obj); err != nil {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, nil
}

// HelperReconciler's removal is written by the caller: the analysis does
// not follow it there. Its cleanup errors are collected, which is a
// decision about them. Silent.
type HelperReconciler struct {
	client.Client
	IdP IdentityProvider
}

func (r *HelperReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj := &Container{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if obj.DeletionTimestamp != nil {
		r.finish(ctx, obj)
		return ctrl.Result{}, r.Update(ctx, obj)
	}
	return ctrl.Result{}, nil
}

func (r *HelperReconciler) finish(ctx context.Context, obj *Container) {
	_ = r.IdP.DeleteUser(ctx, obj.Status.ID)
	controllerutil.RemoveFinalizer(obj, containerFinalizer)
}

func (r *HelperReconciler) collect(ctx context.Context, obj *Container) error {
	var errs []error
	if !obj.DeletionTimestamp.IsZero() {
		if err := r.IdP.DeleteUser(ctx, obj.Status.ID); err != nil {
			errs = append(errs, err)
		}
		controllerutil.RemoveFinalizer(obj, containerFinalizer)
		if err := r.Update(ctx, obj); err != nil {
			return err
		}
	}
	return fmt.Errorf("cleanup: %v", errs)
}

// ScratchReconciler ignores the errors of removing its scratch directory
// (the standard library: not what the finalizer guards) and of deleting
// the object again (its deletion is under way). Silent.
type ScratchReconciler struct {
	client.Client
	Dir string
}

func (r *ScratchReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj := &Container{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if obj.DeletionTimestamp != nil {
		_ = os.RemoveAll(r.Dir + "/" + obj.Name)
		_ = r.Delete(ctx, obj)
		controllerutil.RemoveFinalizer(obj, containerFinalizer)
		return ctrl.Result{}, r.Update(ctx, obj)
	}
	return ctrl.Result{}, nil
}

// SharedHelperReconciler calls its cleanup helper from the deletion branch
// and from a branch that is not one (a spec change that retires the
// external user): inside the helper the object is not known to be being
// deleted, so its removal is not judged there. Silent.
type SharedHelperReconciler struct {
	client.Client
	IdP IdentityProvider
}

func (r *SharedHelperReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj := &Container{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !obj.DeletionTimestamp.IsZero() {
		return r.retire(ctx, obj)
	}
	if obj.Spec.Image == "" {
		return r.retire(ctx, obj)
	}
	return ctrl.Result{}, nil
}

func (r *SharedHelperReconciler) retire(ctx context.Context, obj *Container) (ctrl.Result, error) {
	_ = r.IdP.DeleteUser(ctx, obj.Status.ID)
	controllerutil.RemoveFinalizer(obj, containerFinalizer)
	return ctrl.Result{}, r.Update(ctx, obj)
}

// ChildrenReconciler deletes its children, logging failures, and then
// lists them and requeues while any is left: the removal waits for the
// children to be gone, not for the Delete's error. Silent.
type ChildrenReconciler struct {
	client.Client
}

func (r *ChildrenReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj := &Container{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if obj.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil
	}
	log := logf.FromContext(ctx)
	dep := &appsv1.Deployment{}
	dep.Name, dep.Namespace = obj.Name, obj.Namespace
	if err := r.Delete(ctx, dep); err != nil {
		log.Error(err, "deleting the deployment")
	}
	var left appsv1.DeploymentList
	if err := r.List(ctx, &left, client.InNamespace(obj.Namespace)); err != nil {
		return ctrl.Result{}, err
	}
	if len(left.Items) > 0 {
		return ctrl.Result{RequeueAfter: time.Second}, nil
	}
	controllerutil.RemoveFinalizer(obj, containerFinalizer)
	return ctrl.Result{}, r.Update(ctx, obj)
}

// ValueHelperReconciler hands its deletion helper on as a method value, to
// be run from wherever the value goes: the helper is not known to run
// only on the deletion branch. Silent.
type ValueHelperReconciler struct {
	client.Client
	IdP   IdentityProvider
	steps []func(context.Context, *Container) (ctrl.Result, error)
}

func (r *ValueHelperReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj := &Container{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !obj.DeletionTimestamp.IsZero() {
		return r.drop(ctx, obj)
	}
	r.steps = append(r.steps, r.drop)
	return ctrl.Result{}, nil
}

func (r *ValueHelperReconciler) drop(ctx context.Context, obj *Container) (ctrl.Result, error) {
	_ = r.IdP.DeleteUser(ctx, obj.Status.ID)
	controllerutil.RemoveFinalizer(obj, containerFinalizer)
	return ctrl.Result{}, r.Update(ctx, obj)
}
