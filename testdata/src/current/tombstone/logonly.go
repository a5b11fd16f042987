package tombstone

// Delete handlers whose failure path only logs, formats or counts the
// object. The shape is kubernetes' node authorizer graph populator
// (plugin/pkg/auth/authorizer/node/graph_populator.go, deletePod/deletePV:
// assert, and on failure klog.Infof("unexpected type %T", obj) and return),
// without its tombstone unwrap, and with the loggers operators use instead
// of klog: zap (knative, many operators), log/slog, logr, and a dropped-event
// counter. A logger cannot unwrap a cache.DeletedFinalStateUnknown, so each
// of these drops the deletion.

import (
	"fmt"
	"log"
	"log/slog"
	"reflect"

	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
	v1 "k8s.io/api/core/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
)

var droppedEvents = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "dropped_events_total"}, []string{"type"})

// deleteFallback is another component's handler, in a package we cannot see.
type deleteFallback interface {
	OnDelete(obj interface{})
}

type podTracker struct {
	zl       *zap.Logger
	sugar    *zap.SugaredLogger
	lr       logr.Logger
	sl       *slog.Logger
	fallback deleteFallback
	pods     chan *v1.Pod
}

func (c *podTracker) register(informer cache.SharedIndexInformer) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.zapAny})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.zapSugar})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.slogAny})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.reflectType})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.logrValues})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.klogInfof})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.metric})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.stdlog})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.handleErrorWithContext})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.typeSwitchZap})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.ownLogger})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.loggedThenAsserted})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.zapThenUnwrap})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.klogThenUnwrap})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.ownLoggerThatHandsOn})
}

func (c *podTracker) zapAny(obj interface{}) {
	pod, ok := obj.(*v1.Pod) // want `the deletion is dropped when the object is a cache.DeletedFinalStateUnknown tombstone: the assertion to \*v1.Pod fails and its failure path never unwraps the tombstone`
	if !ok {
		c.zl.Error("unexpected object in delete handler", zap.Any("object", obj))
		return
	}
	c.pods <- pod
}

func (c *podTracker) zapSugar(obj interface{}) {
	pod, ok := obj.(*v1.Pod) // want `the deletion is dropped .* the assertion to \*v1.Pod fails`
	if !ok {
		c.sugar.Errorw("unexpected object in delete handler", zap.Reflect("object", obj))
		return
	}
	c.pods <- pod
}

func (c *podTracker) slogAny(obj interface{}) {
	pod, ok := obj.(*v1.Pod) // want `the deletion is dropped .* the assertion to \*v1.Pod fails`
	if !ok {
		c.sl.Warn("unexpected object in delete handler", slog.Any("object", obj))
		return
	}
	c.pods <- pod
}

func (c *podTracker) reflectType(obj interface{}) {
	pod, ok := obj.(*v1.Pod) // want `the deletion is dropped .* the assertion to \*v1.Pod fails`
	if !ok {
		klog.Errorf("unexpected type %v", reflect.TypeOf(obj))
		return
	}
	c.pods <- pod
}

func (c *podTracker) logrValues(obj interface{}) {
	pod, ok := obj.(*v1.Pod) // want `the deletion is dropped .* the assertion to \*v1.Pod fails`
	if !ok {
		c.lr.WithValues("object", obj).V(2).Info("unexpected object in delete handler")
		return
	}
	c.pods <- pod
}

func (c *podTracker) klogInfof(obj interface{}) {
	pod, ok := obj.(*v1.Pod) // want `the deletion is dropped .* the assertion to \*v1.Pod fails`
	if !ok {
		klog.Infof("unexpected type %T", obj)
		return
	}
	c.pods <- pod
}

func (c *podTracker) metric(obj interface{}) {
	pod, ok := obj.(*v1.Pod) // want `the deletion is dropped .* the assertion to \*v1.Pod fails`
	if !ok {
		droppedEvents.WithLabelValues(fmt.Sprintf("%T", obj)).Inc()
		return
	}
	c.pods <- pod
}

func (c *podTracker) stdlog(obj interface{}) {
	pod, ok := obj.(*v1.Pod) // want `the deletion is dropped .* the assertion to \*v1.Pod fails`
	if !ok {
		log.Printf("unexpected object %v", obj)
		return
	}
	c.pods <- pod
}

func (c *podTracker) handleErrorWithContext(obj interface{}) {
	pod, ok := obj.(*v1.Pod) // want `the deletion is dropped .* the assertion to \*v1.Pod fails`
	if !ok {
		utilruntime.HandleErrorWithContext(nil, nil, "unexpected object in delete handler", "object", obj)
		return
	}
	c.pods <- pod
}

func (c *podTracker) typeSwitchZap(obj interface{}) {
	switch o := obj.(type) { // want `the deletion is dropped when the object is a cache.DeletedFinalStateUnknown tombstone: this type switch has no case for it`
	case *v1.Pod:
		c.pods <- o
	default:
		c.zl.Error("unexpected object in delete handler", zap.Any("object", obj))
	}
}

// ownLogger is the controller's own helper, and only logs: it is followed,
// and it does not unwrap either.
func (c *podTracker) ownLogger(obj interface{}) {
	pod, ok := obj.(*v1.Pod) // want `the deletion is dropped .* the assertion to \*v1.Pod fails`
	if !ok {
		c.logUnexpected(obj)
		return
	}
	c.pods <- pod
}

func (c *podTracker) logUnexpected(obj interface{}) {
	c.zl.Error("unexpected object", zap.Any("object", obj), zap.Stringer("type", reflect.TypeOf(obj)))
}

// loggedThenAsserted: logging the object first does not unwrap it, so the
// assertion after it still sees the tombstone.
func (c *podTracker) loggedThenAsserted(obj interface{}) {
	c.zl.Debug("pod deleted", zap.Any("object", obj))
	pod := obj.(*v1.Pod) // want `type assertion to \*v1.Pod panics on the cache.DeletedFinalStateUnknown tombstone`
	c.pods <- pod
}

// The same loggers beside a tombstone unwrap: not reported.

func (c *podTracker) zapThenUnwrap(obj interface{}) {
	pod, ok := obj.(*v1.Pod)
	if !ok {
		c.zl.Debug("not a pod, looking for a tombstone", zap.Any("object", obj))
		tombstone, ok := obj.(cache.DeletedFinalStateUnknown)
		if !ok {
			c.zl.Error("unexpected object in delete handler", zap.Any("object", obj))
			return
		}
		if pod, ok = tombstone.Obj.(*v1.Pod); !ok {
			c.zl.Error("tombstone holds an unexpected object", zap.Any("object", tombstone.Obj))
			return
		}
	}
	c.pods <- pod
}

func (c *podTracker) klogThenUnwrap(obj interface{}) {
	klog.V(4).InfoS("pod deleted", "object", obj)
	if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tombstone.Obj
	}
	pod, ok := obj.(*v1.Pod)
	if !ok {
		klog.Infof("unexpected type %T", obj)
		return
	}
	c.pods <- pod
}

// ownLoggerThatHandsOn logs and also hands the object to a component we
// cannot see, which may unwrap it: not inert, not reported.
func (c *podTracker) ownLoggerThatHandsOn(obj interface{}) {
	pod, ok := obj.(*v1.Pod)
	if !ok {
		c.logAndFallBack(obj)
		return
	}
	c.pods <- pod
}

func (c *podTracker) logAndFallBack(obj interface{}) {
	c.zl.Info("not a pod, handing over", zap.Any("object", obj))
	c.fallback.OnDelete(obj)
}
