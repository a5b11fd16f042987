package ownerkind

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
)

// podinfo: a controller that keeps a ConfigMap per Pod, owned by
// the Pod. Shaped on scylladb/scylla-operator v1.6.0's
// pkg/controller/nodeconfigpod (controller.go's controllerGVK and
// resource.go's makeConfigMap): the GVK was built with the resource name
// "pods" instead of the kind "Pod", so the garbage collector could not
// resolve the owner and never cascaded (fixed in scylla-operator PR #882,
// v1.7.0).

var (
	keyFunc       = cache.DeletionHandlingMetaNamespaceKeyFunc
	controllerGVK = corev1.SchemeGroupVersion.WithKind("pods")
)

func makeConfigMap(pod *corev1.Pod, data map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: pod.Namespace,
			Name:      "podinfo-" + string(pod.UID),
			OwnerReferences: []metav1.OwnerReference{
				*metav1.NewControllerRef(pod, controllerGVK), // want `owner reference names pods but its owner pod is a \*v1.Pod \(Pod\)`
			},
		},
		Data: data,
	}
}

// resolveControllerRef compares only the kind; it builds no reference.
func resolveControllerRef(ref *metav1.OwnerReference) bool {
	return ref.Kind == controllerGVK.Kind
}
