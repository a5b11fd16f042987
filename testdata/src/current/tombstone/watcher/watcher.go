// Package watcher wraps informers for the controllers of other packages,
// which implement its handler interfaces: the tombstone analyzer exports
// which interface methods receive the objects of a DeleteFunc, tombstones
// included, and treats their implementations in importing packages as
// delete handlers.
package watcher

import (
	"k8s.io/client-go/tools/cache"
)

// EventHandler is what a controller implements to hear of a resource. The
// shape is that of operators' own watcher packages (a ResourceWatcher
// holding []EventHandler whose DeleteFunc calls h.OnDelete(obj) for each,
// as in bk-bcs' bcs-k8s-watch WatcherInterface with its DeleteEvent(obj
// interface{})): the DeleteFunc's object is handed on untouched, so every
// OnDelete sees tombstones.
type EventHandler interface {
	OnAdd(obj interface{})
	OnUpdate(oldObj, newObj interface{})
	OnDelete(obj interface{})
}

// ResourceWatcher dispatches one informer's events to its handlers.
type ResourceWatcher struct {
	informer cache.SharedIndexInformer
	handlers []EventHandler
}

// NewResourceWatcher wraps informer.
func NewResourceWatcher(informer cache.SharedIndexInformer) *ResourceWatcher {
	return &ResourceWatcher{informer: informer}
}

// Register adds a handler.
func (w *ResourceWatcher) Register(h EventHandler) {
	w.handlers = append(w.handlers, h)
}

// Start registers the dispatching handler on the informer.
func (w *ResourceWatcher) Start() {
	w.informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			for _, h := range w.handlers {
				h.OnAdd(obj)
			}
		},
		UpdateFunc: func(oldObj, newObj interface{}) {
			for _, h := range w.handlers {
				h.OnUpdate(oldObj, newObj)
			}
		},
		DeleteFunc: func(obj interface{}) {
			for _, h := range w.handlers {
				h.OnDelete(obj)
			}
		},
	})
}

// Listener is the interface of a watcher that unwraps tombstones before
// it calls its listeners, as kubernetes' kube-proxy config package does
// (pkg/proxy/config/config.go, handleDeleteEndpointSlice, which unwraps and
// then calls each handler's OnEndpointSliceDelete): its implementations
// never see a tombstone, and are not delete handlers.
type Listener interface {
	Deleted(obj interface{})
}

// UnwrappingWatcher dispatches deletions to listeners, tombstones unwrapped.
type UnwrappingWatcher struct {
	listeners []Listener
}

// Listen adds a listener and registers on informer.
func (w *UnwrappingWatcher) Listen(informer cache.SharedIndexInformer, l Listener) {
	w.listeners = append(w.listeners, l)
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: w.handleDelete})
}

func (w *UnwrappingWatcher) handleDelete(obj interface{}) {
	if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tombstone.Obj
	}
	for _, l := range w.listeners {
		l.Deleted(obj)
	}
}

// Notifier is called only with live objects (an add handler's): its
// implementations are not delete handlers.
type Notifier interface {
	Seen(obj interface{})
}

// Notify registers n for additions.
func Notify(informer cache.SharedIndexInformer, n Notifier) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) { n.Seen(obj) },
	})
}
