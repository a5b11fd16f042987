package patchbase

import (
	"context"
	"encoding/json"
	"strconv"

	jsonpatch "github.com/evanphx/json-patch/v5"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/client-go/kubernetes"
)

type TTLController struct {
	kubeClient kubernetes.Interface
}

func setIntAnnotation(node *corev1.Node, key string, value int) {
	if node.Annotations == nil {
		node.Annotations = make(map[string]string)
	}
	node.Annotations[key] = strconv.Itoa(value)
}

// patchNodeLate marshals the original after the change. Shaped on
// kubernetes' ttl controller patchNodeWithAnnotation
// (pkg/controller/ttl/ttl_controller.go), with the change moved above the
// first json.Marshal: the annotation is never sent.
func (c *TTLController) patchNodeLate(ctx context.Context, node *corev1.Node, key string, value int) error {
	setIntAnnotation(node, key, value)
	oldData, err := json.Marshal(node)
	if err != nil {
		return err
	}
	newData, err := json.Marshal(node)
	if err != nil {
		return err
	}
	patch, err := strategicpatch.CreateTwoWayMergePatch(oldData, newData, &corev1.Node{}) // want `patch computed from identical documents: the original is json.Marshal\(node\) at line 33, taken after setIntAnnotation changes it \(line 32\), and node does not change before the modified document is marshalled, so strategicpatch.CreateTwoWayMergePatch returns an empty patch and the change is never sent; marshal the original before changing node`
	if err != nil {
		return err
	}
	_, err = c.kubeClient.CoreV1().Nodes().Patch(ctx, node.Name, types.StrategicMergePatchType, patch, metav1.PatchOptions{})
	return err
}

// patchPodLabels diffs with json-patch after setting a label in place.
func (c *TTLController) patchPodLabels(ctx context.Context, pod *corev1.Pod) error {
	pod.Labels["example.com/ttl"] = "true"
	oldData, _ := json.Marshal(pod)
	newData, _ := json.Marshal(pod)
	patch, err := jsonpatch.CreateMergePatch(oldData, newData) // want `json.Marshal\(pod\) at line 52, taken after pod.Labels\["example.com/ttl"\] is set \(line 51\).*jsonpatch.CreateMergePatch returns an empty patch`
	if err != nil {
		return err
	}
	_, err = c.kubeClient.CoreV1().Pods(pod.Namespace).Patch(ctx, pod.Name, types.MergePatchType, patch, metav1.PatchOptions{})
	return err
}

// Correct look-alikes: none is reported.

// patchNode is kubernetes' patchNodeWithAnnotation as released: the
// original is marshalled before the change.
func (c *TTLController) patchNode(ctx context.Context, node *corev1.Node, key string, value int) error {
	oldData, err := json.Marshal(node)
	if err != nil {
		return err
	}
	setIntAnnotation(node, key, value)
	newData, err := json.Marshal(node)
	if err != nil {
		return err
	}
	patch, err := strategicpatch.CreateTwoWayMergePatch(oldData, newData, &corev1.Node{})
	if err != nil {
		return err
	}
	_, err = c.kubeClient.CoreV1().Nodes().Patch(ctx, node.Name, types.StrategicMergePatchType, patch, metav1.PatchOptions{})
	return err
}

// labelNodeCopy changes a copy and diffs it against the original:
// kubernetes' addOrUpdateLabelsOnNode (pkg/controller/controller_utils.go).
func (c *TTLController) labelNodeCopy(ctx context.Context, node *corev1.Node, labels map[string]string) error {
	newNode := node.DeepCopy()
	if newNode.Labels == nil {
		newNode.Labels = make(map[string]string)
	}
	for k, v := range labels {
		newNode.Labels[k] = v
	}
	oldData, err := json.Marshal(node)
	if err != nil {
		return err
	}
	newData, err := json.Marshal(newNode)
	if err != nil {
		return err
	}
	patch, err := strategicpatch.CreateTwoWayMergePatch(oldData, newData, &corev1.Node{})
	if err != nil {
		return err
	}
	_, err = c.kubeClient.CoreV1().Nodes().Patch(ctx, node.Name, types.StrategicMergePatchType, patch, metav1.PatchOptions{})
	return err
}

// patchThroughUnknown hands the object to a function of another package
// between the two marshals: it may change it, so the documents may differ.
func patchThroughUnknown(node *corev1.Node, mutate func(*corev1.Node)) ([]byte, error) {
	node.Labels = map[string]string{"a": "b"}
	oldData, _ := json.Marshal(node)
	mutate(node)
	newData, _ := json.Marshal(node)
	return strategicpatch.CreateTwoWayMergePatch(oldData, newData, &corev1.Node{})
}

// diffUnchanged diffs an object nothing changed here: no change was meant.
func diffUnchanged(node *corev1.Node) ([]byte, error) {
	oldData, _ := json.Marshal(node)
	newData, _ := json.Marshal(node)
	return strategicpatch.CreateTwoWayMergePatch(oldData, newData, &corev1.Node{})
}
