package handlerblocking

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// A handler of a single-object informer (cert-manager's CA Secret shape)
// whose write its authors accept, suppressed with a reason: silent.
func watchOwnSecret(informer cache.SharedIndexInformer, cs kubernetes.Interface) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "ca", Namespace: "system"}}
			_, _ = cs.CoreV1().Secrets("system").Create(context.TODO(), s, metav1.CreateOptions{}) //ctrllint:ignore handlerblocking the informer watches this one Secret
		},
	})
}
