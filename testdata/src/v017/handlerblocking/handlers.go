// Package handlerblocking holds handlerblocking's fixtures on client-go
// v0.17, whose typed clients take no context.
package handlerblocking

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

type Controller struct {
	client kubernetes.Interface
	queue  workqueue.RateLimitingInterface
}

// New registers handlers as controllers of that age did: addPod reads the
// Pod's node from the API server inside the handler, which holds up the
// informer's delivery of every later event; updatePod only queues a key.
func New(client kubernetes.Interface, pods coreinformers.PodInformer) *Controller {
	c := &Controller{client: client, queue: workqueue.NewRateLimitingQueue(workqueue.DefaultControllerRateLimiter())}
	pods.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.addPod,
		UpdateFunc: c.updatePod,
	})
	return c
}

func (c *Controller) addPod(obj interface{}) {
	pod := obj.(*corev1.Pod)
	node, err := c.client.CoreV1().Nodes().Get(pod.Spec.NodeName, metav1.GetOptions{}) // want `Nodes\(\).Get API call in the AddFunc handler \(via c.addPod\)`
	if err != nil || node == nil {
		return
	}
	c.enqueue(pod)
}

func (c *Controller) updatePod(old, cur interface{}) {
	c.enqueue(cur)
}

func (c *Controller) enqueue(obj interface{}) {
	key, err := cache.MetaNamespaceKeyFunc(obj)
	if err != nil {
		return
	}
	c.queue.Add(key)
}
