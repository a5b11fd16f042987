package handlerblocking

import (
	"context"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// Controller is sample-controller v0.37's shape (controller.go): handlers
// that only compute a key and enqueue it, or read a lister to find the
// owner to enqueue (handleObject). Silent.
type Controller struct {
	client     kubernetes.Interface
	nodeLister corelisters.NodeLister
	queue      workqueue.TypedRateLimitingInterface[string]
	events     chan string
	updates    chan string
	mu         sync.RWMutex
	seen       map[string]bool
}

func NewController(client kubernetes.Interface, podInformer cache.SharedIndexInformer, nodeLister corelisters.NodeLister) *Controller {
	c := &Controller{
		client:     client,
		nodeLister: nodeLister,
		queue:      workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
		events:     make(chan string, 100),
		updates:    make(chan string),
		seen:       map[string]bool{},
	}
	podInformer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: c.enqueue,
		UpdateFunc: func(old, cur any) {
			c.handleObject(cur)
		},
		DeleteFunc: func(obj any) {
			// Deletion work on a goroutine of its own: not the handler.
			go c.cleanUp(obj)
			// A delayed call runs later, elsewhere.
			time.AfterFunc(time.Second, func() { c.cleanUp(obj) })
			// A send that gives up when nobody listens.
			select {
			case c.updates <- "deleted":
			default:
			}
			// A send on a buffered channel: a queue its author sized.
			c.events <- "deleted"
			// Readers do not wait for readers (recordSeen's RLock).
			c.mu.RLock()
			_ = c.seen["x"]
			c.mu.RUnlock()
			// Enqueue with a delay instead of sleeping.
			c.queue.AddAfter("x", time.Second)
		},
	})
	return c
}

func (c *Controller) enqueue(obj any) {
	key, err := cache.MetaNamespaceKeyFunc(obj)
	if err != nil {
		return
	}
	c.queue.Add(key)
}

func (c *Controller) handleObject(obj any) {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return
	}
	node, err := c.nodeLister.Get(pod.Spec.NodeName) // the cache
	if err != nil {
		return
	}
	c.queue.AddRateLimited(node.Name)
}

func (c *Controller) cleanUp(obj any) {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return
	}
	_ = c.client.CoreV1().Pods(pod.Namespace).Delete(context.TODO(), pod.Name, metav1.DeleteOptions{})
}

// recordSeen reads under the read lock across an API call: handlers that
// only RLock do not wait for it.
func (c *Controller) recordSeen(ctx context.Context) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	_, _ = c.client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
}

// The worker makes the API calls: silent.
func (c *Controller) processNextWorkItem(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	ns, name, _ := cache.SplitMetaNamespaceKey(key)
	if _, err := c.client.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{}); err != nil {
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.Forget(key)
	return true
}

// watchDeletions is kubernetes' e2e createTestController shape
// (test/e2e/node/taints.go): the handler sends on a channel its caller
// hands in, whose buffer it cannot see: silent. A discovery call is not
// judged (the client may be a cached one), and a channel that a closure
// assigns again may be buffered by then: silent.
func watchDeletions(informer cache.SharedIndexInformer, client kubernetes.Interface, observed chan string) {
	pending := make(chan string)
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			_, _ = client.Discovery().ServerVersion()
			pending <- "added"
		},
		DeleteFunc: func(obj any) {
			if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = tomb.Obj
			}
			if pod, ok := obj.(*corev1.Pod); ok {
				observed <- pod.Name
			}
		},
		UpdateFunc: func(_, _ any) {
			pending = make(chan string, 10)
		},
	})
}
