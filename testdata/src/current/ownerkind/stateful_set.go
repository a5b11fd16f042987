// Package ownerkind holds the ownerkind analyzer's fixtures on client-go
// v0.37 and controller-runtime v0.25: each file one real shape, the correct
// look-alikes of kubernetes' controllers in workloads/.
package ownerkind

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// copiedkind: a StatefulSet controller whose controllerKind was
// copied from the Deployment controller and not renamed. Shaped on
// kubernetes' pkg/controller/statefulset (stateful_set.go's controllerKind,
// stateful_set_utils.go's newVersionedStatefulSetPod), where every workload
// controller declares its own controllerKind "so I can copy code between
// controllers" (kubernetes PR #41984).

// controllerKind contains the schema.GroupVersionKind for this controller type.
var controllerKind = appsv1.SchemeGroupVersion.WithKind("Deployment")

func newStatefulSetPod(set *appsv1.StatefulSet, ordinal int) *corev1.Pod {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
		Namespace:       set.Namespace,
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(set, controllerKind)}, // want `owner reference names Deployment.apps but its owner set is a \*v1.StatefulSet \(StatefulSet.apps\): the garbage collector looks the owner up by that kind, does not find it and deletes the child`
	}}
	pod.Spec = set.Spec.Template.Spec
	return pod
}

// addControllerRef is stateful_set_utils.go's helper for the PVC retention
// policy: the owner is an interface, so the call decides. Here the set is
// given the Deployment kind copied above.
func addControllerRef(refs []metav1.OwnerReference, owner metav1.Object, gvk schema.GroupVersionKind) []metav1.OwnerReference {
	for _, ref := range refs {
		if ref.UID == owner.GetUID() {
			return refs
		}
	}
	return append(refs, *metav1.NewControllerRef(owner, gvk))
}

func updateClaimOwnerRefs(set *appsv1.StatefulSet, claim *corev1.PersistentVolumeClaim) {
	claim.OwnerReferences = addControllerRef(claim.OwnerReferences, set, controllerKind) // want `addControllerRef builds an owner reference naming Deployment.apps for its owner set, a \*v1.StatefulSet \(StatefulSet.apps\)`
}
