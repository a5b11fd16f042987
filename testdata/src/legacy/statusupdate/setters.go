package statusupdate

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// Metadata setters of kube's one setter table (kube.SetterOf) that
// statusupdate did not know while it kept a list of its own: a change made
// with them before a status write was not reported. The Pod's status
// strategy resets owner references (kubernetes pkg/registry/core/pod,
// podStatusStrategy.PrepareForUpdate), so UpdateStatus drops them.

// PodAdopter moves Pods between ReplicaSets.
type PodAdopter struct {
	kubeClient kubernetes.Interface
	scheme     *runtime.Scheme
}

// release takes a Pod from its ReplicaSet with controller-runtime's
// controllerutil.RemoveControllerReference
// (pkg/controller/controllerutil/controllerutil.go, in v0.18 already) and
// records it in the status: UpdateStatus drops the owner references.
func (a *PodAdopter) release(ctx context.Context, pod *corev1.Pod, rs *appsv1.ReplicaSet) error {
	pod = pod.DeepCopy()
	if err := controllerutil.RemoveControllerReference(rs, pod, a.scheme); err != nil {
		return err
	}
	pod.Status.Message = "released"
	_, err := a.kubeClient.CoreV1().Pods(pod.Namespace).UpdateStatus(ctx, pod, metav1.UpdateOptions{}) // want `Pod owner references changed at line 32 are sent only with UpdateStatus, which keeps nothing but the status of the Pod: the change is silently dropped; write it with Update`
	return err
}

// setOwnerRefs replaces an object's owner references through the
// metav1.Object interface, as kubernetes' controllers do on the objects
// their adopt and release functions are handed (pkg/controller,
// controller_ref_manager.go's func(ctx, metav1.Object) error, and the
// StatefulSet controller's claim.SetOwnerReferences(refs) in
// stateful_set_utils.go).
func setOwnerRefs(obj metav1.Object, keep func(metav1.OwnerReference) bool) {
	var refs []metav1.OwnerReference
	for _, ref := range obj.GetOwnerReferences() {
		if keep(ref) {
			refs = append(refs, ref)
		}
	}
	obj.SetOwnerReferences(refs)
}

// orphan drops the Pod's controller reference with the helper and sends
// it with UpdateStatus: dropped.
func (a *PodAdopter) orphan(ctx context.Context, pod *corev1.Pod) error {
	pod = pod.DeepCopy()
	setOwnerRefs(pod, func(ref metav1.OwnerReference) bool { return ref.Controller == nil || !*ref.Controller })
	pod.Status.Message = "orphaned"
	_, err := a.kubeClient.CoreV1().Pods(pod.Namespace).UpdateStatus(ctx, pod, metav1.UpdateOptions{}) // want `Pod owner references changed at line 60 are sent only with UpdateStatus`
	return err
}

// Correct idioms: silent.

// orphanAndUpdate sends the owner references with Update.
func (a *PodAdopter) orphanAndUpdate(ctx context.Context, pod *corev1.Pod) error {
	pod = pod.DeepCopy()
	setOwnerRefs(pod, func(ref metav1.OwnerReference) bool { return ref.Controller == nil || !*ref.Controller })
	_, err := a.kubeClient.CoreV1().Pods(pod.Namespace).Update(ctx, pod, metav1.UpdateOptions{})
	return err
}

// releaseNode: the Node's status strategy keeps metadata changes.
func (a *PodAdopter) releaseNode(ctx context.Context, node *corev1.Node) error {
	node = node.DeepCopy()
	setOwnerRefs(node, func(metav1.OwnerReference) bool { return false })
	node.Status.Phase = corev1.NodeRunning
	_, err := a.kubeClient.CoreV1().Nodes().UpdateStatus(ctx, node, metav1.UpdateOptions{})
	return err
}
