package finalizerpatch

import (
	"context"
	"fmt"
	"slices"

	ctrlruntimeclient "sigs.k8s.io/controller-runtime/pkg/client"
)

const sshKeysCleanupFinalizer = "kubermatic.k8c.io/cleanup-usersshkeys-cluster-ids"

// addFinalizer and hasFinalizer are shaped on kubermatic's pkg/kubernetes
// helpers (helper.go, v2.16.5), here in the controller's own package.
func addFinalizer(obj ctrlruntimeclient.Object, finalizers ...string) {
	for _, f := range finalizers {
		if !slices.Contains(obj.GetFinalizers(), f) {
			obj.SetFinalizers(append(obj.GetFinalizers(), f))
		}
	}
}

func hasFinalizer(obj ctrlruntimeclient.Object, finalizer string) bool {
	return slices.Contains(obj.GetFinalizers(), finalizer)
}

// syncSSHKeys is shaped on kubermatic's usersshkeyssynchronizer reconcile
// (controller.go, v2.17.0; fixed in PR 7040).
func syncSSHKeys(ctx context.Context, seedClient ctrlruntimeclient.Client, cluster *Cluster) error {
	oldCluster := cluster.DeepCopy()
	if !hasFinalizer(cluster, sshKeysCleanupFinalizer) {
		addFinalizer(cluster, sshKeysCleanupFinalizer)
		if err := seedClient.Patch(ctx, cluster, ctrlruntimeclient.MergeFrom(oldCluster)); err != nil { // want `addFinalizer changes cluster's finalizers \(line 32\) and seedClient.Patch sends them with ctrlruntimeclient.MergeFrom\(oldCluster\) \(line 33\).*use ctrlruntimeclient.MergeFromWithOptions\(oldCluster, ctrlruntimeclient.MergeFromWithOptimisticLock\{\}\)`
			return fmt.Errorf("failed adding %s finalizer: %w", sshKeysCleanupFinalizer, err)
		}
	}
	return nil
}
