package cachemutation

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
)

// RuleSelector is shaped on prometheus-operator v0.38.0's selectRules
// (pkg/prometheus/rules.go): cache.ListAllByNamespace hands its callback
// each object of the informer's indexer, the callback passes the object's
// spec by value to a helper, and the helper writes through the slices the
// copy shares with the cached object (fixed in v0.38.1 by
// obj.(*monitoringv1.PrometheusRule).DeepCopy()).
type RuleSelector struct {
	podInf cache.SharedIndexInformer
}

func (c *RuleSelector) selectPods(ns string) ([]string, error) {
	var out []string
	err := cache.ListAllByNamespace(c.podInf.GetIndexer(), ns, labels.Everything(), func(obj interface{}) {
		pod := obj.(*corev1.Pod)
		out = append(out, enforceNamespace(pod.Spec, ns)) // want `an object from cache\.ListAllByNamespace's callback is modified \(enforceNamespace\(\.\.\.\), which does spec\.Containers\[\.\.\.\]\.Env = \.\.\. at listall\.go:\d+\) without DeepCopy`
	})
	return out, err
}

// selectPodsCopied is v0.38.1's: the callback copies the object. Silent.
func (c *RuleSelector) selectPodsCopied(ns string) ([]string, error) {
	var out []string
	err := cache.ListAllByNamespace(c.podInf.GetIndexer(), ns, labels.Everything(), func(obj interface{}) {
		pod := obj.(*corev1.Pod).DeepCopy()
		out = append(out, enforceNamespace(pod.Spec, ns))
	})
	return out, err
}

// names only reads what cache.ListAll hands it. Silent.
func (c *RuleSelector) names() ([]string, error) {
	var out []string
	err := cache.ListAll(c.podInf.GetStore(), labels.Everything(), func(obj interface{}) {
		out = append(out, obj.(*corev1.Pod).Name)
	})
	return out, err
}

func enforceNamespace(spec corev1.PodSpec, ns string) string {
	for i := range spec.Containers {
		spec.Containers[i].Env = append(spec.Containers[i].Env, corev1.EnvVar{Name: "NAMESPACE", Value: ns})
	}
	return spec.Containers[0].Name
}
