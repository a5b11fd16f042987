package handlerblocking

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// A test helper's handler that writes through the clientset the test
// hands it (a fake one) and sleeps to let the test observe an order:
// silent (tests are not reported).
func TestNodeHandler(t *testing.T) {
	watchNodes(t, nil)
}

func watchNodes(t *testing.T, cs kubernetes.Interface) {
	factory := informers.NewSharedInformerFactory(cs, 0)
	factory.Core().V1().Nodes().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(_, cur interface{}) {
			time.Sleep(time.Millisecond)
			_, _ = cs.CoreV1().Nodes().Update(context.TODO(), cur.(*corev1.Node), metav1.UpdateOptions{})
		},
	})
}
