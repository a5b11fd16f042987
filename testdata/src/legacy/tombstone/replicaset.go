// Package tombstone holds delete handlers in the shapes of controllers
// written against client-go v0.30, for the tombstone analyzer.
package tombstone

import (
	"fmt"

	apps "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	appsinformers "k8s.io/client-go/informers/apps/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// ReplicaSetController follows the layout of kubernetes' replicaset
// controller of that era: method handlers and a deprecated untyped queue.
type ReplicaSetController struct {
	queue workqueue.RateLimitingInterface
}

func NewReplicaSetController(rsInformer appsinformers.ReplicaSetInformer, podInformer coreinformers.PodInformer) *ReplicaSetController {
	rsc := &ReplicaSetController{
		queue: workqueue.NewRateLimitingQueue(workqueue.DefaultControllerRateLimiter()),
	}
	rsInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    rsc.addRS,
		UpdateFunc: rsc.updateRS,
		DeleteFunc: rsc.deleteRS,
	})
	podInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    rsc.enqueuePod,
		DeleteFunc: rsc.enqueuePod,
	})
	podInformer.Informer().AddEventHandler(cache.ResourceEventHandlerDetailedFuncs{
		DeleteFunc: rsc.deletePod,
	})
	return rsc
}

func (rsc *ReplicaSetController) addRS(obj interface{}) {
	rs := obj.(*apps.ReplicaSet)
	rsc.enqueueRS(rs)
}

func (rsc *ReplicaSetController) updateRS(old, cur interface{}) {
	rsc.enqueueRS(cur.(*apps.ReplicaSet))
}

// deleteRS is the correct shape: silent.
func (rsc *ReplicaSetController) deleteRS(obj interface{}) {
	rs, ok := obj.(*apps.ReplicaSet)
	if !ok {
		tombstone, ok := obj.(cache.DeletedFinalStateUnknown)
		if !ok {
			utilruntime.HandleError(fmt.Errorf("couldn't get object from tombstone %#v", obj))
			return
		}
		rs, ok = tombstone.Obj.(*apps.ReplicaSet)
		if !ok {
			utilruntime.HandleError(fmt.Errorf("tombstone contained object that is not a ReplicaSet %#v", obj))
			return
		}
	}
	key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(rs)
	if err != nil {
		return
	}
	rsc.queue.Add(key)
}

func (rsc *ReplicaSetController) enqueueRS(rs *apps.ReplicaSet) {
	key, err := cache.MetaNamespaceKeyFunc(rs)
	if err != nil {
		return
	}
	rsc.queue.Add(key)
}

// enqueuePod is both the AddFunc and the DeleteFunc.
func (rsc *ReplicaSetController) enqueuePod(obj interface{}) {
	name, err := cache.ObjectToName(obj) // want `cache.ObjectToName returns an error .* \(rsc.enqueuePod is both the AddFunc and the DeleteFunc of an informer handler\)`
	if err != nil {
		return
	}
	rsc.queue.Add(name.String())
}

func (rsc *ReplicaSetController) deletePod(obj interface{}) {
	pod, ok := obj.(*v1.Pod) // want `the deletion is dropped when the object is a cache.DeletedFinalStateUnknown tombstone: the assertion to \*v1.Pod fails`
	if !ok {
		utilruntime.HandleError(fmt.Errorf("expected a Pod, got %T", obj))
		return
	}
	rsc.lowerExpectations(pod)
}

func (rsc *ReplicaSetController) lowerExpectations(pod *v1.Pod) {
	rsc.queue.Add(pod.Namespace)
}

// Endpoints-style handlers with an explicit informer and a filter.
func watchEndpoints(informer cache.SharedIndexInformer, q workqueue.RateLimitingInterface) {
	informer.AddEventHandlerWithResyncPeriod(cache.FilteringResourceEventHandler{
		FilterFunc: func(obj interface{}) bool {
			ep, ok := obj.(*v1.Endpoints) // want `the deletion is dropped .* the assertion to \*v1.Endpoints fails`
			return ok && ep.Namespace == "kube-system"
		},
		Handler: cache.ResourceEventHandlerFuncs{
			DeleteFunc: func(obj interface{}) {
				m, err := meta.Accessor(obj) // want `meta.Accessor returns an error for the cache.DeletedFinalStateUnknown tombstone`
				if err != nil {
					return
				}
				q.Add(m.GetName())
			},
		},
	}, 0)
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			svc := obj.(*v1.Service) // want `type assertion to \*v1.Service panics`
			q.Add(svc.Name)
		},
	})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			key, err := cache.MetaNamespaceKeyFunc(obj) // want `cache.MetaNamespaceKeyFunc returns an error .*; use cache.DeletionHandlingMetaNamespaceKeyFunc`
			if err == nil {
				q.Add(key)
			}
		},
	})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			switch o := obj.(type) { // want `this type switch has no case for it`
			case *v1.Endpoints:
				q.Add(o.Name)
			}
		},
	})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			if t, ok := obj.(*cache.DeletedFinalStateUnknown); ok { // want `never succeeds`
				obj = t.Obj
			}
			if ep, ok := obj.(*v1.Endpoints); ok {
				q.Add(ep.Name)
			}
		},
	})
	// Correct shapes of the same era: silent.
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			switch o := obj.(type) {
			case *v1.Endpoints:
				q.Add(o.Name)
			case cache.DeletedFinalStateUnknown:
				q.Add(o.Key)
			}
		},
	})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			name, err := cache.DeletionHandlingObjectToName(obj)
			if err == nil {
				q.Add(name.Name)
			}
		},
	})
}
