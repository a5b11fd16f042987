// Package nodeutil (client-go v0.30) holds sync helpers that read through the clientset a
// controller hands them, shaped on kubernetes' pkg/controller/util/node
// (v1.14: DeletePods and MarkAllPodsNotReady listed a node's pods with a
// spec.nodeName field selector, the read issue 77733 moved to a pod
// informer) and on node-feature-discovery's apihelper (GetNode through a
// clientset argument, PR 2509). What each reads is summarised as a fact.
package nodeutil

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
)

// GetPodsOnNode lists the pods bound to a node from the API server and
// hands them back: the read is the caller's to judge.
func GetPodsOnNode(ctx context.Context, client kubernetes.Interface, node string) ([]corev1.Pod, error) { // want GetPodsOnNode:`reads\(List Pod at nodeutil.go:\d+\)`
	return listOnNode(ctx, client, node)
}

func listOnNode(ctx context.Context, client kubernetes.Interface, node string) ([]corev1.Pod, error) {
	sel := fields.OneTermEqualSelector("spec.nodeName", node).String()
	pods, err := client.CoreV1().Pods(metav1.NamespaceAll).List(ctx, metav1.ListOptions{FieldSelector: sel})
	if err != nil {
		return nil, err
	}
	return pods.Items, nil
}

// DeletePods lists a node's pods and deletes each: the List only feeds the
// deletes (a live list before deleting is deliberate), so the fact says so
// and a call stays silent.
func DeletePods(ctx context.Context, client kubernetes.Interface, node string) (bool, error) { // want DeletePods:`reads\(List Pod at nodeutil.go:\d+ \(deliberate\)\)`
	sel := fields.OneTermEqualSelector("spec.nodeName", node).String()
	pods, err := client.CoreV1().Pods(metav1.NamespaceAll).List(ctx, metav1.ListOptions{FieldSelector: sel})
	if err != nil {
		return false, err
	}
	remaining := false
	for _, pod := range pods.Items {
		if pod.DeletionTimestamp != nil {
			remaining = true
			continue
		}
		if err := client.CoreV1().Pods(pod.Namespace).Delete(ctx, pod.Name, metav1.DeleteOptions{}); err != nil {
			return false, err
		}
		remaining = true
	}
	return remaining, nil
}

// MarkPodsNotReady lists through a helper of its own package and updates
// the status of each pod it returns: deliberate too.
func MarkPodsNotReady(ctx context.Context, client kubernetes.Interface, node string) error { // want MarkPodsNotReady:`reads\(List Pod at nodeutil.go:\d+ \(deliberate\)\)`
	pods, err := listOnNode(ctx, client, node)
	if err != nil {
		return err
	}
	for i := range pods {
		pod := pods[i].DeepCopy()
		pod.Status.Conditions = nil
		if _, err := client.CoreV1().Pods(pod.Namespace).UpdateStatus(ctx, pod, metav1.UpdateOptions{}); err != nil {
			return err
		}
	}
	return nil
}

// PodsFromLister reads through a lister: no fact.
func PodsFromLister(lister corelisters.PodLister, node string) ([]*corev1.Pod, error) {
	all, err := lister.List(labels.Everything())
	if err != nil {
		return nil, err
	}
	var out []*corev1.Pod
	for _, p := range all {
		if p.Spec.NodeName == node {
			out = append(out, p)
		}
	}
	return out, nil
}

// Helpers is node-feature-discovery's apihelper.K8sHelpers: its methods
// take the clientset as an argument.
type Helpers struct{}

// GetNode gets a node through the clientset it is given.
func (h Helpers) GetNode(cli *kubernetes.Clientset, name string) (*corev1.Node, error) { // want GetNode:`reads\(Get Node at nodeutil.go:\d+\)`
	return cli.CoreV1().Nodes().Get(context.TODO(), name, metav1.GetOptions{})
}

// Reader keeps the clientset in a field.
type Reader struct {
	Client kubernetes.Interface
}

// Namespace gets a namespace through the receiver's clientset.
func (r *Reader) Namespace(ctx context.Context, name string) (*corev1.Namespace, error) { // want Namespace:`reads\(Get Namespace at nodeutil.go:\d+\)`
	return r.Client.CoreV1().Namespaces().Get(ctx, name, metav1.GetOptions{})
}

// NewClientLister makes its own clientset: what it reads is not a
// controller's clientset read, no fact.
func NewClientLister(ctx context.Context) (int, error) {
	cs, err := kubernetes.NewForConfig(nil)
	if err != nil {
		return 0, err
	}
	pods, err := cs.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
	if err != nil {
		return 0, err
	}
	return len(pods.Items), nil
}
