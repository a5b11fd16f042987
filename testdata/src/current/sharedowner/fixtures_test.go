package sharedowner

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Tests build objects with fixed names and owner references as data:
// silent.
func newTestPod(d metav1.Object) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
		Name:            "pod-1",
		Namespace:       "default",
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(d, deploymentKind)},
	}}
}
