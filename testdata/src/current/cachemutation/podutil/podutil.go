// Package podutil holds helpers that write to their arguments, or only
// read them, for the cachemutation analyzer's cross-package summaries:
// its callers (../xpkg.go) pass them cached objects.
package podutil

import (
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// UpdatePodCondition is shaped on kubernetes pkg/api/v1/pod,
// UpdatePodCondition: it changes the status it is handed a pointer to.
func UpdatePodCondition(status *corev1.PodStatus, cond *corev1.PodCondition) bool { // want UpdatePodCondition:`params\(0/1: writes status\.Conditions\[\.\.\.\] = \.\.\. at podutil/podutil\.go:20; 0/2: writes status\.Conditions\[\.\.\.\] = \.\.\. at podutil/podutil\.go:20\)`
	for i := range status.Conditions {
		if status.Conditions[i].Type == cond.Type {
			changed := status.Conditions[i].Status != cond.Status
			status.Conditions[i] = *cond
			return changed
		}
	}
	status.Conditions = append(status.Conditions, *cond)
	return true
}

// SetRevision is shaped on kubernetes pkg/controller/deployment/util,
// SetDeploymentRevision: it writes the object's annotations.
func SetRevision(d *appsv1.Deployment, revision int64) bool { // want SetRevision:`params\(0/1: writes d\.Annotations = \.\.\. at podutil/podutil\.go:36; 0/2: writes d\.Annotations\[\.\.\.\] = \.\.\. at podutil/podutil\.go:38\)`
	rev := strconv.FormatInt(revision, 10)
	if d.Annotations["deployment.kubernetes.io/revision"] == rev {
		return false
	}
	if d.Annotations == nil {
		d.Annotations = make(map[string]string)
	}
	d.Annotations["deployment.kubernetes.io/revision"] = rev
	return true
}

// SetPodLabel writes the object's labels.
func SetPodLabel(pod *corev1.Pod, key, value string) { // want SetPodLabel:`params\(0/1: writes pod\.Labels = \.\.\. at podutil/podutil\.go:45; 0/2: writes pod\.Labels\[\.\.\.\] = \.\.\. at podutil/podutil\.go:47\)`
	if pod.Labels == nil {
		pod.Labels = map[string]string{}
	}
	pod.Labels[key] = value
}

// MarkPodsNotReady is shaped on kubernetes pkg/controller/util/node,
// MarkPodsNotReady: "Pod will be modified, so making copy is required" —
// each pod is copied before its condition changes. Silent for callers.
func MarkPodsNotReady(pods []*corev1.Pod, nodeName string) []*corev1.Pod {
	var changed []*corev1.Pod
	for i := range pods {
		if pods[i].Spec.NodeName != nodeName {
			continue
		}
		pod := pods[i].DeepCopy()
		cond := corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionFalse}
		if UpdatePodCondition(&pod.Status, &cond) {
			changed = append(changed, pod)
		}
	}
	return changed
}

// MarkPodsNotReadyInPlace is MarkPodsNotReady before its copy: the
// condition of the caller's pods changes.
func MarkPodsNotReadyInPlace(pods []*corev1.Pod, nodeName string) { // want MarkPodsNotReadyInPlace:`params\(0/1: writes UpdatePodCondition\(\.\.\.\), which does status\.Conditions\[\.\.\.\] = \.\.\. at podutil/podutil\.go:20; 0/2: writes UpdatePodCondition`
	for _, pod := range pods {
		if pod.Spec.NodeName != nodeName {
			continue
		}
		cond := corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionFalse}
		UpdatePodCondition(&pod.Status, &cond)
	}
}

// ControllerRef returns a pointer into the object's owner references,
// like metav1.GetControllerOfNoCopy: what the caller does with it, it
// does to the object.
func ControllerRef(pod *corev1.Pod) *metav1.OwnerReference { // want ControllerRef:`params\(0/1: returns in 0/1; 0/2: returns in 0/1\)`
	for i := range pod.OwnerReferences {
		if r := &pod.OwnerReferences[i]; r.Controller != nil && *r.Controller {
			return r
		}
	}
	return nil
}

// IsPodReady only reads.
func IsPodReady(pod *corev1.Pod) bool {
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}
