package patchbase

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

const policyFinalizer = "example.com/delete-policy"

type PolicyReconciler struct {
	client.Client
}

// Reconcile removes its finalizer on the deletion path with a base taken
// from the object itself. Shaped on johnhoman/aws-iam-controller's
// IamPolicyReconciler.Reconcile (controllers/iampolicy_controller.go): the
// finalizer removal is never sent, so the object stays terminating.
func (r *PolicyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	policy := &Policy{}
	if err := r.Get(ctx, req.NamespacedName, policy); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !policy.GetDeletionTimestamp().IsZero() {
		if controllerutil.ContainsFinalizer(policy, policyFinalizer) {
			patch := client.MergeFrom(policy) // want `patch base is the object it patches: client.MergeFrom\(policy\) keeps a pointer to policy, and controllerutil.RemoveFinalizer changes it \(line 34\) before r.Client.Patch sends it \(line 35\): base and object serialise alike, so the patch is empty and the change is never sent; take the base from a copy made before the change: client.MergeFrom\(policy.DeepCopy\(\)\)`
			controllerutil.RemoveFinalizer(policy, policyFinalizer)
			if err := r.Client.Patch(ctx, policy, patch); err != nil {
				return ctrl.Result{}, err
			}
		}
		return ctrl.Result{}, nil
	}
	return ctrl.Result{}, nil
}

// markRunning labels a Deployment's selector. Shaped on operator-sdk's
// doc/user/client.md patch example (fixed in operator-sdk PR 2642, "no
// changes would actually occur when patching"), with the base taken first.
func (r *PolicyReconciler) markRunning(ctx context.Context, dep *appsv1.Deployment) error {
	patch := client.MergeFrom(dep) // want `client.MergeFrom\(dep\) keeps a pointer to dep, and dep.Spec.Selector.MatchLabels\["is_running"\] is set \(line 49\) before r.Patch sends it \(line 50\)`
	dep.Spec.Selector.MatchLabels["is_running"] = "true"
	return r.Patch(ctx, dep, patch)
}

// setHealthy writes a condition and a status field through the status
// subresource. Shaped on typesense-operator's UpdateStatus
// (internal/controller/typesensecluster_helpers.go) without its DeepCopy.
func (r *PolicyReconciler) setHealthy(ctx context.Context, policy *Policy, healthy bool) error {
	patch := client.MergeFrom(policy) // want `policy.Status.Healthy is set \(line 58\) before r.Status\(\).Patch sends it \(line 60\)`
	policy.Status.Healthy = healthy
	meta.SetStatusCondition(&policy.Status.Conditions, metav1.Condition{Type: "Healthy", Status: metav1.ConditionTrue, Reason: "Probed", ObservedGeneration: policy.Generation})
	return r.Status().Patch(ctx, policy, patch)
}

// withOptimisticLock: the lock only adds the resourceVersion to an
// otherwise empty patch. The change is made by a helper of the package.
func (r *PolicyReconciler) withOptimisticLock(ctx context.Context, policy *Policy) error {
	patch := client.MergeFromWithOptions(policy, client.MergeFromWithOptimisticLock{}) // want `client.MergeFromWithOptions\(policy, ...\) keeps a pointer to policy, and setDefaults changes it \(line 67\) before r.Patch sends it \(line 68\).*client.MergeFromWithOptions\(policy.DeepCopy\(\), ...\)`
	setDefaults(policy)
	return r.Patch(ctx, policy, patch)
}

func setDefaults(p *Policy) {
	if p.Spec.Document == "" {
		p.Spec.Document = "{}"
	}
}

// annotate works on any object through client.Object: no fix is
// suggested, the interface has no DeepCopy. Shaped on the
// sriov-network-operator's AnnotateObject (pkg/utils), without its copy.
func annotate(ctx context.Context, c client.Client, obj client.Object, key, value string) error {
	patch := client.MergeFrom(obj) // want `client.MergeFrom\(obj\) keeps a pointer to obj, and obj.SetAnnotations changes it \(line 87\) before c.Patch sends it \(line 88\).*client.MergeFrom\(obj.DeepCopyObject\(\).\(client.Object\)\)`
	annotations := obj.GetAnnotations()
	if annotations == nil {
		annotations = map[string]string{}
	}
	annotations[key] = value
	obj.SetAnnotations(annotations)
	return c.Patch(ctx, obj, patch)
}

