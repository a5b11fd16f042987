package finalizerpatch

import (
	"context"
	"fmt"
	"reflect"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	ctrlruntimeclient "sigs.k8s.io/controller-runtime/pkg/client"

	"example.com/current/finalizerpatch/kubeutil"
)

const (
	sshKeysCleanupFinalizer    = "kubermatic.k8c.io/cleanup-usersshkeys-cluster-ids"
	nodeDeletionFinalizer      = "kubermatic.k8c.io/delete-nodes"
	constraintCleanupFinalizer = "kubermatic.k8c.io/cleanup-constraints"
	backupCleanupFinalizer     = "kubermatic.k8c.io/cleanup-backups"
	cloudCleanupFinalizer      = "kubermatic.k8c.io/cleanup-cloud"
)

// ClusterReconciler is a seed controller of the Cluster resource, whose
// finalizers several controllers add concurrently.
type ClusterReconciler struct {
	ctrlruntimeclient.Client
}

// syncSSHKeys adds its cleanup finalizer with a helper of another package
// of the module (its fact says it changes the finalizers). Shaped on
// kubermatic's usersshkeyssynchronizer reconcile (controller.go, v2.17.0),
// fixed in PR 7040 with the optimistic lock.
func (r *ClusterReconciler) syncSSHKeys(ctx context.Context, seedClient ctrlruntimeclient.Client, cluster *Cluster) error {
	oldCluster := cluster.DeepCopy()
	if !kubeutil.HasFinalizer(cluster, sshKeysCleanupFinalizer) {
		kubeutil.AddFinalizer(cluster, sshKeysCleanupFinalizer)
		if err := seedClient.Patch(ctx, cluster, ctrlruntimeclient.MergeFrom(oldCluster)); err != nil { // want `kubeutil.AddFinalizer changes cluster's finalizers \(line 36\) and seedClient.Patch sends them with ctrlruntimeclient.MergeFrom\(oldCluster\) \(line 37\).*use ctrlruntimeclient.MergeFromWithOptions\(oldCluster, ctrlruntimeclient.MergeFromWithOptimisticLock\{\}\)`
			return fmt.Errorf("failed adding %s finalizer: %w", sshKeysCleanupFinalizer, err)
		}
	}
	return nil
}

// updateCluster copies the cluster, lets modify change it and patches the
// difference. Shaped on kubermatic's Reconciler.updateCluster
// (seed-controller-manager/kubernetes/cluster_controller.go, v2.16.5) and
// its callers in pending.go, which add finalizers in the modify they pass
// (issue 6759: the OpenStack provider's finalizers were dropped; fixed in
// PR 6990).
func (r *ClusterReconciler) updateCluster(ctx context.Context, cluster *Cluster, modify func(*Cluster)) error {
	oldCluster := cluster.DeepCopy()
	modify(cluster)
	if reflect.DeepEqual(oldCluster, cluster) {
		return nil
	}
	return r.Patch(ctx, cluster, ctrlruntimeclient.MergeFrom(oldCluster)) // want `modify \(the func literal passed at line 73 calls kubeutil.AddFinalizer\) changes cluster's finalizers \(line 52\) and r.Patch sends them with ctrlruntimeclient.MergeFrom\(oldCluster\) \(line 56\)`
}

