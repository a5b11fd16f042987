// Package cachemutation holds a controller on client-go v0.30, whose
// generated listers are per-type structs rather than the generic
// listers.ResourceIndexer[T] of v0.37, for the cachemutation analyzer.
package cachemutation

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
)

type Controller struct {
	client     kubernetes.Interface
	podLister  corelisters.PodLister
	rsLister   appslisters.ReplicaSetLister
	podIndexer cache.Indexer
}

func (c *Controller) syncPod(ctx context.Context, ns, name string) error {
	pod, err := c.podLister.Pods(ns).Get(name)
	if err != nil {
		return err
	}
	pod.Labels["synced"] = "true" // want `pod from c\.podLister\.Pods\(ns\)\.Get is modified \(pod\.Labels\[\.\.\.\] = \.\.\.\)`
	_, err = c.client.CoreV1().Pods(ns).Update(ctx, pod, metav1.UpdateOptions{})
	return err
}

func (c *Controller) scale(ns string, replicas int32) error {
	sets, err := c.rsLister.ReplicaSets(ns).List(labels.Everything())
	if err != nil {
		return err
	}
	for _, rs := range sets {
		rs.Spec.Replicas = &replicas // want `an element of sets from c\.rsLister\.ReplicaSets\(ns\)\.List is modified \(rs\.Spec\.Replicas = \.\.\.\)`
	}
	return nil
}

func (c *Controller) byKey(key string) error {
	obj, exists, err := c.podIndexer.GetByKey(key)
	if err != nil || !exists {
		return err
	}
	pod := obj.(*corev1.Pod)
	pod.Status.Phase = corev1.PodFailed // want `obj from c\.podIndexer\.GetByKey is modified \(pod\.Status\.Phase = \.\.\.\)`
	return nil
}

// copied: silent.
func (c *Controller) copied(ctx context.Context, ns, name string) error {
	rs, err := c.rsLister.ReplicaSets(ns).Get(name)
	if err != nil {
		return err
	}
	rs = rs.DeepCopy()
	rs.Status.ObservedGeneration = rs.Generation
	_, err = c.client.AppsV1().ReplicaSets(ns).UpdateStatus(ctx, rs, metav1.UpdateOptions{})
	return err
}
