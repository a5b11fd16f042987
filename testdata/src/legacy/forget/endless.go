package forget

import (
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// ConfigController is k8s.io/sample-controller of the client-go v0.30 era
// (controller.go: NewController sets c.syncHandler, processNextWorkItem
// runs it in a closure, AddRateLimited on every error, Forget on success),
// with two syncs: sample-controller's, which returns nil on a NotFound of
// the object the key names, and one that returns that NotFound.
type ConfigController struct {
	workqueue   workqueue.RateLimitingInterface
	cmLister    corelisters.ConfigMapLister
	syncHandler func(key string) error
}

func NewConfigController(lister corelisters.ConfigMapLister, strict bool) *ConfigController {
	c := &ConfigController{
		workqueue: workqueue.NewNamedRateLimitingQueue(workqueue.DefaultControllerRateLimiter(), "Configs"),
		cmLister:  lister,
	}
	c.syncHandler = c.syncConfig
	return c
}

func (c *ConfigController) processNextWorkItem() bool {
	obj, shutdown := c.workqueue.Get()
	if shutdown {
		return false
	}
	err := func(obj interface{}) error {
		defer c.workqueue.Done(obj)
		key, ok := obj.(string)
		if !ok {
			c.workqueue.Forget(obj)
			return nil
		}
		if err := c.syncHandler(key); err != nil {
			c.workqueue.AddRateLimited(key) // want `obj from c.workqueue.Get\(\) is re-queued with AddRateLimited on every error, with no NumRequeues limit, and syncConfig returns the NotFound error of its read of the object the key names`
			return fmt.Errorf("error syncing '%s': %s, requeuing", key, err.Error())
		}
		c.workqueue.Forget(obj)
		return nil
	}(obj)
	if err != nil {
		utilruntime.HandleError(err)
	}
	return true
}

// syncConfig returns the lister's NotFound: a deleted ConfigMap's key is
// retried forever.
func (c *ConfigController) syncConfig(key string) error {
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		utilruntime.HandleError(fmt.Errorf("invalid resource key: %s", key))
		return nil
	}
	cm, err := c.cmLister.ConfigMaps(namespace).Get(name)
	if err != nil {
		return err
	}
	_ = cm
	return nil
}

// SampleController is the same worker with sample-controller's own
// syncHandler: silent.
type SampleController struct {
	workqueue   workqueue.RateLimitingInterface
	cmLister    corelisters.ConfigMapLister
	syncHandler func(key string) error
}

func NewSampleController(lister corelisters.ConfigMapLister) *SampleController {
	c := &SampleController{
		workqueue: workqueue.NewNamedRateLimitingQueue(workqueue.DefaultControllerRateLimiter(), "Samples"),
		cmLister:  lister,
	}
	c.syncHandler = c.syncSample
	return c
}

func (c *SampleController) processNextWorkItem() bool {
	obj, shutdown := c.workqueue.Get()
	if shutdown {
		return false
	}
	err := func(obj interface{}) error {
		defer c.workqueue.Done(obj)
		key, ok := obj.(string)
		if !ok {
			c.workqueue.Forget(obj)
			return nil
		}
		if err := c.syncHandler(key); err != nil {
			c.workqueue.AddRateLimited(key)
			return fmt.Errorf("error syncing '%s': %s, requeuing", key, err.Error())
		}
		c.workqueue.Forget(obj)
		return nil
	}(obj)
	if err != nil {
		utilruntime.HandleError(err)
	}
	return true
}

func (c *SampleController) syncSample(key string) error {
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		utilruntime.HandleError(fmt.Errorf("invalid resource key: %s", key))
		return nil
	}
	cm, err := c.cmLister.ConfigMaps(namespace).Get(name)
	if err != nil {
		if apierrors.IsNotFound(err) {
			utilruntime.HandleError(fmt.Errorf("configmap '%s' in work queue no longer exists", key))
			return nil
		}
		return err
	}
	_ = cm
	return nil
}
