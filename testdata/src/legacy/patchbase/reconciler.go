package patchbase

import (
	"context"
	"encoding/json"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/client-go/kubernetes"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

const policyFinalizer = "example.com/delete-policy"

type PolicyReconciler struct {
	client.Client
}

// Reconcile: johnhoman/aws-iam-controller's IamPolicyReconciler.Reconcile
// (controllers/iampolicy_controller.go), on controller-runtime v0.18.
func (r *PolicyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	policy := &Policy{}
	if err := r.Get(ctx, req.NamespacedName, policy); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !policy.GetDeletionTimestamp().IsZero() && controllerutil.ContainsFinalizer(policy, policyFinalizer) {
		patch := client.MergeFrom(policy) // want `patch base is the object it patches: client.MergeFrom\(policy\) keeps a pointer to policy, and controllerutil.RemoveFinalizer changes it \(line 33\) before r.Client.Patch sends it \(line 34\)`
		controllerutil.RemoveFinalizer(policy, policyFinalizer)
		if err := r.Client.Patch(ctx, policy, patch); err != nil {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, nil
}

// markRunning: operator-sdk's doc/user/client.md patch example (PR 2642),
// base taken first.
func (r *PolicyReconciler) markRunning(ctx context.Context, dep *appsv1.Deployment) error {
	patch := client.MergeFrom(dep) // want `dep.Spec.Selector.MatchLabels\["is_running"\] is set \(line 45\)`
	dep.Spec.Selector.MatchLabels["is_running"] = "true"
	return r.Patch(ctx, dep, patch)
}

// setARN: a status field through the status writer.
func (r *PolicyReconciler) setARN(ctx context.Context, policy *Policy, arn string) error {
	patch := client.MergeFrom(policy) // want `policy.Status.ARN is set \(line 52\) before r.Status\(\).Patch sends it \(line 53\)`
	policy.Status.ARN = arn
	return r.Status().Patch(ctx, policy, patch)
}

// patchNodeLate: kubernetes' ttl controller patchNodeWithAnnotation with
// the change moved above the first json.Marshal, on client-go v0.30.
func patchNodeLate(ctx context.Context, cs kubernetes.Interface, node *corev1.Node) error {
	node.Annotations["node.alpha.kubernetes.io/ttl"] = "0"
	oldData, err := json.Marshal(node)
	if err != nil {
		return err
	}
	newData, err := json.Marshal(node)
	if err != nil {
		return err
	}
	patch, err := strategicpatch.CreateTwoWayMergePatch(oldData, newData, &corev1.Node{}) // want `patch computed from identical documents: the original is json.Marshal\(node\) at line 60`
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().Nodes().Patch(ctx, node.Name, types.StrategicMergePatchType, patch, metav1.PatchOptions{})
	return err
}

// Correct look-alikes: none is reported.

func (r *PolicyReconciler) updateStatus(ctx context.Context, policy *Policy) error {
	patch := client.MergeFrom(policy.DeepCopy())
	policy.Status.Healthy = true
	return r.Status().Patch(ctx, policy, patch)
}

func (r *PolicyReconciler) patchCopy(ctx context.Context, policy *Policy) error {
	changed := policy.DeepCopy()
	changed.Spec.Document = "{}"
	return r.Patch(ctx, changed, client.MergeFrom(policy))
}

func (r *PolicyReconciler) touch(ctx context.Context, policy *Policy) error {
	return r.Patch(ctx, policy, client.MergeFrom(policy))
}

func patchNode(ctx context.Context, cs kubernetes.Interface, node *corev1.Node) error {
	oldData, err := json.Marshal(node)
	if err != nil {
		return err
	}
	node.Annotations["node.alpha.kubernetes.io/ttl"] = "0"
	newData, err := json.Marshal(node)
	if err != nil {
		return err
	}
	patch, err := strategicpatch.CreateTwoWayMergePatch(oldData, newData, &corev1.Node{})
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().Nodes().Patch(ctx, node.Name, types.StrategicMergePatchType, patch, metav1.PatchOptions{})
	return err
}

// Patcher is the narrow client interface an operator hands its helpers.
type Patcher interface {
	Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.PatchOption) error
}

func removeLabel(obj client.Object, key string) {
	labels := obj.GetLabels()
	delete(labels, key)
	obj.SetLabels(labels)
}

// movePrimaryLabel: percona-server-mysql-operator's
// reconcileReplicationPrimaryPod (an early release; its RemoveLabel helper
// lives in another package of the module there, which is not followed):
// the label moves in memory only.
func movePrimaryLabel(ctx context.Context, cl Patcher, pods []corev1.Pod, primary string) error {
	for i := range pods {
		pod := &pods[i]
		if pod.Labels["example.com/primary"] == "true" && pod.Name != primary {
			patch := client.StrategicMergeFrom(pod) // want `client.StrategicMergeFrom\(pod\) keeps a pointer to pod, and removeLabel changes it \(line 132\) before cl.Patch sends it \(line 133\)`
			removeLabel(pod, "example.com/primary")
			if err := cl.Patch(ctx, pod, patch); err != nil {
				return err
			}
			break
		}
	}
	return nil
}

// deferredStatus patches the status on return (external-secrets'
// PushSecretReconciler shape) with the object as its base.
func (r *PolicyReconciler) deferredStatus(ctx context.Context, policy *Policy) (err error) {
	p := client.MergeFrom(policy) // want `policy.Status.Healthy is set \(line 151\) before the deferred r.Status\(\).Patch sends it on return \(line 147\)`
	defer func() {
		if perr := r.Status().Patch(ctx, policy, p); perr != nil && err == nil {
			err = perr
		}
	}()
	policy.Status.Healthy = true
	return nil
}
