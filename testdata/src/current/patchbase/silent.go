package patchbase

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// Correct look-alikes: none is reported.

var scheme = runtime.NewScheme()

// updateStatus takes the base from a deep copy first: typesense-operator's
// UpdateStatus (internal/controller/typesensecluster_helpers.go).
func (r *PolicyReconciler) updateStatus(ctx context.Context, policy *Policy, healthy bool) error {
	patch := client.MergeFrom(policy.DeepCopy())
	policy.Status.Healthy = healthy
	return r.Status().Patch(ctx, policy, patch)
}

// patchConditions copies the object before changing it and takes the base
// from the copy: korifi's k8s.PatchStatus (tools/k8s/status.go).
func patchConditions(ctx context.Context, c client.Client, policy *Policy, conds ...metav1.Condition) error {
	orig := policy.DeepCopy()
	for _, cond := range conds {
		meta.SetStatusCondition(&policy.Status.Conditions, cond)
	}
	return c.Status().Patch(ctx, policy, client.MergeFrom(orig))
}

// patchGeneric copies through DeepCopyObject, for any object (with the
// optimistic lock a finalizer patch needs: finalizerpatch).
func patchGeneric(ctx context.Context, c client.Client, obj client.Object) error {
	orig := obj.DeepCopyObject().(client.Object)
	controllerutil.AddFinalizer(obj, policyFinalizer)
	return c.Patch(ctx, obj, client.MergeFromWithOptions(orig, client.MergeFromWithOptimisticLock{}))
}

// storeAnnotation changes a copy and patches the copy against the original:
// kubevirt vm-import-operator's storeSourceVMStatus.
func (r *PolicyReconciler) storeAnnotation(ctx context.Context, policy *Policy, value string) error {
	changed := policy.DeepCopy()
	if changed.Annotations == nil {
		changed.Annotations = map[string]string{}
	}
	changed.Annotations["example.com/source-state"] = value
	patch := client.MergeFrom(policy)
	return r.Patch(ctx, changed, patch)
}

// touch patches without a change between base and Patch (a MergeFrom in the
// Patch call, and a named patch): nothing was meant for these patches.
func (r *PolicyReconciler) touch(ctx context.Context, policy *Policy) error {
	if err := r.Patch(ctx, policy, client.MergeFrom(policy)); err != nil {
		return err
	}
	patch := client.MergeFrom(policy)
	return r.Patch(ctx, policy, patch)
}

// relabelAll takes a fresh base in each iteration and changes the object
// only after its Patch: the next iteration's base is taken after the change.
func (r *PolicyReconciler) relabelAll(ctx context.Context, pods []corev1.Pod) error {
	for i := range pods {
		pod := &pods[i]
		patch := client.MergeFrom(pod)
		if err := r.Patch(ctx, pod, patch); err != nil {
			return err
		}
		pod.Labels = nil
	}
	return nil
}

// changeElsewhere changes the object only on a path that does not send the
// patch.
func (r *PolicyReconciler) changeElsewhere(ctx context.Context, policy *Policy, drop bool) error {
	patch := client.MergeFrom(policy)
	if drop {
		policy.Spec.Document = ""
		return r.Update(ctx, policy)
	}
	return r.Patch(ctx, policy, patch)
}

// viaOtherPackage changes the object through a function of another package:
// what it does is not known (cluster-api's conditions.Set is one). Not
// reported: a miss, documented.
func (r *PolicyReconciler) viaOtherPackage(ctx context.Context, policy *Policy) error {
	patch := client.MergeFrom(policy)
	scheme.Default(policy)
	return r.Patch(ctx, policy, patch)
}

// diffCopy computes the patch of a changed copy against the original:
// cluster-api's util/patch calculateChanges, MergeFrom(before).Data(after).
func diffCopy(policy *Policy, doc string) ([]byte, error) {
	after := policy.DeepCopy()
	after.Spec.Document = doc
	return client.MergeFrom(policy).Data(after)
}

// reassignCopy captures the variable in a closure and then points it at a
// copy, which it changes and patches against the original base.
func (r *PolicyReconciler) reassignCopy(ctx context.Context, policy *Policy) error {
	name := func() string { return policy.Name }
	patch := client.MergeFrom(policy)
	policy = policy.DeepCopy()
	policy.Spec.Document = name()
	return r.Patch(ctx, policy, patch)
}

// PushCopyReconciler is external-secrets' PushSecretReconciler as
// released: the deferred status patch has a deep-copied base.
type PushCopyReconciler struct {
	client.Client
}

func (r *PushCopyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var ps Policy
	if err := r.Get(ctx, req.NamespacedName, &ps); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	p := client.MergeFrom(ps.DeepCopy())
	defer func() {
		if err := r.Client.Status().Patch(ctx, &ps, p); err != nil {
			ctrl.LoggerFrom(ctx).Error(err, "patching status")
		}
	}()
	ps.Status.ARN = "arn:example"
	return ctrl.Result{}, nil
}

// FinalizerReconciler changes only metadata, which it sends with Update,
// while a deferred status patch has the object as its base: the status
// patch is empty, but nothing meant for it is lost.
type FinalizerReconciler struct {
	client.Client
}

func (r *FinalizerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var ps Policy
	if err := r.Get(ctx, req.NamespacedName, &ps); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	p := client.MergeFrom(&ps)
	defer func() {
		_ = r.Status().Patch(ctx, &ps, p)
	}()
	if controllerutil.AddFinalizer(&ps, policyFinalizer) {
		return ctrl.Result{}, r.Update(ctx, &ps)
	}
	return ctrl.Result{}, nil
}

// labelThenStatus sends its label change with Update; the status patch
// after it carries no change to the status.
func (r *PolicyReconciler) labelThenStatus(ctx context.Context, policy *Policy) error {
	patch := client.MergeFrom(policy)
	policy.Labels = map[string]string{"example.com/seen": "true"}
	if err := r.Update(ctx, policy); err != nil {
		return err
	}
	return r.Status().Patch(ctx, policy, patch)
}
