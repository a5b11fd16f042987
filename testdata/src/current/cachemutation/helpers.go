package cachemutation

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/util/retry"
)

// markSynced writes to its argument.
func markSynced(pod *corev1.Pod) {
	if pod.Annotations == nil {
		pod.Annotations = map[string]string{}
	}
	pod.Annotations["synced"] = "true"
}

// relabel writes through two calls.
func (c *Controller) relabel(pod *corev1.Pod) { markSynced(pod) }

// describe only reads.
func describe(pod *corev1.Pod) string { return pod.Namespace + "/" + pod.Name }

// getPod returns a cached object: its callers get one.
func (c *Controller) getPod(ns, name string) (*corev1.Pod, error) {
	return c.podLister.Pods(ns).Get(name)
}

// owned filters a List result; the elements stay cached objects.
func owned(pods []*corev1.Pod, uid string) []*corev1.Pod {
	var out []*corev1.Pod
	for _, p := range pods {
		for _, ref := range p.OwnerReferences {
			if string(ref.UID) == uid {
				out = append(out, p)
			}
		}
	}
	return out
}

func (c *Controller) viaHelper(ns, name string) error {
	pod, err := c.podLister.Pods(ns).Get(name)
	if err != nil {
		return err
	}
	_ = describe(pod)
	c.relabel(pod) // want `pod from c\.podLister\.Pods\(ns\)\.Get is modified \(c\.relabel\(\.\.\.\), which does markSynced\(\.\.\.\), which does pod\.Annotations = \.\.\. at helpers\.go:16\)`
	return nil
}

func (c *Controller) viaGetter(ns, name string) error {
	pod, err := c.getPod(ns, name)
	if err != nil {
		return err
	}
	pod.Spec.Hostname = "x" // want `pod from c\.getPod \(c\.podLister\.Pods\(ns\)\.Get\) is modified \(pod\.Spec\.Hostname = \.\.\.\)`
	return nil
}

func (c *Controller) viaFilter(ns, uid string) error {
	pods, err := c.podLister.Pods(ns).List(labels.Everything())
	if err != nil {
		return err
	}
	for _, p := range owned(pods, uid) {
		p.OwnerReferences = nil // want `an element of pods from c\.podLister\.Pods\(ns\)\.List is modified \(p\.OwnerReferences = \.\.\.\)`
	}
	return nil
}

// valueCopy: a copy of a struct holds the cache's maps and slices.
func (c *Controller) valueCopy(ns, name string) error {
	d, err := c.deploymentsLister.Deployments(ns).Get(name)
	if err != nil {
		return err
	}
	spec := d.Spec
	spec.Paused = true                // the copy's own field: silent
	spec.Template.Labels["rev"] = "2" // want `d from c\.deploymentsLister\.Deployments\(ns\)\.Get is modified \(spec\.Template\.Labels\[\.\.\.\] = \.\.\.\)`
	_ = spec
	return nil
}

// shallowCopy: *d copies the struct, not its maps.
func (c *Controller) shallowCopy(ns, name string) error {
	d, err := c.deploymentsLister.Deployments(ns).Get(name)
	if err != nil {
		return err
	}
	own := *d
	own.Status.Replicas = 0          // the copy's own field: silent
	own.Labels["copied"] = "shallow" // want `d from c\.deploymentsLister\.Deployments\(ns\)\.Get is modified \(own\.Labels\[\.\.\.\] = \.\.\.\)`
	return nil
}

// retryClosure: the variable is captured, so SSA keeps it in memory; the
// write before the copy is reported, the one after is not.
func (c *Controller) retryClosure(ctx context.Context, ns, name string) error {
	var d *appsv1.Deployment
	return retry.RetryOnConflict(retry.DefaultBackoff, func() error {
		var err error
		d, err = c.deploymentsLister.Deployments(ns).Get(name)
		if err != nil {
			return err
		}
		d.Labels["attempt"] = "1" // want `d from c\.deploymentsLister\.Deployments\(ns\)\.Get is modified \(d\.Labels\[\.\.\.\] = \.\.\.\)`
		d = d.DeepCopy()
		d.Labels["attempt"] = "2"
		_, err = c.kubeclientset.AppsV1().Deployments(ns).Update(ctx, d, metav1.UpdateOptions{})
		return err
	})
}

// capturedAfterCopy: copied before the closure runs. Silent.
func (c *Controller) capturedAfterCopy(ns, name string) error {
	pod, err := c.podLister.Pods(ns).Get(name)
	if err != nil {
		return err
	}
	pod = pod.DeepCopy()
	update := func() { pod.Labels["x"] = "y" }
	update()
	return nil
}
