package tombstone

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// GuardController asks a package helper whether an object is its to handle
// before doing anything with it, the shape of the scheduler-name and class
// checks that open the delete handlers of multi-scheduler and ingress-class
// controllers. The helper's failed assertion is where a tombstone is
// dropped: reported there, once. Past the guard no tombstone is left, so
// the handler's own assertion was a second report of the same drop (once
// reported by mistake): silent.
type GuardController struct {
	queue    workqueue.TypedRateLimitingInterface[string]
	assigned map[string]string
}

func (c *GuardController) Register(informer cache.SharedIndexInformer) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.deletePod})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.deleteOwnPod})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.deleteWhenEnabled})
}

// canProcess answers false for anything but one of its pods.
func (c *GuardController) canProcess(obj interface{}) bool {
	pod, ok := obj.(*v1.Pod) // want `the deletion is dropped when the object is a cache.DeletedFinalStateUnknown tombstone: the assertion to \*v1.Pod fails`
	if !ok {
		return false
	}
	return pod.Spec.SchedulerName == "custom-scheduler"
}

func (c *GuardController) deletePod(obj interface{}) {
	if !c.canProcess(obj) {
		return
	}
	pod := obj.(*v1.Pod)
	delete(c.assigned, pod.Namespace+"/"+pod.Name)
	c.queue.Add(pod.Spec.NodeName)
}

// ownPod folds the assertion into its result.
func ownPod(obj interface{}) bool {
	pod, ok := obj.(*v1.Pod) // want `the deletion is dropped when the object is a cache.DeletedFinalStateUnknown tombstone: the assertion to \*v1.Pod fails`
	return ok && pod.Spec.SchedulerName == "custom-scheduler"
}

func (c *GuardController) deleteOwnPod(obj interface{}) {
	if ownPod(obj) {
		pod := obj.(*v1.Pod)
		delete(c.assigned, pod.Namespace+"/"+pod.Name)
	}
}

// enabled does not look at the object: a tombstone passes it, and the
// assertion after it panics (reported).
func (c *GuardController) enabled(obj interface{}) bool {
	return c.assigned != nil
}

func (c *GuardController) deleteWhenEnabled(obj interface{}) {
	if !c.enabled(obj) {
		return
	}
	pod := obj.(*v1.Pod) // want `type assertion to \*v1.Pod panics on the cache.DeletedFinalStateUnknown tombstone`
	delete(c.assigned, pod.Namespace+"/"+pod.Name)
}
