// Package finalizerpatch holds finalizer patches written against
// controller-runtime v0.5, whose client.MergeFrom takes a runtime.Object
// and whose MergeFromWithOptimisticLock option already exists. Shaped on
// kubermatic v2.14.0's usersshkeyssynchronizer reconcile
// (api/pkg/controller/master-controller-manager/usersshkeyssynchronizer/controller.go,
// controller-runtime v0.4), which kept its context in the reconciler.
package finalizerpatch

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

const cleanupFinalizer = "kubermatic.io/cleanup-usersshkeys-cluster-ids"

type Reconciler struct {
	ctx    context.Context
	client client.Client
}

func (r *Reconciler) reconcile(ns *corev1.Namespace) error {
	if ns.DeletionTimestamp != nil {
		oldNS := ns.DeepCopy()
		controllerutil.RemoveFinalizer(ns, cleanupFinalizer)
		if err := r.client.Patch(r.ctx, ns, client.MergeFrom(oldNS)); err != nil { // want `controllerutil.RemoveFinalizer changes ns's finalizers \(line 28\) and r.client.Patch sends them with client.MergeFrom\(oldNS\) \(line 29\)`
			return fmt.Errorf("failed removing %s finalizer: %v", cleanupFinalizer, err)
		}
		return nil
	}
	oldNS := ns.DeepCopy()
	controllerutil.AddFinalizer(ns, cleanupFinalizer)
	if err := r.client.Patch(r.ctx, ns, client.MergeFromWithOptions(oldNS, client.MergeFromWithOptimisticLock{})); err != nil {
		return fmt.Errorf("failed adding %s finalizer: %v", cleanupFinalizer, err)
	}
	return nil
}
