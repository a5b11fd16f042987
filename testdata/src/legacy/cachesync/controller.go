// Package cachesync holds controllers on client-go v0.30, with the
// stop-channel waits and untyped queues of older controllers, for the
// cachesync analyzer.
package cachesync

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// Controller is a v0.30-era controller: untyped rate-limiting queue,
// stop channel, HasSynced kept as a cache.InformerSynced.
type Controller struct {
	podLister  corelisters.PodLister
	podsSynced cache.InformerSynced
	queue      workqueue.RateLimitingInterface
}

func NewController(pods coreinformers.PodInformer) *Controller {
	c := &Controller{
		podLister:  pods.Lister(),
		podsSynced: pods.Informer().HasSynced,
		queue:      workqueue.NewRateLimitingQueue(workqueue.DefaultControllerRateLimiter()),
	}
	pods.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: c.enqueue,
	})
	return c
}

func (c *Controller) enqueue(obj interface{}) {
	key, err := cache.MetaNamespaceKeyFunc(obj)
	if err != nil {
		utilruntime.HandleError(err)
		return
	}
	c.queue.Add(key)
}

// Run waits with WaitForNamedCacheSync and a stop channel. Silent.
func (c *Controller) Run(workers int, stopCh <-chan struct{}) {
	defer utilruntime.HandleCrash()
	defer c.queue.ShutDown()
	if !cache.WaitForNamedCacheSync("pod", stopCh, c.podsSynced) {
		return
	}
	for i := 0; i < workers; i++ {
		go wait.Until(c.runWorker, time.Second, stopCh)
	}
	<-stopCh
}

// RunNoWait forgets the wait.
func (c *Controller) RunNoWait(workers int, stopCh <-chan struct{}) {
	defer c.queue.ShutDown()
	for i := 0; i < workers; i++ {
		go wait.Until(c.runWorker, time.Second, stopCh) // want `worker c.runWorker starts before the informer caches it reads have synced`
	}
	<-stopCh
}

// RunJitter starts its worker with JitterUntil after a wait on one branch
// only.
func (c *Controller) RunJitter(stopCh <-chan struct{}, wait_ bool) {
	if wait_ && !cache.WaitForCacheSync(stopCh, c.podsSynced) {
		return
	}
	wait.JitterUntil(c.runWorker, time.Second, 0.1, true, stopCh) // want `worker c.runWorker starts on a path that skips the cache-sync wait`
}

func (c *Controller) runWorker() {
	for c.processNextItem() {
	}
}

func (c *Controller) processNextItem() bool {
	obj, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(obj)
	key, ok := obj.(string)
	if !ok {
		c.queue.Forget(obj)
		return true
	}
	if err := c.sync(key); err != nil {
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.Forget(obj)
	return true
}

func (c *Controller) sync(key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	pod, err := c.podLister.Pods(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return nil // deleted: nothing left to sync
	}
	if err != nil {
		return fmt.Errorf("pod %s: %w", key, err)
	}
	klog.V(4).Infof("pod %s is on node %q", key, pod.Spec.NodeName)
	return nil
}

// Main starts the factory and waits on it (a map, unread) before running
// the controller. Silent.
func Main(client kubernetes.Interface, stopCh <-chan struct{}) {
	factory := informers.NewSharedInformerFactory(client, 0)
	c := NewController(factory.Core().V1().Pods())
	factory.Start(stopCh)
	factory.WaitForCacheSync(stopCh)
	c.Run(2, stopCh)
}

// LateMain builds the controller after starting the factory: its Pod
// informer is never started.
func LateMain(client kubernetes.Interface, stopCh <-chan struct{}) {
	factory := informers.NewSharedInformerFactory(client, 0)
	factory.Start(stopCh)
	c := NewController(factory.Core().V1().Pods()) // want `NewController requests the Pod informer from the informer factory \(line \d+\) after its Start \(line \d+\)`
	factory.WaitForCacheSync(stopCh)
	c.Run(2, stopCh)
}

// NodeObjectGC is shaped like node-feature-discovery's nfd-gc before it
// checked its wait (pkg/nfd-gc/nfd-gc.go, fixed upstream in 2024): the
// v0.30 factory's WaitForCacheSync map is dropped, then a pass started
// with wait.Until deletes the per-node ConfigMaps whose node the lister
// does not return.
type NodeObjectGC struct {
	client  kubernetes.Interface
	factory informers.SharedInformerFactory
}

func (n *NodeObjectGC) Run(stopCh <-chan struct{}) {
	n.factory.Core().V1().Nodes().Informer()
	n.factory.Start(stopCh)
	n.factory.WaitForCacheSync(stopCh)
	go wait.Until(n.garbageCollect, time.Minute, stopCh) // want `n.garbageCollect, started here, deletes or updates what an informer cache read \(line \d+\) does not find, after a cache-sync wait whose result is ignored \(line \d+\)`
	<-stopCh
}

func (n *NodeObjectGC) garbageCollect() {
	nodes, err := n.factory.Core().V1().Nodes().Lister().List(labels.Everything())
	if err != nil {
		return
	}
	names := sets.NewString()
	for _, node := range nodes {
		names.Insert(node.Name)
	}
	cms, err := n.client.CoreV1().ConfigMaps("node-objects").List(context.TODO(), metav1.ListOptions{}) //ctrllint:ignore listerbypass a periodic List of an uncached resource that feeds deletes, as nfd-gc did; this fixture is about the unsynced node lister
	if err != nil {
		return
	}
	for _, cm := range cms.Items {
		if !names.Has(cm.Labels["node"]) {
			_ = n.client.CoreV1().ConfigMaps(cm.Namespace).Delete(context.TODO(), cm.Name, metav1.DeleteOptions{})
		}
	}
}

// CheckedNodeObjectGC returns unless the bool of cache.WaitForCacheSync
// says the caches synced. Silent.
type CheckedNodeObjectGC struct {
	NodeObjectGC
	nodesSynced cache.InformerSynced
}

func (n *CheckedNodeObjectGC) Run(stopCh <-chan struct{}) {
	n.factory.Start(stopCh)
	if !cache.WaitForCacheSync(stopCh, n.nodesSynced) {
		return
	}
	go wait.Until(n.garbageCollect, time.Minute, stopCh)
	<-stopCh
}

// LeaderMain (v0.30) runs the election before it starts the factory its
// OnStartedLeading callback waits on.
func LeaderMain(ctx context.Context, client kubernetes.Interface, lock resourcelock.Interface) {
	factory := informers.NewSharedInformerFactory(client, 0)
	c := NewController(factory.Core().V1().Pods())
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{ // want `the OnStartedLeading callback a func literal in LeaderMain waits for the informer factory \(WaitForCacheSync, line \d+\), and the leader election run here blocks before its Start \(line \d+\)`
		Lock:          lock,
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				factory.WaitForCacheSync(ctx.Done())
				c.Run(2, ctx.Done())
			},
			OnStoppedLeading: func() {},
		},
	})
	factory.Start(ctx.Done())
}

// StartedMain starts the factory, then waits: silent.
func StartedMain(stopCh <-chan struct{}, client kubernetes.Interface) {
	factory := informers.NewSharedInformerFactory(client, 0)
	c := NewController(factory.Core().V1().Pods())
	factory.Start(stopCh)
	factory.WaitForCacheSync(stopCh)
	c.Run(2, stopCh)
}
