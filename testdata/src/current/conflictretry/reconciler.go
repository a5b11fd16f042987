package conflictretry

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
}

// Reconcile sets a condition and retries the status write on the object
// read at the top of Reconcile: the shape DataDog/datadog-operator's PR
// 3283 and noctaya's issue 35 replaced with a Get in the closure.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var d appsv1.Deployment
	if err := r.Get(ctx, req.NamespacedName, &d); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		d.Status.ObservedGeneration = d.Generation
		return r.Status().Update(ctx, &d) // want `retry.RetryOnConflict retries Status\(\).Update of d, read by Get at line 23 outside the closure`
	})
	return ctrl.Result{}, err
}

// markReady reads into a pointer before the retry and retries Update: the
// shape of rabbitmq/messaging-topology-operator's reconcilers
// (controllers/binding_controller.go, Reconcile: r.Get into binding, then
// RetryOnConflict around r.Status().Update(ctx, binding)).
func (r *Reconciler) markReady(ctx context.Context, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, key, cm); err != nil {
		return err
	}
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if cm.Labels == nil {
			cm.Labels = map[string]string{}
		}
		cm.Labels["ready"] = "true"
		return r.Update(ctx, cm) // want `retry.RetryOnConflict retries Update of cm, read by Get at line 39 outside the closure`
	})
}

// markReadyFresh Gets into the captured object first: every attempt sends
// the latest resourceVersion.
func (r *Reconciler) markReadyFresh(ctx context.Context, cm *corev1.ConfigMap) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := r.Get(ctx, client.ObjectKeyFromObject(cm), cm); err != nil {
			return err
		}
		if cm.Labels == nil {
			cm.Labels = map[string]string{}
		}
		cm.Labels["ready"] = "true"
		return r.Update(ctx, cm)
	})
}

// setStatusLatest is datadog-operator's fix (PR 3283): a new object read
// inside the closure, the desired status copied onto it.
func (r *Reconciler) setStatusLatest(ctx context.Context, d *appsv1.Deployment, status appsv1.DeploymentStatus) error {
	key := client.ObjectKeyFromObject(d)
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		latest := &appsv1.Deployment{}
		if err := r.Get(ctx, key, latest); err != nil {
			return err
		}
		latest.Status = status
		return r.Status().Update(ctx, latest)
	})
}

// lockedPatch patches with an optimistic lock from a base taken before
// the retry: the patch carries the same resourceVersion every time.
func (r *Reconciler) lockedPatch(ctx context.Context, d *appsv1.Deployment, replicas int32) error {
	base := d.DeepCopy()
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		d.Spec.Replicas = &replicas
		return r.Patch(ctx, d, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})) // want `retry.RetryOnConflict retries Patch with MergeFromWithOptimisticLock of base, the parameter d of Reconciler.lockedPatch outside the closure`
	})
}

// mergePatch patches without a lock: no resourceVersion is sent, so no
// conflict happens.
func (r *Reconciler) mergePatch(ctx context.Context, d *appsv1.Deployment, replicas int32) error {
	base := d.DeepCopy()
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		d.Spec.Replicas = &replicas
		return r.Patch(ctx, d, client.MergeFrom(base))
	})
}

// lockedPatchFresh reads, then takes its base inside the closure.
func (r *Reconciler) lockedPatchFresh(ctx context.Context, d *appsv1.Deployment, replicas int32) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := r.Get(ctx, client.ObjectKeyFromObject(d), d); err != nil {
			return err
		}
		base := d.DeepCopy()
		d.Spec.Replicas = &replicas
		return r.Patch(ctx, d, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
	})
}

// refresh is a helper that reads into the object it is given.
func (r *Reconciler) refresh(ctx context.Context, obj client.Object) error {
	return r.Get(ctx, client.ObjectKeyFromObject(obj), obj)
}

// annotateViaHelper re-reads through a helper of the package: silent.
func (r *Reconciler) annotateViaHelper(ctx context.Context, d *appsv1.Deployment) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := r.refresh(ctx, d); err != nil {
			return err
		}
		metav1.SetMetaDataAnnotation(&d.ObjectMeta, "seen", "true")
		return r.Update(ctx, d)
	})
}
