package finalizer

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// Finalizers added before the deletion check. A Cluster deleted while it
// lacks the finalizer (removed on an earlier pass while another finalizer
// keeps the object, or deleted before this controller first saw it) gets
// it added back, and the API server refuses the write on every reconcile.
// cluster-api fixed this shape in all its reconcilers ("only set
// finalizers if deletionTimestamp is not set", v1.5.0): the Cluster and
// Machine reconcilers added the finalizer and returned, leaving the write
// to a deferred closure calling patchCluster/patchMachine; the
// KubeadmControlPlane reconciler patched right away.

// patchHelper stands for cluster-api's util/patch.Helper.
type patchHelper struct{ client.Client }

func (h *patchHelper) Patch(ctx context.Context, obj client.Object) error { return nil }

func patchContainer(ctx context.Context, h *patchHelper, obj *Container) error {
	return h.Patch(ctx, obj)
}

// DeferredPatchReconciler is cluster-api v1.4's Cluster reconciler.
type DeferredPatchReconciler struct {
	client.Client
}

func (r *DeferredPatchReconciler) Reconcile(ctx context.Context, req ctrl.Request) (_ ctrl.Result, reterr error) {
	obj := &Container{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	helper := &patchHelper{r.Client}
	defer func() {
		if err := patchContainer(ctx, helper, obj); err != nil && reterr == nil {
			reterr = err
		}
	}()

	// Add finalizer first if not exist to avoid the race condition between init and delete
	if !controllerutil.ContainsFinalizer(obj, containerFinalizer) {
		controllerutil.AddFinalizer(obj, containerFinalizer) // want `finalizer added to the Container before its DeletionTimestamp is checked \(line 53\): a Container being deleted that no longer has this finalizer \(another finalizer keeps it\) gets it added back, which the API server rejects, so patchContainer fails on every reconcile until the object is gone; add the finalizer only when DeletionTimestamp is zero`
		return ctrl.Result{}, nil
	}

	if !obj.ObjectMeta.DeletionTimestamp.IsZero() {
		return r.reconcileDelete(ctx, obj)
	}
	return ctrl.Result{}, nil
}

func (r *DeferredPatchReconciler) reconcileDelete(ctx context.Context, obj *Container) (ctrl.Result, error) {
	controllerutil.RemoveFinalizer(obj, containerFinalizer)
	return ctrl.Result{}, nil
}

// PatchNowReconciler is cluster-api v1.4's KubeadmControlPlane reconciler:
// it patches the finalizer at once, and checks the deletion further down.
type PatchNowReconciler struct {
	client.Client
}

func (r *PatchNowReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj := &Container{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	helper := &patchHelper{r.Client}
	if !controllerutil.ContainsFinalizer(obj, containerFinalizer) {
		controllerutil.AddFinalizer(obj, containerFinalizer) // want `finalizer added to the Container before its DeletionTimestamp is checked \(line 83\)`
		if err := helper.Patch(ctx, obj); err != nil {
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, nil
	}
	if !obj.ObjectMeta.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil
	}
	return ctrl.Result{}, nil
}

// TutorialReconciler adds the finalizer at the top of Reconcile and checks
// the deletion after it (the operator-sdk memcached tutorial's shape).
type TutorialReconciler struct {
	client.Client
}

func (r *TutorialReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj := &Container{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !controllerutil.ContainsFinalizer(obj, containerFinalizer) {
		controllerutil.AddFinalizer(obj, containerFinalizer) // want `finalizer added to the Container before its DeletionTimestamp is checked \(line 106\)`
		if err := r.Update(ctx, obj); err != nil {
			return ctrl.Result{}, err
		}
	}
	isMarked := obj.GetDeletionTimestamp() != nil
	if isMarked {
		if err := r.finalizeObject(ctx, obj); err != nil {
			return ctrl.Result{}, err
		}
		controllerutil.RemoveFinalizer(obj, containerFinalizer)
		return ctrl.Result{}, r.Update(ctx, obj)
	}
	return ctrl.Result{}, nil
}

func (r *TutorialReconciler) finalizeObject(ctx context.Context, obj *Container) error { return nil }

// DeleteFirstReconciler is the same Cluster reconciler after the fix
// (cluster-api v1.5.0): the deletion branch returns first, the add is on
// the other branch. KubeadmControlPlane's fix guards the add itself
// (DeletionTimestamp.IsZero() && !ContainsFinalizer). Silent.
type DeleteFirstReconciler struct {
	client.Client
}

func (r *DeleteFirstReconciler) Reconcile(ctx context.Context, req ctrl.Request) (_ ctrl.Result, reterr error) {
	obj := &Container{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	helper := &patchHelper{r.Client}
	defer func() {
		if err := patchContainer(ctx, helper, obj); err != nil && reterr == nil {
			reterr = err
		}
	}()
	if !obj.ObjectMeta.DeletionTimestamp.IsZero() {
		controllerutil.RemoveFinalizer(obj, containerFinalizer)
		return ctrl.Result{}, nil
	}
	if !controllerutil.ContainsFinalizer(obj, containerFinalizer) {
		controllerutil.AddFinalizer(obj, containerFinalizer)
		return ctrl.Result{}, nil
	}
	return ctrl.Result{}, nil
}

func (r *DeleteFirstReconciler) reconcileGuarded(ctx context.Context, obj *Container, helper *patchHelper) (ctrl.Result, error) {
	if obj.ObjectMeta.DeletionTimestamp.IsZero() && !controllerutil.ContainsFinalizer(obj, containerFinalizer) {
		controllerutil.AddFinalizer(obj, containerFinalizer)
		return ctrl.Result{}, helper.Patch(ctx, obj)
	}
	if !obj.ObjectMeta.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil
	}
	return ctrl.Result{}, nil
}

// NewObjectReconciler adds the finalizer to an object it builds and
// creates; the object it checks for deletion is another one. Silent.
type NewObjectReconciler struct {
	client.Client
}

func (r *NewObjectReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	parent := &Container{}
	if err := r.Get(ctx, req.NamespacedName, parent); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if parent.DeletionTimestamp != nil {
		return ctrl.Result{}, nil
	}
	child := &Container{}
	child.Name = parent.Name + "-child"
	controllerutil.AddFinalizer(child, containerFinalizer)
	return ctrl.Result{}, r.Create(ctx, child)
}
