// Package patchbase holds patches written against controller-runtime v0.5,
// whose client.MergeFrom takes a runtime.Object: cluster-api v0.2.3's
// MachineSet reconciler took its base from the object it then changed
// (sigs.k8s.io/cluster-api@v0.2.3 controllers/machineset_controller.go
// adoptOrphan; fixed in v0.2.4).
package patchbase

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	Client client.Client
}

func (r *Reconciler) adoptOrphan(rs *appsv1.ReplicaSet, d *appsv1.Deployment) error {
	patch := client.MergeFrom(rs) // want `patch base is the object it patches: client.MergeFrom\(rs\) keeps a pointer to rs`
	rs.OwnerReferences = append(rs.OwnerReferences, *metav1.NewControllerRef(d, appsv1.SchemeGroupVersion.WithKind("Deployment")))
	return r.Client.Patch(context.TODO(), rs, patch)
}

// adoptCopied takes the base from a copy: silent.
func (r *Reconciler) adoptCopied(rs *appsv1.ReplicaSet, d *appsv1.Deployment) error {
	patch := client.MergeFrom(rs.DeepCopy())
	rs.OwnerReferences = append(rs.OwnerReferences, *metav1.NewControllerRef(d, appsv1.SchemeGroupVersion.WithKind("Deployment")))
	return r.Client.Patch(context.TODO(), rs, patch)
}
