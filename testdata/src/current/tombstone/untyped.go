// Package tombstone holds delete handlers shaped like real controllers, for
// the tombstone analyzer: the wrong shapes carry expectations, the
// right ones must stay silent.
package tombstone

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	appsinformers "k8s.io/client-go/informers/apps/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

type Controller struct {
	queue workqueue.TypedRateLimitingInterface[string]
}

func NewController(pods coreinformers.PodInformer, deployments appsinformers.DeploymentInformer) *Controller {
	c := &Controller{}
	pods.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.addPod,
		UpdateFunc: c.updatePod,
		DeleteFunc: c.deletePod, // unchecked assertion: reported inside deletePod
	})
	deployments.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			d, ok := obj.(*appsv1.Deployment) // want `the deletion is dropped when the object is a cache.DeletedFinalStateUnknown tombstone: the assertion to \*v1.Deployment fails`
			if !ok {
				return
			}
			c.enqueueDeployment(d)
		},
	})
	return c
}

func (c *Controller) addPod(obj interface{}) {
	pod := obj.(*v1.Pod) // add handlers never see tombstones
	c.queue.Add(pod.Namespace + "/" + pod.Name)
}

func (c *Controller) updatePod(old, cur interface{}) {
	pod := cur.(*v1.Pod)
	c.queue.Add(pod.Namespace + "/" + pod.Name)
}

func (c *Controller) deletePod(obj interface{}) {
	pod := obj.(*v1.Pod) // want `type assertion to \*v1.Pod panics on the cache.DeletedFinalStateUnknown tombstone`
	c.queue.Add(pod.Namespace + "/" + pod.Name)
}

func (c *Controller) enqueueDeployment(d *appsv1.Deployment) {
	key, err := cache.MetaNamespaceKeyFunc(d) // not a delete-handler object: the *Deployment is real
	if err != nil {
		utilruntime.HandleError(err)
		return
	}
	c.queue.Add(key)
}

// keyFuncs: the key is extracted with functions that fail on tombstones.
func keyFuncs(informer cache.SharedIndexInformer, q workqueue.TypedRateLimitingInterface[string]) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			key, err := cache.MetaNamespaceKeyFunc(obj) // want `cache.MetaNamespaceKeyFunc returns an error for the cache.DeletedFinalStateUnknown tombstone .*; use cache.DeletionHandlingMetaNamespaceKeyFunc`
			if err != nil {
				utilruntime.HandleError(err)
				return
			}
			q.Add(key)
		},
	})
	informer.AddEventHandlerWithResyncPeriod(cache.ResourceEventHandlerDetailedFuncs{
		DeleteFunc: func(obj interface{}) {
			name, err := cache.ObjectToName(obj) // want `cache.ObjectToName returns an error .*; use cache.DeletionHandlingObjectToName`
			if err != nil {
				return
			}
			q.Add(name.String())
		},
	}, 0)
	informer.AddEventHandlerWithOptions(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			m, err := meta.Accessor(obj) // want `meta.Accessor returns an error for the cache.DeletedFinalStateUnknown tombstone .*; unwrap the tombstone first`
			if err != nil {
				return
			}
			q.Add(m.GetNamespace() + "/" + m.GetName())
		},
	}, cache.HandlerOptions{})
}

// goodKeyFuncs: the deletion-handling variants, and metadata read after
// unwrapping, are silent.
func goodKeyFuncs(informer cache.SharedIndexInformer, q workqueue.TypedRateLimitingInterface[string]) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
			if err != nil {
				utilruntime.HandleError(err)
				return
			}
			q.Add(key)
		},
	})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			name, err := cache.DeletionHandlingObjectToName(obj)
			if err != nil {
				return
			}
			q.Add(name.String())
		},
	})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = tombstone.Obj
			}
			m, err := meta.Accessor(obj)
			if err != nil {
				return
			}
			q.Add(m.GetNamespace() + "/" + m.GetName())
		},
	})
}

// sampleController is the shape of kubernetes' own delete handlers
// (pkg/controller/deployment): silent.
func (c *Controller) deleteDeployment(obj interface{}) {
	d, ok := obj.(*appsv1.Deployment)
	if !ok {
		tombstone, ok := obj.(cache.DeletedFinalStateUnknown)
		if !ok {
			utilruntime.HandleError(fmt.Errorf("couldn't get object from tombstone %#v", obj))
			return
		}
		d, ok = tombstone.Obj.(*appsv1.Deployment)
		if !ok {
			utilruntime.HandleError(fmt.Errorf("tombstone contained object that is not a Deployment %#v", obj))
			return
		}
	}
	klog.V(4).InfoS("Deleting deployment", "deployment", klog.KObj(d))
	c.enqueueDeployment(d)
}

// typeSwitches: a switch with a tombstone case is silent, one without it
// drops the deletion.
func typeSwitches(informer cache.SharedIndexInformer, q workqueue.TypedRateLimitingInterface[string]) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			var pod *v1.Pod
			switch t := obj.(type) {
			case *v1.Pod:
				pod = t
			case cache.DeletedFinalStateUnknown:
				p, ok := t.Obj.(*v1.Pod)
				if !ok {
					return
				}
				pod = p
			default:
				return
			}
			q.Add(pod.Namespace + "/" + pod.Name)
		},
	})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			switch t := obj.(type) { // want `this type switch has no case for it`
			case *v1.Pod:
				q.Add(t.Namespace + "/" + t.Name)
			case *v1.Node:
				q.Add(t.Name)
			}
		},
	})
}

// tombstoneFirst checks for the tombstone before asserting: silent.
func (c *Controller) tombstoneFirst(obj interface{}) {
	if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tombstone.Obj
	}
	pod, ok := obj.(*v1.Pod)
	if !ok {
		return
	}
	c.queue.Add(pod.Namespace + "/" + pod.Name)
}

// ignoresTombstones deliberately skips them: the check is explicit, silent.
func (c *Controller) ignoresTombstones(obj interface{}) {
	if _, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		return
	}
	pod := obj.(*v1.Pod)
	c.queue.Add(pod.Namespace + "/" + pod.Name)
}

// pointerTombstone asserts to a type informers never deliver.
func (c *Controller) pointerTombstone(obj interface{}) {
	pod, ok := obj.(*v1.Pod)
	if !ok {
		tombstone, ok := obj.(*cache.DeletedFinalStateUnknown) // want `the assertion to \*cache.DeletedFinalStateUnknown never succeeds`
		if !ok {
			return
		}
		pod, ok = tombstone.Obj.(*v1.Pod)
		if !ok {
			return
		}
	}
	c.queue.Add(pod.Namespace + "/" + pod.Name)
}

func registerMore(informer cache.SharedIndexInformer, c *Controller) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: c.deleteDeployment,
	})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: c.tombstoneFirst,
	})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: c.ignoresTombstones,
	})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: c.pointerTombstone,
	})
}
