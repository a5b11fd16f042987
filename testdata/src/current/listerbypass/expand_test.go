package listerbypass

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/workqueue"
)

// ExpandController reads PersistentVolumes live and caches none, shaped
// like kubernetes v1.37's volume/expand controller (getPersistentVolume).
// Its test, TestSyncHandler, asks an informer factory for a PersistentVolume
// informer only to put the test's volume in its store: the controller
// still caches no PersistentVolume: silent.
type ExpandController struct {
	client kubernetes.Interface
	queue  workqueue.TypedRateLimitingInterface[string]
}

func (c *ExpandController) worker(ctx context.Context) {
	for {
		key, quit := c.queue.Get()
		if quit {
			return
		}
		if pv, err := c.client.CoreV1().PersistentVolumes().Get(ctx, key, metav1.GetOptions{}); err == nil {
			_ = pv
		}
		c.queue.Done(key)
	}
}

func TestExpand(t *testing.T) {
	var client kubernetes.Interface // a fake clientset in the real test
	factory := informers.NewSharedInformerFactory(client, 0)
	if err := factory.Core().V1().PersistentVolumes().Informer().GetIndexer().Add(&corev1.PersistentVolume{}); err != nil {
		t.Fatal(err)
	}
	_ = &ExpandController{client: client}
}
