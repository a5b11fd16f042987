package cachemutation

import (
	"context"
	"sort"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// The right idioms: none of these is reported.

func (c *Controller) copyFirst(ctx context.Context, ns, name string) error {
	pod, err := c.podLister.Pods(ns).Get(name)
	if err != nil {
		return err
	}
	newPod := pod.DeepCopy()
	newPod.Labels["synced"] = "true"
	if equality.Semantic.DeepEqual(pod, newPod) {
		return nil
	}
	_, err = c.kubeclientset.CoreV1().Pods(ns).Update(ctx, newPod, metav1.UpdateOptions{})
	return err
}

func (c *Controller) copyInPlace(ns, name string) error {
	pod, err := c.podLister.Pods(ns).Get(name)
	if err != nil {
		return err
	}
	if pod.Labels["synced"] == "true" {
		return nil
	}
	pod = pod.DeepCopy()
	pod.Labels["synced"] = "true"
	markSynced(pod)
	return nil
}

// fromClient: objects from the API server are the caller's own.
func (c *Controller) fromClient(ctx context.Context, ns, name string) error {
	pod, err := c.kubeclientset.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	pod.Labels["synced"] = "true"
	markSynced(pod)
	return nil
}

// listSort sorts and trims the fresh slice List returns: the slice is the
// caller's, only its elements are shared.
func (c *Controller) listSort(ns string) ([]*corev1.Pod, error) {
	pods, err := c.podLister.Pods(ns).List(labels.Everything())
	if err != nil {
		return nil, err
	}
	sort.Slice(pods, func(i, j int) bool { return pods[i].Name < pods[j].Name })
	pods[0] = nil
	pods = append(pods[:0], pods[1:]...)
	return pods, nil
}

// copies builds a slice of copies and writes to them.
func (c *Controller) copies(ns string) error {
	pods, err := c.podLister.Pods(ns).List(labels.Everything())
	if err != nil {
		return err
	}
	var out []*corev1.Pod
	for _, p := range pods {
		out = append(out, p.DeepCopy())
	}
	for _, p := range out {
		p.Spec.NodeName = ""
	}
	return nil
}

// readOnly takes values out of the object and changes those.
func (c *Controller) readOnly(ns, name string) (map[string]string, error) {
	pod, err := c.podLister.Pods(ns).Get(name)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(pod.Labels))
	for k, v := range pod.Labels {
		out[k] = v
	}
	out["extra"] = "x"
	status := pod.Status
	status.Phase = corev1.PodRunning
	status.Message = describe(pod)
	newPod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: pod.Name, Namespace: pod.Namespace, Labels: out}}
	newPod.Status = status
	newPod.Annotations = map[string]string{"from": pod.Name}
	return out, nil
}

// unknown: functions of other packages are not assumed to write.
func (c *Controller) unknown(ns, name string) error {
	pod, err := c.podLister.Pods(ns).Get(name)
	if err != nil {
		return err
	}
	_ = metav1.GetControllerOf(pod)
	_ = equality.Semantic.DeepEqual(pod, pod)
	return nil
}

// suppressed: a directive with a reason silences the finding.
func (c *Controller) suppressed(ns, name string) error {
	pod, err := c.podLister.Pods(ns).Get(name)
	if err != nil {
		return err
	}
	pod.Labels["x"] = "y" //ctrllint:ignore cachemutation this lister's indexer is private to a test harness
	return nil
}
