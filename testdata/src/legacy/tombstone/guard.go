package tombstone

import (
	apps "k8s.io/api/apps/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// PausedController checks with a package helper whether a deployment is
// its to handle before its delete handler asserts the object, the shape of
// the class and pause checks that open delete handlers of that era's
// controllers. The helper's failed assertion drops the tombstone and is
// reported, once; past the guard no tombstone is left, so the handler's own
// assertion is silent (once reported by mistake as a second finding).
type PausedController struct {
	queue   workqueue.RateLimitingInterface
	rollout map[string]bool
}

func (c *PausedController) Register(informer cache.SharedIndexInformer) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.deleteDeployment})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.deleteTracked})
}

func (c *PausedController) canProcess(obj interface{}) bool {
	d, ok := obj.(*apps.Deployment) // want `the deletion is dropped when the object is a cache.DeletedFinalStateUnknown tombstone: the assertion to \*(v1|apps).Deployment fails`
	if !ok {
		return false
	}
	return !d.Spec.Paused
}

func (c *PausedController) deleteDeployment(obj interface{}) {
	if !c.canProcess(obj) {
		return
	}
	d := obj.(*apps.Deployment)
	delete(c.rollout, d.Namespace+"/"+d.Name)
	c.queue.Add(d.Namespace + "/" + d.Name)
}

// tracking does not look at the object: a tombstone passes it, and the
// assertion after it panics (reported).
func (c *PausedController) tracking(obj interface{}) bool {
	return len(c.rollout) > 0
}

func (c *PausedController) deleteTracked(obj interface{}) {
	if !c.tracking(obj) {
		return
	}
	d := obj.(*apps.Deployment) // want `type assertion to \*(v1|apps).Deployment panics on the cache.DeletedFinalStateUnknown tombstone`
	delete(c.rollout, d.Namespace+"/"+d.Name)
}
