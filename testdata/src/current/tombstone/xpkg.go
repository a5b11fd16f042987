package tombstone

import (
	v1 "k8s.io/api/core/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"

	"example.com/current/tombstone/objutil"
)

// xpkgController hands its delete handlers' objects to helpers of another
// package of the module (objutil). What a helper does to a tombstone is
// known from its facts; a helper that panics on one, or fails so that the
// handler drops the deletion, is reported at the handler's call. The
// shapes are kubernetes' rootcacertpublisher (configMapDeleted calling
// convertToCM) and podgroupprotection (getPod), with the converter moved
// to a shared package, and a metrics recorder held in a field.
type xpkgController struct {
	queue   workqueue.TypedRateLimitingInterface[string]
	metrics *objutil.Recorder
}

func (c *xpkgController) Register(cms, pods cache.SharedIndexInformer) {
	cms.AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(_, newObj interface{}) {
			cm, err := objutil.ConfigMapFromObj(newObj) // an update handler: never a tombstone
			if err != nil {
				return
			}
			c.queue.Add(cm.Namespace)
		},
		DeleteFunc: func(obj interface{}) {
			cm, err := objutil.ConfigMapFromObj(obj) // want `the deletion is dropped when the object is a cache.DeletedFinalStateUnknown tombstone: objutil.ConfigMapFromObj asserts the object to \*v1.ConfigMap and drops it when that fails \(objutil.go:\d+\)`
			if err != nil {
				utilruntime.HandleError(err)
				return
			}
			c.queue.Add(cm.Namespace)
		},
	})
	cms.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			cm, err := objutil.ConvertToCM(obj) // unwraps the tombstone
			if err != nil {
				utilruntime.HandleError(err)
				return
			}
			c.queue.Add(cm.Namespace)
		},
	})
	pods.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			c.queue.Add(objutil.PodOf(obj).Namespace) // an add handler
		},
		DeleteFunc: func(obj interface{}) {
			pod := objutil.PodOf(obj) // want `objutil.PodOf panics on the cache.DeletedFinalStateUnknown tombstone a delete handler receives after a missed watch event: it asserts the object to \*v1.Pod without a tombstone check \(objutil.go:\d+\)`
			c.queue.Add(pod.Namespace)
		},
	})
	pods.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.deletePod})
	pods.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.deletePodByKey})
	pods.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.deletePodRetried})
	pods.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.deletePodDescribed})
	pods.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.deletePodGood})
	pods.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.enqueuePodKey})
}

// deletePod records the deletion in a metric that panics on tombstones.
func (c *xpkgController) deletePod(obj interface{}) {
	c.metrics.RecordDelete(obj) // want `objutil.Recorder.RecordDelete panics on the cache.DeletedFinalStateUnknown tombstone .*: it asserts the object to \*v1.Pod without a tombstone check \(objutil.go:\d+\)`
	key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		return
	}
	c.queue.Add(key)
}

// deletePodByKey takes the key through a wrapper of MetaNamespaceKeyFunc.
func (c *xpkgController) deletePodByKey(obj interface{}) {
	key, err := objutil.KeyOf(obj) // want `the deletion is dropped when the object is a cache.DeletedFinalStateUnknown tombstone: objutil.KeyOf passes the object to cache.MetaNamespaceKeyFunc, which returns an error for a tombstone \(objutil.go:\d+\)`
	if err != nil {
		utilruntime.HandleError(err)
		return
	}
	c.queue.Add(key)
}

// deletePodRetried unwraps the tombstone itself when the helper fails:
// the helper's drop is not the handler's (silent).
func (c *xpkgController) deletePodRetried(obj interface{}) {
	key, err := objutil.KeyOf(obj)
	if err != nil {
		tombstone, ok := obj.(cache.DeletedFinalStateUnknown)
		if !ok {
			return
		}
		if key, err = objutil.KeyOf(tombstone.Obj); err != nil {
			return
		}
	}
	c.queue.Add(key)
}

// deletePodDescribed hands the object to a helper that only logs it, then
// asserts: the helper cannot have unwrapped anything, so the assertion is
// reported (before facts, any call into another package counted as a
// possible unwrap).
func (c *xpkgController) deletePodDescribed(obj interface{}) {
	objutil.Describe(obj)
	pod := obj.(*v1.Pod) // want `type assertion to \*v1.Pod panics on the cache.DeletedFinalStateUnknown tombstone`
	c.queue.Add(pod.Namespace)
}

// deletePodGood uses the helpers that unwrap (silent).
func (c *xpkgController) deletePodGood(obj interface{}) {
	c.metrics.RecordDeleteChecked(obj)
	pod := objutil.GetPod(obj)
	if pod == nil {
		return
	}
	key, err := objutil.DeletionKeyOf(obj)
	if err != nil {
		return
	}
	c.queue.Add(key)
}

// enqueuePodKey reaches the helper's panic through a helper of the
// helper's own package; the call is reported in the package helper the
// handler passes the object to.
func (c *xpkgController) enqueuePodKey(obj interface{}) {
	c.enqueue(obj)
}

func (c *xpkgController) enqueue(obj interface{}) {
	c.queue.Add(objutil.PodKey(obj)) // want `objutil.PodKey panics on the cache.DeletedFinalStateUnknown tombstone .*: it passes the object to podOf, which asserts the object to \*v1.Pod without a tombstone check \(objutil.go:\d+\) \(the object comes from the DeleteFunc c.enqueuePodKey\)`
}
