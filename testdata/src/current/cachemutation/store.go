package cachemutation

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/tools/cache"
)

// StoreController reads through untyped stores and indexers, shaped like
// kubernetes' controllers that keep an informer's indexer.
type StoreController struct {
	podIndexer      cache.Indexer
	podInformer     cache.SharedIndexInformer
	secretInformer  coreinformers.SecretInformer
	podIndexInf     coreinformers.PodIndexInformer
	configMapLister cache.GenericLister
}

func (c *StoreController) syncKey(key string) error {
	obj, exists, err := c.podIndexer.GetByKey(key)
	if err != nil || !exists {
		return err
	}
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return fmt.Errorf("unexpected object %T", obj)
	}
	pod.Status.Phase = corev1.PodFailed // want `obj from c\.podIndexer\.GetByKey is modified \(pod\.Status\.Phase = \.\.\.\)`
	return nil
}

func (c *StoreController) byNode(node string) error {
	objs, err := c.podIndexer.ByIndex("node", node)
	if err != nil {
		return err
	}
	for _, o := range objs {
		pod := o.(*corev1.Pod)
		pod.Spec.NodeName = "" // want `an element of objs from c\.podIndexer\.ByIndex is modified \(pod\.Spec\.NodeName = \.\.\.\)`
	}
	return nil
}

func (c *StoreController) fromInformerStore() {
	for _, o := range c.podInformer.GetStore().List() {
		if pod, ok := o.(*corev1.Pod); ok {
			pod.Annotations["seen"] = "yes" // want `an object from c\.podInformer\.GetStore\(\)\.List is modified \(pod\.Annotations\[\.\.\.\] = \.\.\.\)`
		}
	}
}

func (c *StoreController) fromIndexer(key string) error {
	obj, exists, err := c.secretInformer.Informer().GetIndexer().GetByKey(key)
	if err != nil || !exists {
		return err
	}
	secret := obj.(*corev1.Secret)
	secret.Data["token"] = nil // want `obj from c\.secretInformer\.Informer\(\)\.GetIndexer\(\)\.GetByKey is modified \(secret\.Data\[\.\.\.\] = \.\.\.\)`
	return nil
}

// accessor: meta.Accessor returns the object it is given.
func (c *StoreController) accessor(key string) error {
	obj, _, err := c.podIndexer.GetByKey(key)
	if err != nil {
		return err
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return err
	}
	m.SetResourceVersion("") // want `obj from c\.podIndexer\.GetByKey is modified \(m\.SetResourceVersion\(\.\.\.\)\)`
	return nil
}

// typedIndexer: v0.37's TypedIndexer returns typed cached objects.
func (c *StoreController) typedIndexer(node string) error {
	pods, err := c.podIndexInf.GetTypedIndexer().ByTypedIndex("node", node)
	if err != nil {
		return err
	}
	for _, pod := range pods {
		pod.Status.Message = "evicted" // want `an element of pods from c\.podIndexInf\.GetTypedIndexer\(\)\.ByTypedIndex is modified \(pod\.Status\.Message = \.\.\.\)`
	}
	return nil
}

func (c *StoreController) generic(ns, name string) error {
	obj, err := c.configMapLister.ByNamespace(ns).Get(name)
	if err != nil {
		return err
	}
	cm := obj.(*corev1.ConfigMap)
	cm.Data = map[string]string{} // want `obj from c\.configMapLister\.ByNamespace\(ns\)\.Get is modified \(cm\.Data = \.\.\.\)`
	return nil
}

// copied: the right shapes for untyped stores. Silent.
func (c *StoreController) copied(key string) error {
	obj, exists, err := c.podIndexer.GetByKey(key)
	if err != nil || !exists {
		return err
	}
	pod := obj.(*corev1.Pod).DeepCopy()
	pod.Status.Phase = corev1.PodFailed
	var own corev1.Pod
	obj.(*corev1.Pod).DeepCopyInto(&own)
	own.Labels = map[string]string{}
	fresh := obj.(*corev1.Pod).DeepCopyObject().(*corev1.Pod)
	fresh.Spec.NodeName = ""
	return nil
}
