package workloads

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Tests build pods owned by the wrong kind on purpose (kubernetes'
// TestPodControllerLookup and orphan-adoption cases): silent in _test.go.
func newOrphanedPod(set *appsv1.StatefulSet) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(set, podKind)},
	}}
}
