// Package objutil holds object helpers that controllers of other packages
// call from their delete handlers: the tombstone analyzer follows the
// deleted object into them through facts, and reports at the handler's
// call. Nothing here is a handler, so nothing here is reported.
package objutil

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
)

// ConfigMapFromObj is kubernetes' convertToCM
// (pkg/controller/certificates/rootcacertpublisher/publisher.go) moved to a
// shared package, without its DeletedFinalStateUnknown branch: it fails on
// a tombstone, and a delete handler that returns on the error drops the
// deletion.
func ConfigMapFromObj(obj interface{}) (*v1.ConfigMap, error) {
	cm, ok := obj.(*v1.ConfigMap)
	if !ok {
		return nil, fmt.Errorf("unexpected object %T", obj)
	}
	return cm, nil
}

// ConvertToCM is convertToCM as kubernetes has it: it unwraps the
// tombstone (silent at every call).
func ConvertToCM(obj interface{}) (*v1.ConfigMap, error) {
	cm, ok := obj.(*v1.ConfigMap)
	if !ok {
		tombstone, ok := obj.(cache.DeletedFinalStateUnknown)
		if !ok {
			return nil, fmt.Errorf("couldn't get object from tombstone %#v", obj)
		}
		cm, ok = tombstone.Obj.(*v1.ConfigMap)
		if !ok {
			return nil, fmt.Errorf("tombstone contained object that is not a ConfigMap %#v", obj)
		}
	}
	return cm, nil
}

// GetPod is kubernetes' getPod
// (pkg/controller/scheduling/podgroupprotection) as a shared helper: it
// unwraps the tombstone and returns nil for anything else (silent).
func GetPod(obj interface{}) *v1.Pod {
	if obj == nil {
		return nil
	}
	pod, ok := obj.(*v1.Pod)
	if !ok {
		tombstone, ok := obj.(cache.DeletedFinalStateUnknown)
		if !ok {
			utilruntime.HandleError(fmt.Errorf("couldn't get object from tombstone %#v", obj))
			return nil
		}
		pod, ok = tombstone.Obj.(*v1.Pod)
		if !ok {
			utilruntime.HandleError(fmt.Errorf("tombstone contained object that is not a Pod %#v", obj))
			return nil
		}
	}
	return pod
}

// PodOf asserts without a check, as the add and update handlers that share
// it may: it panics on a tombstone.
func PodOf(obj interface{}) *v1.Pod {
	return obj.(*v1.Pod)
}

// PodKey reaches the panic through a helper of its own package.
func PodKey(obj interface{}) string {
	pod := podOf(obj)
	return pod.Namespace + "/" + pod.Name
}

func podOf(obj interface{}) *v1.Pod {
	return obj.(*v1.Pod)
}

// KeyOf wraps the key function that fails on a tombstone.
func KeyOf(obj interface{}) (string, error) {
	return cache.MetaNamespaceKeyFunc(obj)
}

// DeletionKeyOf wraps the one that unwraps it (silent).
func DeletionKeyOf(obj interface{}) (string, error) {
	return cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
}

// Describe only logs the object: it leaves a tombstone as it was, so the
// handler's own assertion after the call is still checked.
func Describe(obj interface{}) {
	klog.V(4).Infof("handling %T", obj)
}

// Recorder counts deletions per namespace, the shape of a metrics
// recorder a controller holds in a field (c.metrics.RecordDelete(obj)).
type Recorder struct {
	deletes map[string]int
}

// RecordDelete panics on a tombstone.
func (r *Recorder) RecordDelete(obj interface{}) {
	pod := obj.(*v1.Pod)
	r.deletes[pod.Namespace]++
}

// RecordDeleteChecked drops what it cannot count, after unwrapping
// (silent).
func (r *Recorder) RecordDeleteChecked(obj interface{}) {
	if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tombstone.Obj
	}
	if pod, ok := obj.(*v1.Pod); ok {
		r.deletes[pod.Namespace]++
	}
}
