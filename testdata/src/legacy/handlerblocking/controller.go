// Package handlerblocking holds fixtures for the handlerblocking analyzer on
// client-go v0.30 and controller-runtime v0.18.
package handlerblocking

import (
	"context"
	"sync"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// Authority is shaped on cert-manager v1.21.2's webhook CA
// (pkg/server/tls/authority/authority.go, DynamicAuthority), on the
// untyped handler API: the Secret informer's handlers call ensureCA, which
// creates the CA Secret through the typed client.
type Authority struct {
	name   string
	lister corelisters.SecretNamespaceLister
	client corev1client.SecretInterface
	mu     sync.Mutex
}

func (a *Authority) Register(informer cache.SharedIndexInformer) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    a.handleAdd,
		DeleteFunc: a.handleDelete,
	})
}

func (a *Authority) handleAdd(obj interface{}) {
	_ = a.ensureCA(context.Background())
}

func (a *Authority) handleDelete(obj interface{}) {
	_ = a.ensureCA(context.Background())
}

func (a *Authority) ensureCA(ctx context.Context) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	_, err := a.lister.Get(a.name) // the cache: silent
	if !apierrors.IsNotFound(err) {
		return err
	}
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: a.name}}
	_, err = a.client.Create(ctx, s, metav1.CreateOptions{}) // want `Secret client Create API call in the AddFunc handler \(via a.handleAdd → a.ensureCA\): event handlers run on the informer's delivery goroutine`
	return err
}

// LeaseTracker is shaped on knative serving v0.42.2's stat forwarder
// (pkg/autoscaler/statforwarder/leases.go): a lease handler that retries
// creating a Service with a poll, here the older wait.PollImmediate.
type LeaseTracker struct {
	kc kubernetes.Interface
}

func (lt *LeaseTracker) Register(informer cache.SharedIndexInformer) {
	informer.AddEventHandler(cache.FilteringResourceEventHandler{
		FilterFunc: func(obj interface{}) bool { _, ok := obj.(*coordinationv1.Lease); return ok },
		Handler: cache.ResourceEventHandlerFuncs{
			UpdateFunc: func(_, cur interface{}) {
				l := cur.(*coordinationv1.Lease)
				lt.createService(l.Namespace, l.Name)
			},
		},
	})
}

func (lt *LeaseTracker) createService(ns, n string) {
	_ = wait.PollImmediate(time.Second, time.Minute, func() (bool, error) { // want `wait.PollImmediate in the UpdateFunc handler \(via lt.createService\): event handlers run on the informer's delivery goroutine, so every later event of this handler waits out the delay`
		_, err := lt.kc.CoreV1().Services(ns).Create(context.TODO(), &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: n}}, metav1.CreateOptions{}) // want `Services\(\).Create API call in the UpdateFunc handler \(via lt.createService\)`
		return err == nil, nil
	})
}

// TaintController is shaped on kubernetes v1.37.2's device taint eviction
// controller (pkg/controller/devicetainteviction): a worker holds the
// handlers' mutex across an API call.
type TaintController struct {
	client kubernetes.Interface
	mutex  sync.Mutex
	counts map[string]int
	queue  workqueue.RateLimitingInterface
}

func (tc *TaintController) processNext(ctx context.Context) bool {
	key, shutdown := tc.queue.Get()
	if shutdown {
		return false
	}
	defer tc.queue.Done(key)
	if err := tc.updateStatus(ctx, key.(string)); err != nil {
		tc.queue.AddRateLimited(key)
		return true
	}
	tc.queue.Forget(key)
	return true
}

func (tc *TaintController) Register(informer cache.SharedIndexInformer) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			tc.mutex.Lock()
			defer tc.mutex.Unlock()
			tc.counts["pods"]++
		},
	})
}

func (tc *TaintController) updateStatus(ctx context.Context, name string) error {
	tc.mutex.Lock()
	defer tc.mutex.Unlock()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
	_, err := tc.client.CoreV1().Namespaces().UpdateStatus(ctx, ns, metav1.UpdateOptions{}) // want `Namespaces\(\).UpdateStatus API call while tc.updateStatus holds tc.mutex, which the AddFunc handler at controller.go:\d+ locks too`
	return err
}

// Controller is sample-controller's shape (v0.30 controller.go): handlers
// that enqueue, read listers, or start goroutines. Silent.
type Controller struct {
	client     kubernetes.Interface
	nodeLister corelisters.NodeLister
	queue      workqueue.RateLimitingInterface
	updates    chan string
}

func NewController(client kubernetes.Interface, informer cache.SharedIndexInformer, nodeLister corelisters.NodeLister) *Controller {
	c := &Controller{
		client:     client,
		nodeLister: nodeLister,
		queue:      workqueue.NewRateLimitingQueue(workqueue.DefaultControllerRateLimiter()),
		updates:    make(chan string),
	}
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
				c.queue.Add(key)
			}
		},
		UpdateFunc: func(_, cur interface{}) {
			pod, ok := cur.(*corev1.Pod)
			if !ok {
				return
			}
			if node, err := c.nodeLister.Get(pod.Spec.NodeName); err == nil {
				c.queue.AddAfter(node.Name, time.Second)
			}
		},
		DeleteFunc: func(obj interface{}) {
			if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = tomb.Obj
			}
			pod, ok := obj.(*corev1.Pod)
			if !ok {
				return
			}
			go func() {
				_ = c.client.CoreV1().Pods(pod.Namespace).Delete(context.TODO(), pod.Name, metav1.DeleteOptions{})
			}()
			select {
			case c.updates <- pod.Name:
			default:
			}
		},
	})
	return c
}
