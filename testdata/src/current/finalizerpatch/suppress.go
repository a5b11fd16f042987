package finalizerpatch

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// ownFinalizer is a finding suppressed with a reason: a directive names
// the analyzer and says why.
func ownFinalizer(ctx context.Context, c client.Client, cluster *Cluster) error {
	patch := client.MergeFrom(cluster.DeepCopy()) //ctrllint:ignore finalizerpatch only this controller sets finalizers on its clusters, a webhook refuses others
	controllerutil.AddFinalizer(cluster, backupCleanupFinalizer)
	return c.Patch(ctx, cluster, patch)
}
