package handlerblocking

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// nodeHandler is a handler type in the shape of prometheus-operator
// v0.85.0's ResourceReconciler (pkg/operator/resource_reconciler.go), whose
// OnAdd/OnUpdate/OnDelete only enqueue (OnAdd here: silent); this one's
// OnUpdate labels the node through the clientset and OnDelete sleeps.
type nodeHandler struct {
	client kubernetes.Interface
	queue  workqueue.RateLimitingInterface
}

func registerNodes(informer cache.SharedInformer, client kubernetes.Interface) {
	h := &nodeHandler{client: client, queue: workqueue.NewRateLimitingQueue(workqueue.DefaultControllerRateLimiter())}
	informer.AddEventHandlerWithResyncPeriod(h, time.Minute)
}

func (h *nodeHandler) OnAdd(obj interface{}, isInInitialList bool) {
	if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
		h.queue.Add(key)
	}
}

func (h *nodeHandler) OnUpdate(_, cur interface{}) {
	node, ok := cur.(*corev1.Node)
	if !ok {
		return
	}
	node = node.DeepCopy()
	node.Labels["seen"] = "true"
	h.update(node)
}

func (h *nodeHandler) update(node *corev1.Node) {
	_, _ = h.client.CoreV1().Nodes().Update(context.TODO(), node, metav1.UpdateOptions{}) // want `Nodes\(\).Update API call in the OnUpdate handler of nodeHandler \(via h.OnUpdate → h.update\)`
}

func (h *nodeHandler) OnDelete(obj interface{}) {
	time.Sleep(time.Second) // want `time.Sleep in the OnDelete handler of nodeHandler \(via h.OnDelete\)`
}
