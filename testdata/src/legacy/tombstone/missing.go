package tombstone

import (
	"fmt"
	"log"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/errors"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// ServiceAccountsController is shaped like the controllers of the untyped
// queue era: keys are interface{} and asserted to string in the worker. Its
// delete handler only enqueues, and its sync returns on a missing object,
// so a dropped tombstone loses nothing.
type ServiceAccountsController struct {
	queue    workqueue.RateLimitingInterface
	saLister corelisters.ServiceAccountLister
	ensure   func(sa *v1.ServiceAccount) error
}

func (c *ServiceAccountsController) Register(informer cache.SharedIndexInformer) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(old, cur interface{}) { c.enqueue(cur) },
		DeleteFunc: c.enqueue,
	})
}

func (c *ServiceAccountsController) enqueue(obj interface{}) {
	sa, ok := obj.(*v1.ServiceAccount)
	if !ok {
		return
	}
	key, err := cache.MetaNamespaceKeyFunc(sa)
	if err != nil {
		utilruntime.HandleError(fmt.Errorf("couldn't get key for %#v: %v", sa, err))
		return
	}
	c.queue.Add(key)
}

func (c *ServiceAccountsController) processNextWorkItem() bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	if err := c.syncServiceAccount(key.(string)); err != nil {
		c.handleErr(err, key)
		return true
	}
	c.queue.Forget(key)
	return true
}

func (c *ServiceAccountsController) handleErr(err error, key interface{}) {
	if c.queue.NumRequeues(key) < 5 {
		klog.V(2).Infof("Error syncing %v: %v", key, err)
		c.queue.AddRateLimited(key)
		return
	}
	utilruntime.HandleError(err)
	c.queue.Forget(key)
}

func (c *ServiceAccountsController) syncServiceAccount(key string) error {
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	sa, err := c.saLister.ServiceAccounts(namespace).Get(name)
	if errors.IsNotFound(err) {
		klog.V(4).Infof("Service account %v has been deleted", key)
		return nil
	}
	if err != nil {
		return err
	}
	return c.ensure(sa)
}

// TokenCleaner enqueues the same way, but deletes the account's token
// secret when the account is gone: a dropped deletion leaves the secret.
type TokenCleaner struct {
	queue        workqueue.RateLimitingInterface
	saLister     corelisters.ServiceAccountLister
	deleteTokens func(namespace, name string) error
}

func (c *TokenCleaner) Register(informer cache.SharedIndexInformer) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: c.enqueue,
	})
}

func (c *TokenCleaner) enqueue(obj interface{}) {
	sa, ok := obj.(*v1.ServiceAccount) // want `the deletion is dropped when the object is a cache.DeletedFinalStateUnknown tombstone`
	if !ok {
		return
	}
	key, _ := cache.MetaNamespaceKeyFunc(sa)
	c.queue.Add(key)
}

func (c *TokenCleaner) processNextWorkItem() bool {
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

func (c *TokenCleaner) sync(key string) error {
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	if _, err := c.saLister.ServiceAccounts(namespace).Get(name); errors.IsNotFound(err) {
		return c.deleteTokens(namespace, name)
	}
	return nil
}

// StdlogController is ServiceAccountsController with the sync's NotFound
// line written through the standard library's log rather than klog, as a
// controller that does not use klog writes it (the shape is kubernetes'
// serviceaccounts controller, pkg/controller/serviceaccount). log only
// writes what it is given (kube.IsLogPkg), so the dropped deletion still
// loses nothing.
type StdlogController struct {
	queue    workqueue.RateLimitingInterface
	saLister corelisters.ServiceAccountLister
	ensure   func(sa *v1.ServiceAccount) error
}

func (c *StdlogController) Register(informer cache.SharedIndexInformer) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: c.enqueue,
	})
}

func (c *StdlogController) enqueue(obj interface{}) {
	sa, ok := obj.(*v1.ServiceAccount)
	if !ok {
		return
	}
	key, err := cache.MetaNamespaceKeyFunc(sa)
	if err != nil {
		return
	}
	c.queue.Add(key)
}

func (c *StdlogController) processNextWorkItem() bool {
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

func (c *StdlogController) sync(key string) error {
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	sa, err := c.saLister.ServiceAccounts(namespace).Get(name)
	if errors.IsNotFound(err) {
		log.Printf("service account %s has been deleted", key)
		return nil
	}
	if err != nil {
		return err
	}
	return c.ensure(sa)
}