// labelPod takes a strategic merge base from a local variable's address.
func (r *PolicyReconciler) labelPod(ctx context.Context, key types.NamespacedName) error {
	var pod corev1.Pod
	if err := r.Get(ctx, key, &pod); err != nil {
		return err
	}
	patch := client.StrategicMergeFrom(&pod) // want `client.StrategicMergeFrom\(&pod\) keeps a pointer to pod, and pod.Labels is set \(line 99\) before r.Patch sends it \(line 102\).*client.StrategicMergeFrom\(pod.DeepCopy\(\)\)`
	if pod.Labels == nil {
		pod.Labels = map[string]string{}
	}
	pod.Labels["owner"] = "policy"
	return r.Patch(ctx, &pod, patch)
}

// ensureDocument computes the patch first to skip a no-op write, as
// cluster-api's patch helper does with MergeFrom(before).Data(after), but
// from the object itself: the document is always "{}", so nothing is ever
// written.
func (r *PolicyReconciler) ensureDocument(ctx context.Context, policy *Policy, doc string) error {
	patch := client.MergeFrom(policy) // want `policy.Spec.Document is set \(line 111\) before patch.Data computes it \(line 112\)`
	policy.Spec.Document = doc
	data, err := patch.Data(policy)
	if err != nil || string(data) == "{}" {
		return err
	}
	return r.Patch(ctx, policy, client.RawPatch(patch.Type(), data))
}

// retryFinalizer captures the object in a closure, so every use of the
// variable is a load of it: still the one object.
func (r *PolicyReconciler) retryFinalizer(ctx context.Context, key types.NamespacedName) error {
	policy := &Policy{}
	if err := r.Get(ctx, key, policy); err != nil {
		return err
	}
	logFailure := func(err error) error {
		ctrl.LoggerFrom(ctx).Error(err, "adding finalizer", "policy", policy.Name)
		return err
	}
	patch := client.MergeFrom(policy) // want `controllerutil.AddFinalizer changes it \(line 131\) before r.Patch sends it \(line 132\)`
	controllerutil.AddFinalizer(policy, policyFinalizer)
	if err := r.Patch(ctx, policy, patch); err != nil {
		return logFailure(err)
	}
	return nil
}

// PushReconciler patches its status in a deferred closure on every return.
// Shaped on external-secrets' PushSecretReconciler.Reconcile
// (pkg/controllers/pushsecret), which takes the base from ps.DeepCopy().
type PushReconciler struct {
	client.Client
}

func (r *PushReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var ps Policy
	if err := r.Get(ctx, req.NamespacedName, &ps); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	p := client.MergeFrom(&ps) // want `client.MergeFrom\(&ps\) keeps a pointer to ps, and ps.Status.ARN is set \(line 159\) before the deferred r.Client.Status\(\).Patch sends it on return \(line 152\)`
	defer func() {
		if err := r.Client.Status().Patch(ctx, &ps, p); err != nil {
			ctrl.LoggerFrom(ctx).Error(err, "patching status")
		}
	}()
	if controllerutil.AddFinalizer(&ps, policyFinalizer) {
		return ctrl.Result{}, r.Update(ctx, &ps)
	}
	ps.Status.ARN = "arn:example"
	return ctrl.Result{}, nil
}

// swapImage points a container at a new image. Shaped on stove8s'
// SnapShotReconciler.PodImageUpdate (internal/controller): the image swap
// is never sent.
func (r *PolicyReconciler) swapImage(ctx context.Context, pod *corev1.Pod, image string, i int) error {
	patch := client.MergeFrom(pod) // want `client.MergeFrom\(pod\) keeps a pointer to pod, and pod.Spec.Containers\[i\].Image is set \(line 168\) before r.Patch sends it \(line 169\)`
	pod.Spec.Containers[i].Image = image
	return r.Patch(ctx, pod, patch)
}

// twoSends sends the same patch on two paths: one report, at the MergeFrom.
func (r *PolicyReconciler) twoSends(ctx context.Context, policy *Policy, status bool) error {
	patch := client.MergeFrom(policy) // want `policy.Status.Healthy is set \(line 175\) before r.Status\(\).Patch sends it \(line 177\)`
	policy.Status.Healthy = true
	if status {
		return r.Status().Patch(ctx, policy, patch)
	}
	return r.Patch(ctx, policy, patch)
}
