package finalizer

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// FallthroughReconciler's deletion branch returns only while its finalizer
// is present; once it is gone (removed on an earlier pass while another
// finalizer, such as foregroundDeletion, keeps the object) the branch falls
// through to the code that adds it back, and the API server refuses: "no
// new finalizers can be added if the object is being deleted" (the error
// of numaproj/numaplane issue 725; the reordering of fluxcd's "Handle
// delete before adding finalizer" pull requests).
type FallthroughReconciler struct {
	client.Client
}

func (r *FallthroughReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj := &Container{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if obj.DeletionTimestamp != nil {
		if controllerutil.ContainsFinalizer(obj, containerFinalizer) {
			if err := r.cleanup(ctx, obj); err != nil {
				return ctrl.Result{}, err
			}
			controllerutil.RemoveFinalizer(obj, containerFinalizer)
			return ctrl.Result{}, r.Update(ctx, obj)
		}
	}
	if !controllerutil.ContainsFinalizer(obj, containerFinalizer) {
		controllerutil.AddFinalizer(obj, containerFinalizer) // want `finalizer added to the Container on a path where it is being deleted \(DeletionTimestamp checked at line 27\): the API server rejects new finalizers on an object being deleted, so Update fails every time; add the finalizer only when DeletionTimestamp is zero`
		if err := r.Update(ctx, obj); err != nil {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, nil
}

func (r *FallthroughReconciler) cleanup(ctx context.Context, obj *Container) error { return nil }

// AppendReconciler appends its finalizer by hand and patches (locked, as
// finalizerpatch asks), after a deletion branch that only logs.
type AppendReconciler struct {
	client.Client
}

func (r *AppendReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj := &Container{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	deleting := !obj.GetDeletionTimestamp().IsZero()
	if deleting {
		obj.Status.Phase = "Terminating"
	}
	if !controllerutil.ContainsFinalizer(obj, containerFinalizer) {
		base := obj.DeepCopyObject().(client.Object)
		obj.SetFinalizers(append(obj.GetFinalizers(), containerFinalizer)) // want `finalizer added to the Container on a path where it is being deleted \(DeletionTimestamp checked at line 58\)`
		return ctrl.Result{}, r.Patch(ctx, obj, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
	}
	return ctrl.Result{}, nil
}

// GuardedReconciler adds only in the branch where DeletionTimestamp is
// zero, and a loop re-reads each object: the next object of the loop is
// not the one found deleted. Silent.
type GuardedReconciler struct {
	client.Client
}

func (r *GuardedReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var list ContainerList
	if err := r.List(ctx, &list); err != nil {
		return ctrl.Result{}, err
	}
	for i := range list.Items {
		obj := &list.Items[i]
		if !obj.DeletionTimestamp.IsZero() {
			continue
		}
		if controllerutil.AddFinalizer(obj, containerFinalizer) {
			if err := r.Update(ctx, obj); err != nil {
				return ctrl.Result{}, err
			}
		}
	}
	return ctrl.Result{}, nil
}

// PresentReconciler lets a deleted object through to the add only while
// its finalizer is still there, where AddFinalizer changes nothing and
// the write is accepted; a recheck of the deletion further down goes on
// only where the object is being deleted. Silent.
type PresentReconciler struct {
	client.Client
}

func (r *PresentReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj := &Container{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !obj.DeletionTimestamp.IsZero() && !controllerutil.ContainsFinalizer(obj, containerFinalizer) {
		return ctrl.Result{}, nil // nothing of ours left to do
	}
	if controllerutil.AddFinalizer(obj, containerFinalizer) {
		return ctrl.Result{}, r.Update(ctx, obj)
	}
	return ctrl.Result{}, nil
}

func (r *PresentReconciler) recheck(ctx context.Context, obj *Container) error {
	if obj.GetDeletionTimestamp() != nil {
		obj.Status.Phase = "Terminating"
	}
	if obj.GetDeletionTimestamp() != nil {
		return nil
	}
	controllerutil.AddFinalizer(obj, containerFinalizer)
	return r.Update(ctx, obj)
}
