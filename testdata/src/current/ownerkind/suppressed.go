package ownerkind

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Kubernetes' replication manager runs the ReplicaSet controller on
// ReplicationControllers converted to ReplicaSets
// (pkg/controller/replication/conversion.go): the kind of the original
// object on the converted one is meant. Written as a constant, it is
// reported, and suppressed with the reason.
var rcKind = corev1.SchemeGroupVersion.WithKind("ReplicationController")

func newConvertedPod(rs *appsv1.ReplicaSet) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
		Namespace:       rs.Namespace,
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(rs, rcKind)}, //ctrllint:ignore ownerkind the ReplicaSet is a converted ReplicationController
	}}
}