func (r *ClusterReconciler) reconcilePending(ctx context.Context, cluster *Cluster, reachable bool) error {
	if cluster.Spec.Provider == "" {
		err := r.updateCluster(ctx, cluster, func(c *Cluster) {
			c.Spec.Provider = "openstack"
		})
		if err != nil {
			return err
		}
	}
	if !reachable {
		return nil
	}
	// Only once the cluster runs can its nodes be deleted.
	if !kubeutil.HasFinalizer(cluster, nodeDeletionFinalizer) {
		err := r.updateCluster(ctx, cluster, func(c *Cluster) {
			kubeutil.AddFinalizer(c, nodeDeletionFinalizer)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// clusterUpdater is the fixed cloud controller's: the lock is an option
// added when the finalizers changed, in a slice spread at the call, which
// the analyzer does not read. Shaped on kubermatic's
// seed-controller-manager/cloud/cloud_controller.go after PR 10536.
func (r *ClusterReconciler) clusterUpdater(ctx context.Context, name string, modify func(*Cluster)) (*Cluster, error) {
	cluster := &Cluster{}
	if err := r.Get(ctx, types.NamespacedName{Name: name}, cluster); err != nil {
		return nil, err
	}
	oldCluster := cluster.DeepCopy()
	modify(cluster)
	var opts []ctrlruntimeclient.MergeFromOption
	if !reflect.DeepEqual(oldCluster.Finalizers, cluster.Finalizers) {
		opts = append(opts, ctrlruntimeclient.MergeFromWithOptimisticLock{})
	}
	if err := r.Patch(ctx, cluster, ctrlruntimeclient.MergeFromWithOptions(oldCluster, opts...)); err != nil {
		return nil, err
	}
	return cluster, nil
}

func (r *ClusterReconciler) initializeCloudProvider(ctx context.Context, cluster *Cluster) error {
	_, err := r.clusterUpdater(ctx, cluster.Name, func(c *Cluster) {
		kubeutil.AddFinalizer(c, cloudCleanupFinalizer)
	})
	return err
}

// tryRemoveFinalizer reads the object afresh and retries on conflicts,
// but its patch has no lock, so there never is one: the removal can bring
// back nothing, but it drops a finalizer added in between. Shaped on
// kubermatic's kubernetes.TryRemoveFinalizer (pkg/kubernetes/helper.go,
// v2.21), without the lock it has there.
func tryRemoveFinalizer(ctx context.Context, c ctrlruntimeclient.Client, obj ctrlruntimeclient.Object, finalizer string) error {
	key := ctrlruntimeclient.ObjectKeyFromObject(obj)
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := c.Get(ctx, key, obj); err != nil {
			return err
		}
		original := obj.DeepCopyObject().(ctrlruntimeclient.Object)
		kubeutil.RemoveFinalizer(obj, finalizer)
		if reflect.DeepEqual(original.GetFinalizers(), obj.GetFinalizers()) {
			return nil
		}
		return c.Patch(ctx, obj, ctrlruntimeclient.MergeFrom(original)) // want `kubeutil.RemoveFinalizer changes obj's finalizers \(line 123\) and c.Patch sends them`
	})
}

// tryAddFinalizer is the same with the lock: a conflict is retried
// with the object read again (kubermatic's TryAddFinalizer, v2.21).
func tryAddFinalizer(ctx context.Context, c ctrlruntimeclient.Client, obj ctrlruntimeclient.Object, finalizer string) error {
	key := ctrlruntimeclient.ObjectKeyFromObject(obj)
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := c.Get(ctx, key, obj); err != nil {
			return err
		}
		if obj.GetDeletionTimestamp() != nil {
			return nil
		}
		original := obj.DeepCopyObject().(ctrlruntimeclient.Object)
		kubeutil.AddFinalizer(obj, finalizer)
		return c.Patch(ctx, obj, ctrlruntimeclient.MergeFromWithOptions(original, ctrlruntimeclient.MergeFromWithOptimisticLock{}))
	})
}

// addBackupFinalizer patches a changed copy against the original: the
// object patched is the DeepCopy. Shaped on kubermatic's backup
// controller (seed-controller-manager/backup/backup_controller.go, v2.17.0,
// fixed in PR 7040) with kubernetes-csi/external-attacher's clone style
// (csi_handler.go addPVFinalizer before PR 707).
func (r *ClusterReconciler) addBackupFinalizer(ctx context.Context, cluster *Cluster) error {
	if kubeutil.HasFinalizer(cluster, backupCleanupFinalizer) {
		return nil
	}
	clone := cluster.DeepCopy()
	clone.Finalizers = append(clone.Finalizers, backupCleanupFinalizer)
	return r.Patch(ctx, clone, ctrlruntimeclient.MergeFrom(cluster)) // want `clone.Finalizers = ... changes clone's finalizers \(line 158\) and r.Patch sends them with ctrlruntimeclient.MergeFrom\(cluster\) \(line 159\); .* added after cluster was read is dropped`
}

func (r *ClusterReconciler) addConstraintFinalizer(ctx context.Context, cluster *Cluster) error {
	return r.updateCluster(ctx, cluster, addConstraintCleanup)
}

// addConstraintCleanup is handed to updateCluster by name.
func addConstraintCleanup(c *Cluster) {
	kubeutil.AddFinalizer(c, constraintCleanupFinalizer)
}
