package finalizerpatch

import (
	"context"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// Tests patch fake clients, where no other controller adds finalizers:
// not reported.
func addFinalizerForTest(t *testing.T, c client.Client, cluster *Cluster) {
	patch := client.MergeFrom(cluster.DeepCopy())
	controllerutil.AddFinalizer(cluster, backupCleanupFinalizer)
	if err := c.Patch(context.Background(), cluster, patch); err != nil {
		t.Fatal(err)
	}
}
