package listerbypass

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/workqueue"
)

// ConfigController holds no lister, but the package asks its informer
// factory for ConfigMaps: there is a cache to read from.
type ConfigController struct {
	client kubernetes.Interface
	queue  workqueue.TypedRateLimitingInterface[string]
}

func StartInformers(ctx context.Context, factory informers.SharedInformerFactory) {
	factory.Core().V1().ConfigMaps().Informer()
	factory.Start(ctx.Done())
}

func (c *ConfigController) worker(ctx context.Context) {
	for {
		key, quit := c.queue.Get()
		if quit {
			return
		}
		cm, err := c.client.CoreV1().ConfigMaps("default").Get(ctx, key, metav1.GetOptions{}) // want `clientset Get of ConfigMap .* read through a ConfigMap lister from the package's informer factory`
		if err == nil {
			_ = cm
			c.queue.Forget(key)
		}
		c.queue.Done(key)
	}
}
