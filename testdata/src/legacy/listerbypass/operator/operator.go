// Package operator holds a controller written against client-go v0.30 that
// lists pods and nodes from the API server for every key it syncs, with no
// informer of either: the fix is an informer.
package operator

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	appsinformers "k8s.io/client-go/informers/apps/v1"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// StackOperator is shaped like zalando-incubator/es-operator before its
// PR 76 ("Use pod and node informers to reduce APIServer load"): every sync
// listed the pods of the stack by label and all nodes through the
// clientset. It caches its StatefulSets only.
type StackOperator struct {
	client            kubernetes.Interface
	statefulSetLister appslisters.StatefulSetLister
	queue             workqueue.RateLimitingInterface
}

func NewStackOperator(client kubernetes.Interface, sets appsinformers.StatefulSetInformer) *StackOperator {
	o := &StackOperator{
		client:            client,
		statefulSetLister: sets.Lister(),
		queue:             workqueue.NewRateLimitingQueue(workqueue.DefaultControllerRateLimiter()),
	}
	sets.Informer().AddEventHandler(cache.FilteringResourceEventHandler{
		FilterFunc: func(obj interface{}) bool { return true },
		Handler: cache.ResourceEventHandlerFuncs{
			AddFunc: func(obj interface{}) {
				key, err := cache.MetaNamespaceKeyFunc(obj)
				if err == nil {
					o.queue.Add(key)
				}
			},
		},
	})
	return o
}

func (o *StackOperator) Run(ctx context.Context) {
	go wait.Until(o.runWorker, time.Second, ctx.Done())
	<-ctx.Done()
}

func (o *StackOperator) runWorker() {
	for o.processNextItem() {
	}
}

func (o *StackOperator) processNextItem() bool {
	key, quit := o.queue.Get()
	if quit {
		return false
	}
	defer o.queue.Done(key)
	if err := o.sync(context.TODO(), key.(string)); err != nil {
		o.queue.AddRateLimited(key)
		return true
	}
	o.queue.Forget(key)
	return true
}

func (o *StackOperator) sync(ctx context.Context, key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	sts, err := o.statefulSetLister.StatefulSets(ns).Get(name)
	if err != nil {
		return err
	}
	pods, err := o.client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "stack=" + sts.Name}) // want `clientset List of Pod goes to the API server on every event, and the controller has no informer of Pod: add one \(a Pod lister from a shared informer factory\) and read through it`
	if err != nil {
		return err
	}
	nodes, err := o.client.CoreV1().Nodes().List(ctx, metav1.ListOptions{}) // want `clientset List of Node goes to the API server on every event`
	if err != nil {
		return err
	}
	_, _ = pods, nodes
	// One Service by name: Gets are not reported (see doc.go).
	if _, err := o.client.CoreV1().Services(ns).Get(ctx, name, metav1.GetOptions{}); err != nil {
		return err
	}
	return nil
}
