// Package cachemutation holds controllers that write to objects they read
// from informer caches, for the cachemutation analyzer.
package cachemutation

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
)

// Controller is shaped like k8s.io/sample-controller.
type Controller struct {
	kubeclientset     kubernetes.Interface
	deploymentsLister appslisters.DeploymentLister
	podLister         corelisters.PodLister
	rsLister          appslisters.ReplicaSetLister
}

func (c *Controller) syncLabels(ctx context.Context, key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	pod, err := c.podLister.Pods(ns).Get(name)
	if err != nil {
		return err
	}
	pod.Labels["synced"] = "true" // want `pod from c\.podLister\.Pods\(ns\)\.Get is modified \(pod\.Labels\[\.\.\.\] = \.\.\.\) without DeepCopy: the write changes the informer cache shared by every controller`
	_, err = c.kubeclientset.CoreV1().Pods(ns).Update(ctx, pod, metav1.UpdateOptions{})
	return err
}

func (c *Controller) syncReplicas(ctx context.Context, ns, name string, replicas int32) error {
	d, err := c.deploymentsLister.Deployments(ns).Get(name)
	if err != nil {
		return err
	}
	if d.Spec.Replicas != nil && *d.Spec.Replicas == replicas {
		return nil
	}
	d.Spec.Replicas = &replicas // want `d from c\.deploymentsLister\.Deployments\(ns\)\.Get is modified \(d\.Spec\.Replicas = \.\.\., and 1 more write\)`
	d.Annotations["replicas"] = fmt.Sprint(replicas)
	_, err = c.kubeclientset.AppsV1().Deployments(ns).Update(ctx, d, metav1.UpdateOptions{})
	return err
}

// syncStatus writes deep inside the object, through an alias of its spec
// and into an element of a slice.
func (c *Controller) syncStatus(ctx context.Context, ns, name string) error {
	d, err := c.deploymentsLister.Deployments(ns).Get(name)
	if err != nil {
		return err
	}
	for i := range d.Status.Conditions {
		if d.Status.Conditions[i].Type == appsv1.DeploymentProgressing {
			d.Status.Conditions[i].Status = corev1.ConditionTrue // want `d from c\.deploymentsLister\.Deployments\(ns\)\.Get is modified \(d\.Status\.Conditions\[\.\.\.\]\.Status = \.\.\.\)`
		}
	}
	_, err = c.kubeclientset.AppsV1().Deployments(ns).UpdateStatus(ctx, d, metav1.UpdateOptions{})
	return err
}

func (c *Controller) pause(ns, name string) error {
	d, err := c.deploymentsLister.Deployments(ns).Get(name)
	if err != nil {
		return err
	}
	spec := &d.Spec
	spec.Paused = true // want `d from c\.deploymentsLister\.Deployments\(ns\)\.Get is modified \(spec\.Paused = \.\.\.\)`
	return nil
}

func (c *Controller) addFinalizer(ns, name string) error {
	pod, err := c.podLister.Pods(ns).Get(name)
	if err != nil {
		return err
	}
	pod.Finalizers = append(pod.Finalizers, "example.com/cleanup") // want `pod from c\.podLister\.Pods\(ns\)\.Get is modified \(pod\.Finalizers = \.\.\.\)`
	return nil
}

func (c *Controller) setters(ns, name string) error {
	pod, err := c.podLister.Pods(ns).Get(name)
	if err != nil {
		return err
	}
	pod.SetAnnotations(map[string]string{"a": "b"}) // want `pod from c\.podLister\.Pods\(ns\)\.Get is modified \(pod\.SetAnnotations\(\.\.\.\)\)`
	return nil
}

func (c *Controller) metaHelper(name string) error {
	node, err := c.nodeLister().Get(name)
	if err != nil {
		return err
	}
	metav1.SetMetaDataLabel(&node.ObjectMeta, "zone", "a") // want `node from c\.nodeLister\(\)\.Get is modified \(metav1\.SetMetaDataLabel\(\.\.\.\)\)`
	return nil
}

func (c *Controller) nodeLister() corelisters.NodeLister { return nil }

// scaleAll writes to every element of a List result: ranging over the
// fresh slice yields the cached pointers.
func (c *Controller) scaleAll(ns string) error {
	pods, err := c.podLister.Pods(ns).List(labels.Everything())
	if err != nil {
		return err
	}
	for _, p := range pods {
		if p.Annotations == nil {
			continue
		}
		delete(p.Annotations, "stale") // want `an element of pods from c\.podLister\.Pods\(ns\)\.List is modified \(delete\(\.\.\.\)\)`
	}
	return nil
}

func (c *Controller) firstPod(ns string) error {
	pods, err := c.podLister.List(labels.Everything())
	if err != nil || len(pods) == 0 {
		return err
	}
	pods[0].Spec.NodeName = "" // want `an element of pods from c\.podLister\.List is modified \(pods\[\.\.\.\]\.Spec\.NodeName = \.\.\.\)`
	return nil
}

// expansion methods of generated listers return cached objects too.
func (c *Controller) adoptReplicaSets(pod *corev1.Pod) error {
	sets, err := c.rsLister.GetPodReplicaSets(pod)
	if err != nil {
		return err
	}
	for _, rs := range sets {
		rs.OwnerReferences = nil // want `an element of sets from c\.rsLister\.GetPodReplicaSets is modified \(rs\.OwnerReferences = \.\.\.\)`
	}
	return nil
}
