// This file is shaped on cluster-api's Machine controller
// (core/reconcilers/machine/machine_controller.go, sigs.k8s.io/cluster-api
// v1.14.2), which reads, patches and deletes the Nodes of a workload
// cluster through a client its ClusterCache builds for that cluster: the
// management cluster's role, which the markers generate, does not govern
// those calls, and the analyzer leaves clients in local variables,
// parameters and fields named for another cluster alone.

package rbacmarkers

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// ClusterCache hands out clients of workload clusters.
type ClusterCache interface {
	GetClient(ctx context.Context, cluster client.ObjectKey) (client.Client, error)
}

// MachineReconciler drains and deletes the Nodes of Machines.
type MachineReconciler struct {
	Client       client.Client
	ClusterCache ClusterCache
	// RemoteClient is the workload cluster's client, in tests.
	RemoteClient client.Client
}

func (r *MachineReconciler) deleteNode(ctx context.Context, cluster client.ObjectKey, name string) error {
	remoteClient, err := r.ClusterCache.GetClient(ctx, cluster)
	if err != nil {
		return err
	}
	node := &corev1.Node{}
	if err := remoteClient.Get(ctx, client.ObjectKey{Name: name}, node); err != nil {
		return err
	}
	if err := r.RemoteClient.Patch(ctx, node, client.MergeFrom(node.DeepCopy())); err != nil {
		return err
	}
	return remoteClient.Delete(ctx, node)
}
