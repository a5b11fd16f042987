package tombstone

// Delete handlers of a v0.30-era controller whose failure path only logs
// the object, after kubernetes' node authorizer graph populator
// (plugin/pkg/auth/authorizer/node/graph_populator.go: assert, and on
// failure log the unexpected type and return) without its tombstone unwrap,
// written with zap, log/slog and reflect as operators of that era logged. A
// logger cannot unwrap a cache.DeletedFinalStateUnknown: each drops the
// deletion.

import (
	"fmt"
	"log/slog"
	"reflect"

	"go.uber.org/zap"
	v1 "k8s.io/api/core/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

type endpointsTracker struct {
	zl    *zap.Logger
	sugar *zap.SugaredLogger
	queue workqueue.RateLimitingInterface
	other cache.ResourceEventHandler
}

func (c *endpointsTracker) register(informer cache.SharedIndexInformer) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.zapAny})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.sugarReflect})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.slogAny})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.reflectType})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.typeSwitch})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.ownLogger})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.loggedThenAsserted})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.zapThenUnwrap})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.handOn})
}

func (c *endpointsTracker) zapAny(obj interface{}) {
	ep, ok := obj.(*v1.Endpoints) // want `the deletion is dropped when the object is a cache.DeletedFinalStateUnknown tombstone: the assertion to \*v1.Endpoints fails and its failure path never unwraps the tombstone`
	if !ok {
		c.zl.Error("unexpected object in delete handler", zap.Any("object", obj))
		return
	}
	c.queue.Add(ep.Namespace + "/" + ep.Name)
}

func (c *endpointsTracker) sugarReflect(obj interface{}) {
	ep, ok := obj.(*v1.Endpoints) // want `the deletion is dropped .* the assertion to \*v1.Endpoints fails`
	if !ok {
		c.sugar.Errorw("unexpected object in delete handler", zap.Reflect("object", obj))
		return
	}
	c.queue.Add(ep.Namespace + "/" + ep.Name)
}

func (c *endpointsTracker) slogAny(obj interface{}) {
	ep, ok := obj.(*v1.Endpoints) // want `the deletion is dropped .* the assertion to \*v1.Endpoints fails`
	if !ok {
		slog.Warn("unexpected object in delete handler", slog.Any("object", obj))
		return
	}
	c.queue.Add(ep.Namespace + "/" + ep.Name)
}

func (c *endpointsTracker) reflectType(obj interface{}) {
	ep, ok := obj.(*v1.Endpoints) // want `the deletion is dropped .* the assertion to \*v1.Endpoints fails`
	if !ok {
		utilruntime.HandleError(fmt.Errorf("unexpected type %v", reflect.TypeOf(obj)))
		return
	}
	c.queue.Add(ep.Namespace + "/" + ep.Name)
}

func (c *endpointsTracker) typeSwitch(obj interface{}) {
	switch o := obj.(type) { // want `the deletion is dropped when the object is a cache.DeletedFinalStateUnknown tombstone: this type switch has no case for it`
	case *v1.Endpoints:
		c.queue.Add(o.Namespace + "/" + o.Name)
	default:
		c.sugar.Errorw("unexpected object in delete handler", "type", reflect.TypeOf(obj))
	}
}

func (c *endpointsTracker) ownLogger(obj interface{}) {
	ep, ok := obj.(*v1.Endpoints) // want `the deletion is dropped .* the assertion to \*v1.Endpoints fails`
	if !ok {
		c.unexpected(obj)
		return
	}
	c.queue.Add(ep.Namespace + "/" + ep.Name)
}

// unexpected is the controller's own helper; it only logs.
func (c *endpointsTracker) unexpected(obj interface{}) {
	c.zl.Warn("unexpected object", zap.Any("object", obj))
}

func (c *endpointsTracker) loggedThenAsserted(obj interface{}) {
	c.zl.Debug("endpoints deleted", zap.Any("object", obj))
	ep := obj.(*v1.Endpoints) // want `type assertion to \*v1.Endpoints panics on the cache.DeletedFinalStateUnknown tombstone`
	c.queue.Add(ep.Namespace + "/" + ep.Name)
}

// Not reported: the tombstone is unwrapped after logging, or the object
// goes on to a handler we cannot see.

func (c *endpointsTracker) zapThenUnwrap(obj interface{}) {
	ep, ok := obj.(*v1.Endpoints)
	if !ok {
		c.zl.Debug("not endpoints, looking for a tombstone", zap.Any("object", obj))
		tombstone, ok := obj.(cache.DeletedFinalStateUnknown)
		if !ok {
			utilruntime.HandleError(fmt.Errorf("couldn't get object from tombstone %#v", obj))
			return
		}
		ep, ok = tombstone.Obj.(*v1.Endpoints)
		if !ok {
			utilruntime.HandleError(fmt.Errorf("tombstone contained object that is not Endpoints %#v", obj))
			return
		}
	}
	c.queue.Add(ep.Namespace + "/" + ep.Name)
}

func (c *endpointsTracker) handOn(obj interface{}) {
	ep, ok := obj.(*v1.Endpoints)
	if !ok {
		c.zl.Info("not endpoints, handing over", zap.Any("object", obj))
		c.other.OnDelete(obj)
		return
	}
	c.queue.Add(ep.Namespace + "/" + ep.Name)
}
