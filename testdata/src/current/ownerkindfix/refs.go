// Package ownerkindfix holds the findings whose kind is a literal written
// in the reference itself, with the right group: -fix names the owner's
// kind there.
package ownerkindfix

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1ac "k8s.io/client-go/applyconfigurations/meta/v1"
)

// A literal copied from a Deployment's child into a StatefulSet's.
func pvcFor(set *appsv1.StatefulSet) *corev1.PersistentVolumeClaim {
	return &corev1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{
		Namespace: set.Namespace,
		OwnerReferences: []metav1.OwnerReference{{
			APIVersion: "apps/v1",
			Kind:       "Deployment", // want `owner reference names Deployment.apps but its owner set is a \*v1.StatefulSet \(StatefulSet.apps\)`
			Name:       set.Name,
			UID:        set.UID,
		}},
	}}
}

// The apply-configuration form (server-side apply), naming the child's
// kind instead of the owner's.
func applyOwner(d *appsv1.Deployment) *metav1ac.OwnerReferenceApplyConfiguration {
	return metav1ac.OwnerReference().
		WithAPIVersion("apps/v1").
		WithKind("ReplicaSet"). // want `owner reference names ReplicaSet.apps but its owner d is a \*v1.Deployment \(Deployment.apps\)`
		WithName(d.Name).
		WithUID(d.UID).
		WithController(true)
}

// An inline GVK.
func daemonPod(ds *appsv1.DaemonSet) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(ds, appsv1.SchemeGroupVersion.WithKind("Deployment"))}, // want `owner reference names Deployment.apps but its owner ds is a \*v1.DaemonSet \(DaemonSet.apps\)`
	}}
}
