// Package proof holds one function per outcome of each link of the
// harmless-drop proof (missing.go), for proof_test.go. It compiles against
// both fixture modules' client-go.
package proof

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

type Controller struct {
	queue     workqueue.RateLimitingInterface
	idle      workqueue.RateLimitingInterface // no worker takes keys from it
	pvcLister corelisters.PersistentVolumeClaimLister
	deleted   int
	sync      func(key string) error
}

func NewController(lister corelisters.PersistentVolumeClaimLister) *Controller {
	c := &Controller{
		queue:     workqueue.NewRateLimitingQueue(workqueue.DefaultControllerRateLimiter()),
		idle:      workqueue.NewRateLimitingQueue(workqueue.DefaultControllerRateLimiter()),
		pvcLister: lister,
	}
	c.sync = c.syncClaim
	return c
}

// enqueue holds every link: it only adds the claim's key to c.queue,
// whose worker's sync ignores a missing claim.
func (c *Controller) enqueue(obj interface{}) {
	pvc, ok := obj.(*v1.PersistentVolumeClaim)
	if !ok {
		return
	}
	key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(pvc)
	if err != nil {
		return
	}
	c.queue.Add(key)
}

// notAnObject fails link 1: a Stringer is no API object.
func (c *Controller) notAnObject(obj interface{}) {
	s, ok := obj.(fmt.Stringer)
	if !ok {
		return
	}
	c.queue.Add(s.String())
}

// counting fails link 2: it counts deletions in a field.
func (c *Controller) counting(obj interface{}) {
	pvc, ok := obj.(*v1.PersistentVolumeClaim)
	if !ok {
		return
	}
	c.deleted++
	key, _ := cache.DeletionHandlingMetaNamespaceKeyFunc(pvc)
	c.queue.Add(key)
}

// shallow holds link 2 through two helpers.
func (c *Controller) shallow(obj interface{}) { c.deep3(obj) }

// deep fails link 2 at maxHelperDepth: four helpers.
func (c *Controller) deep(obj interface{})  { c.deep1(obj) }
func (c *Controller) deep1(obj interface{}) { c.deep2(obj) }
func (c *Controller) deep2(obj interface{}) { c.deep3(obj) }
func (c *Controller) deep3(obj interface{}) { c.deep4(obj) }
func (c *Controller) deep4(obj interface{}) {
	key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		return
	}
	c.queue.Add(key)
}

// Enqueue holds link 2 as an enqueue helper of its package (its fact's
// Enqueues names q) but fails link 3: q is no field.
func Enqueue(obj interface{}, q workqueue.RateLimitingInterface) {
	key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		return
	}
	q.Add(key)
}

// toIdle fails link 4: no worker takes keys from c.idle.
func (c *Controller) toIdle(obj interface{}) {
	key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		return
	}
	c.idle.Add(key)
}

func (c *Controller) processNextWorkItem() bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	if err := c.sync(key.(string)); err != nil {
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.Forget(key)
	return true
}

// syncClaim holds link 5: it returns nil on a missing claim.
func (c *Controller) syncClaim(key string) error {
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	pvc, err := c.pvcLister.PersistentVolumeClaims(namespace).Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	fmt.Println(pvc.Name)
	return nil
}

// syncLoud fails link 5: a missing claim is an error, which re-queues it.
func (c *Controller) syncLoud(key string) error {
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	_, err = c.pvcLister.PersistentVolumeClaims(namespace).Get(name)
	if apierrors.IsNotFound(err) {
		return fmt.Errorf("claim %s is gone", key)
	}
	return err
}

// RunWorker is a worker loop for other packages (WorkerFact).
func RunWorker(q workqueue.RateLimitingInterface, sync func(string) error) {
	for processNext(q, sync) {
	}
}

func processNext(q workqueue.RateLimitingInterface, sync func(string) error) bool {
	key, quit := q.Get()
	if quit {
		return false
	}
	defer q.Done(key)
	if err := sync(key.(string)); err != nil {
		q.AddRateLimited(key)
		return true
	}
	q.Forget(key)
	return true
}

// RunDeep is a worker loop nested past maxWorkerDepth: it gets no fact.
func RunDeep(q workqueue.RateLimitingInterface, sync func(string) error) {
	runDeep1(q, sync)
}

func runDeep1(q workqueue.RateLimitingInterface, sync func(string) error) { runDeep2(q, sync) }
func runDeep2(q workqueue.RateLimitingInterface, sync func(string) error) { runDeep3(q, sync) }
func runDeep3(q workqueue.RateLimitingInterface, sync func(string) error) { runDeep4(q, sync) }
func runDeep4(q workqueue.RateLimitingInterface, sync func(string) error) {
	for processNext(q, sync) {
	}
}
