package handlerblocking

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
)

// A test's handler writes through a fake clientset, the way controller
// tests arrange state (kubernetes' integration tests do): nothing waits for
// a server. Silent.
func TestHandlerWrites(t *testing.T) {
	cs := fake.NewClientset()
	factory := informers.NewSharedInformerFactory(cs, 0)
	factory.Core().V1().Pods().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			pod := obj.(*corev1.Pod)
			_, _ = cs.CoreV1().Pods(pod.Namespace).UpdateStatus(context.TODO(), pod, metav1.UpdateOptions{})
		},
	})
}
