package finalizerpatch

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// The correct idioms and the cases left out, none reported.

// withLock is MaintainInstallationFinalizer as fixed in tigera/operator
// PR 4492: a concurrent change makes the patch fail with a Conflict.
func withLock(ctx context.Context, c client.Client, installation *Installation) error {
	patchFrom := client.MergeFromWithOptions(installation.DeepCopy(), client.MergeFromWithOptimisticLock{})
	SetInstallationFinalizer(installation, whiskerFinalizer)
	return c.Patch(ctx, installation, patchFrom)
}

// withLockPointer passes the lock by address.
func withLockPointer(ctx context.Context, c client.Client, installation *Installation) error {
	base := installation.DeepCopy()
	controllerutil.RemoveFinalizer(installation, whiskerFinalizer)
	return c.Patch(ctx, installation, client.MergeFromWithOptions(base, &client.MergeFromWithOptimisticLock{}))
}

// withOption takes the option from its caller: it may be the lock.
func withOption(ctx context.Context, c client.Client, installation *Installation, opt client.MergeFromOption) error {
	base := installation.DeepCopy()
	controllerutil.AddFinalizer(installation, whiskerFinalizer)
	return c.Patch(ctx, installation, client.MergeFromWithOptions(base, opt))
}

// strategic: a strategic merge patch of a built-in type merges the
// finalizers list (patchStrategy:"merge").
func strategic(ctx context.Context, c client.Client, pod *corev1.Pod) error {
	patch := client.StrategicMergeFrom(pod.DeepCopy())
	controllerutil.AddFinalizer(pod, whiskerFinalizer)
	return c.Patch(ctx, pod, patch)
}

// labelsOnly: labels are a map, merged key by key.
func labelsOnly(ctx context.Context, c client.Client, installation *Installation) error {
	patch := client.MergeFrom(installation.DeepCopy())
	if installation.Labels == nil {
		installation.Labels = map[string]string{}
	}
	installation.Labels["operator.tigera.io/managed"] = "true"
	installation.Spec.Variant = "Calico"
	return c.Patch(ctx, installation, patch)
}

// statusOnly: the status subresource takes no finalizers from the patch.
func statusOnly(ctx context.Context, c client.Client, cluster *Cluster) error {
	patch := client.MergeFrom(cluster.DeepCopy())
	controllerutil.AddFinalizer(cluster, backupCleanupFinalizer)
	cluster.Status.Phase = "Running"
	return c.Status().Patch(ctx, cluster, patch)
}

// update sends the resourceVersion: a concurrent change is a Conflict.
func update(ctx context.Context, c client.Client, cluster *Cluster) error {
	controllerutil.AddFinalizer(cluster, backupCleanupFinalizer)
	return c.Update(ctx, cluster)
}

// changedBeforeCopy: the base already has the finalizer, the patch holds
// no list.
func changedBeforeCopy(ctx context.Context, c client.Client, cluster *Cluster) error {
	controllerutil.AddFinalizer(cluster, backupCleanupFinalizer)
	patch := client.MergeFrom(cluster.DeepCopy())
	cluster.Spec.Paused = false
	return c.Patch(ctx, cluster, patch)
}

// builtBase: a base built in the code, not a copy of the patched object;
// what it holds is not known.
func builtBase(ctx context.Context, c client.Client, cluster *Cluster) error {
	base := &Cluster{}
	base.Name = cluster.Name
	controllerutil.AddFinalizer(cluster, backupCleanupFinalizer)
	return c.Patch(ctx, cluster, client.MergeFrom(base))
}

// copiedElsewhere: the base is another object's copy.
func copiedElsewhere(ctx context.Context, c client.Client, cluster, previous *Cluster) error {
	base := previous.DeepCopy()
	controllerutil.AddFinalizer(cluster, backupCleanupFinalizer)
	return c.Patch(ctx, cluster, client.MergeFrom(base))
}

// createOrPatch patches with a MergeFrom of controller-runtime's own; the
// call takes no patch option (doc.go, Not reported).
func createOrPatch(ctx context.Context, c client.Client, cluster *Cluster) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, cluster, func() error {
		controllerutil.AddFinalizer(cluster, backupCleanupFinalizer)
		return nil
	})
	return err
}

// mergeWhole sends the whole object, resourceVersion included.
func mergeWhole(ctx context.Context, c client.Client, cluster *Cluster) error {
	controllerutil.AddFinalizer(cluster, backupCleanupFinalizer)
	return c.Patch(ctx, cluster, client.Merge)
}

// copyUnchanged reads finalizers through a helper that changes nothing.
func copyUnchanged(ctx context.Context, c client.Client, cluster *Cluster) error {
	patch := client.MergeFrom(cluster.DeepCopy())
	cluster.Spec.Paused = len(finalizersOf(cluster)) == 0
	return c.Patch(ctx, cluster, patch)
}

func finalizersOf(c *Cluster) []string { return append([]string(nil), c.Finalizers...) }

// copyChanged: the finalizers of the copy change, and the original is
// sent against the original's base.
func copyChanged(ctx context.Context, c client.Client, cluster *Cluster) error {
	patch := client.MergeFrom(cluster.DeepCopy())
	scratch := cluster.DeepCopy()
	controllerutil.AddFinalizer(scratch, backupCleanupFinalizer)
	cluster.Spec.Paused = len(scratch.Finalizers) > 1
	return c.Patch(ctx, cluster, patch)
}
