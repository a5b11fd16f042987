// Package ownerkind holds the ownerkind analyzer's fixtures on client-go
// v0.30: each file one real shape, the correct look-alikes in workloads/.
package ownerkind

import (
	apps "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// copiedkind: a DaemonSet controller whose controllerKind was
// copied from the ReplicaSet controller, on client-go v0.30. Shaped on
// kubernetes' pkg/controller/daemon (daemon_controller.go's controllerKind,
// update.go's snapshot building the ControllerRevision's controller
// reference), and the convention of copying controllerKind between
// controllers (kubernetes PR #41984).

var controllerKind = apps.SchemeGroupVersion.WithKind("ReplicaSet")

func snapshot(ds *apps.DaemonSet) *apps.ControllerRevision {
	return &apps.ControllerRevision{ObjectMeta: metav1.ObjectMeta{
		Namespace:       ds.Namespace,
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(ds, controllerKind)}, // want `owner reference names ReplicaSet.apps but its owner ds is a \*v1.DaemonSet \(DaemonSet.apps\)`
	}}
}

// A helper of the package whose owner is an interface: the call decides.
func newControllerRef(owner metav1.Object, gvk schema.GroupVersionKind) *metav1.OwnerReference {
	return metav1.NewControllerRef(owner, gvk)
}

func podFor(ds *apps.DaemonSet) *v1.Pod {
	return &v1.Pod{ObjectMeta: metav1.ObjectMeta{
		OwnerReferences: []metav1.OwnerReference{*newControllerRef(ds, controllerKind)}, // want `newControllerRef builds an owner reference naming ReplicaSet.apps for its owner ds, a \*v1.DaemonSet \(DaemonSet.apps\)`
	}}
}
