// This file is shaped on the rolling update of VictoriaMetrics/operator's
// StatefulSets (internal/controller/operator/factory/reconcile/
// statefulset.go, before PR #2543), which deletes pods one by one under a
// role whose pods marker granted no delete; here written with a typed
// clientset, whose calls go to the API server as they are.

package rbacmarkers

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// +kubebuilder:rbac:groups=core,resources=pods,verbs=get;list;watch

// PodRoller restarts the pods of a StatefulSet one by one.
type PodRoller struct {
	Clientset kubernetes.Interface
}

// roll deletes the pods that run an old revision.
func (p *PodRoller) roll(ctx context.Context, ns, selector, revision string) error {
	pods, err := p.Clientset.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		return err
	}
	for _, pod := range pods.Items {
		if pod.Labels["controller-revision-hash"] == revision {
			continue
		}
		if err := p.Clientset.CoreV1().Pods(ns).Delete(ctx, pod.Name, metav1.DeleteOptions{}); err != nil { // want `p\.Clientset\.CoreV1\(\)\.Pods\(ns\)\.Delete deletes a Pod, and no \+kubebuilder:rbac marker grants delete on pods: the API server refuses the call under the role controller-gen generates; add // \+kubebuilder:rbac:groups="",resources=pods,verbs=delete`
			return err
		}
		return nil
	}
	return nil
}

// podReady reads one pod: get is granted.
func (p *PodRoller) podReady(ctx context.Context, ns, name string) (bool, error) {
	pod, err := p.Clientset.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return false, err
	}
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue, nil
		}
	}
	return false, nil
}

// ownedByLeader is the reference that makes a group's leader pod own its
// workers' StatefulSet, as LeaderWorkerSet's pod controller sets it
// (kubernetes-sigs/lws before PR #249, whose fix added the pods/finalizers
// marker OpenShift needs for it).
func ownedByLeader(leader *corev1.Pod) metav1.OwnerReference {
	return *metav1.NewControllerRef(leader, corev1.SchemeGroupVersion.WithKind("Pod")) // want `metav1\.NewControllerRef sets blockOwnerDeletion on its reference to a Pod, and no \+kubebuilder:rbac marker grants update on pods/finalizers: a cluster that enforces OwnerReferencesPermissionEnforcement`
}
