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

// ExpandController reads PersistentVolumes live and caches none (kubernetes
// v1.30's volume/expand getPersistentVolume); its test asks a factory for a
// PersistentVolume informer only to fill the store: silent.
type ExpandController struct {
	client kubernetes.Interface
	queue  workqueue.RateLimitingInterface
}

func (c *ExpandController) worker(ctx context.Context) {
	for {
		item, quit := c.queue.Get()
		if quit {
			return
		}
		if pv, err := c.client.CoreV1().PersistentVolumes().Get(ctx, item.(string), metav1.GetOptions{}); err == nil {
			_ = pv
		}
		c.queue.Done(item)
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
