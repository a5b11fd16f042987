package ownerkind

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// podinfo: keeps a ConfigMap per Pod, owned by the Pod, on client-go
// v0.30. Shaped on scylladb/scylla-operator v1.6.0's
// pkg/controller/nodeconfigpod, whose controllerGVK named the resource
// "pods" instead of the kind "Pod" (fixed in PR #882, v1.7.0); here as an
// OwnerReference literal, the way the fix's test spells the reference.

func makeConfigMap(pod *corev1.Pod) *corev1.ConfigMap {
	controller := true
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
		Namespace: pod.Namespace,
		OwnerReferences: []metav1.OwnerReference{{
			APIVersion: corev1.SchemeGroupVersion.String(),
			Kind:       "pods", // want `owner reference names pods but its owner pod is a \*v1.Pod \(Pod\)`
			Name:       pod.Name,
			UID:        pod.UID,
			Controller: &controller,
		}},
	}}
}
