package statusupdate

import (
	"context"
	"encoding/json"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
)

// Controller is shaped like sample-controller: a typed clientset.
type Controller struct {
	kubeclientset kubernetes.Interface
}

// updateDeploymentStatus sets the status and sends it with Update: dropped.
func (c *Controller) updateDeploymentStatus(ctx context.Context, d *appsv1.Deployment, available int32) error {
	dCopy := d.DeepCopy()
	dCopy.Status.AvailableReplicas = available
	_, err := c.kubeclientset.AppsV1().Deployments(d.Namespace).Update(ctx, dCopy, metav1.UpdateOptions{}) // want `Deployment status set at line 27 is sent only with Update, which ignores status: Deployment has a status subresource, so the change is silently dropped; write status with UpdateStatus`
	return err
}

// markFailed appends a condition and patches the main resource: dropped.
func (c *Controller) markFailed(ctx context.Context, job *batchv1.Job) error {
	old, err := json.Marshal(job)
	if err != nil {
		return err
	}
	updated := job.DeepCopy()
	updated.Status.Conditions = append(updated.Status.Conditions, batchv1.JobCondition{Type: batchv1.JobFailed, Status: corev1.ConditionTrue})
	cur, err := json.Marshal(updated)
	if err != nil {
		return err
	}
	patch, err := strategicpatch.CreateTwoWayMergePatch(old, cur, batchv1.Job{})
	if err != nil {
		return err
	}
	_, err = c.kubeclientset.BatchV1().Jobs(job.Namespace).Patch(ctx, job.Name, types.StrategicMergePatchType, patch, metav1.PatchOptions{}) // want `Job status set at line 39 is sent only with Patch, which ignores status: Job has a status subresource, so the change is silently dropped; write status with Patch\(..., "status"\)`
	return err
}

// adopt sets an owner reference on a Pod and sends it with UpdateStatus:
// the Pod status strategy resets owner references.
func (c *Controller) adopt(ctx context.Context, pod *corev1.Pod, owner *appsv1.ReplicaSet) error {
	pod = pod.DeepCopy()
	pod.OwnerReferences = append(pod.OwnerReferences, *metav1.NewControllerRef(owner, appsv1.SchemeGroupVersion.WithKind("ReplicaSet")))
	pod.Status.Message = "adopted"
	_, err := c.kubeclientset.CoreV1().Pods(pod.Namespace).UpdateStatus(ctx, pod, metav1.UpdateOptions{}) // want `Pod owner references changed at line 56 are sent only with UpdateStatus`
	return err
}

// resize changes a StatefulSet's spec inside retry.RetryOnConflict and
// sends it with UpdateStatus: dropped.
func (c *Controller) resize(ctx context.Context, ns, name string, replicas int32) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		sts, err := c.kubeclientset.AppsV1().StatefulSets(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		sts.Spec.Replicas = &replicas
		_, err = c.kubeclientset.AppsV1().StatefulSets(ns).UpdateStatus(ctx, sts, metav1.UpdateOptions{}) // want `StatefulSet spec changed at line 70 is sent only with UpdateStatus, which keeps nothing but the status of the StatefulSet: the change is silently dropped; write it with Update`
		return err
	})
}

// Correct idioms: silent.

// syncStatus is sample-controller's updateFooStatus, for a Deployment.
func (c *Controller) syncStatus(ctx context.Context, d *appsv1.Deployment, ready int32) error {
	dCopy := d.DeepCopy()
	dCopy.Status.ReadyReplicas = ready
	_, err := c.kubeclientset.AppsV1().Deployments(d.Namespace).UpdateStatus(ctx, dCopy, metav1.UpdateOptions{})
	return err
}

// patchStatus patches the status subresource.
func (c *Controller) patchStatus(ctx context.Context, pod *corev1.Pod) error {
	updated := pod.DeepCopy()
	updated.Status.Conditions = append(updated.Status.Conditions, corev1.PodCondition{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue})
	data, err := json.Marshal(map[string]any{"status": map[string]any{"conditions": updated.Status.Conditions}})
	if err != nil {
		return err
	}
	_, err = c.kubeclientset.CoreV1().Pods(pod.Namespace).Patch(ctx, pod.Name, types.StrategicMergePatchType, data, metav1.PatchOptions{}, "status")
	return err
}

// labelPatch patches labels by hand; the Pod's status store is not in it.
func (c *Controller) labelPatch(ctx context.Context, pod *corev1.Pod) error {
	pod.Status.Message = "seen"
	data := []byte(fmt.Sprintf(`{"metadata":{"labels":{"seen-by":%q}}}`, pod.Name))
	_, err := c.kubeclientset.CoreV1().Pods(pod.Namespace).Patch(ctx, pod.Name, types.MergePatchType, data, metav1.PatchOptions{})
	return err
}

// relabel changes a Pod's labels and sends them with UpdateStatus: the Pod
// status strategy keeps labels, so they are written.
func (c *Controller) relabel(ctx context.Context, pod *corev1.Pod) error {
	pod = pod.DeepCopy()
	pod.Labels["phase"] = string(pod.Status.Phase)
	pod.Status.Message = "relabelled"
	_, err := c.kubeclientset.CoreV1().Pods(pod.Namespace).UpdateStatus(ctx, pod, metav1.UpdateOptions{})
	return err
}

// updateBoth sends the spec with Update and the status with UpdateStatus,
// the way kubernetes' controllers do when both change.
func (c *Controller) updateBoth(ctx context.Context, rs *appsv1.ReplicaSet, replicas int32) error {
	rs = rs.DeepCopy()
	rs.Spec.Replicas = &replicas
	rs.Status.Replicas = replicas
	updated, err := c.kubeclientset.AppsV1().ReplicaSets(rs.Namespace).Update(ctx, rs, metav1.UpdateOptions{})
	if err != nil {
		return err
	}
	updated.Status = rs.Status
	_, err = c.kubeclientset.AppsV1().ReplicaSets(rs.Namespace).UpdateStatus(ctx, updated, metav1.UpdateOptions{})
	return err
}

// secret has no status subresource.
func (c *Controller) secret(ctx context.Context, s *corev1.Secret) error {
	s.Data["k"] = []byte("v")
	_, err := c.kubeclientset.CoreV1().Secrets(s.Namespace).Update(ctx, s, metav1.UpdateOptions{})
	return err
}

// pause restores the stored status on a copy before a spec update: nothing
// is lost.
func (c *Controller) pause(ctx context.Context, cur, desired *appsv1.Deployment) error {
	d := desired.DeepCopy()
	d.Spec.Paused = true
	d.Status = cur.Status
	_, err := c.kubeclientset.AppsV1().Deployments(d.Namespace).Update(ctx, d, metav1.UpdateOptions{})
	return err
}

// syncHPA defaults the scale-down stabilization window in memory to compute
// with, as kubernetes' HPA controller does, then writes the status: the
// default is not a change to send. Silent.
func (c *Controller) syncHPA(ctx context.Context, hpa *autoscalingv2.HorizontalPodAutoscaler, window int32) error {
	hpa = hpa.DeepCopy()
	initStabilizationWindow(hpa, window)
	hpa.Status.DesiredReplicas = 3
	_, err := c.kubeclientset.AutoscalingV2().HorizontalPodAutoscalers(hpa.Namespace).UpdateStatus(ctx, hpa, metav1.UpdateOptions{})
	return err
}

func initStabilizationWindow(hpa *autoscalingv2.HorizontalPodAutoscaler, window int32) {
	behavior := hpa.Spec.Behavior
	if behavior != nil && behavior.ScaleDown != nil && behavior.ScaleDown.StabilizationWindowSeconds == nil {
		hpa.Spec.Behavior.ScaleDown.StabilizationWindowSeconds = &window
	}
}

// updateStatusREST writes the status through the REST client, which the
// analyzer does not follow; its name says what it does.
func (c *Controller) updateStatusREST(ctx context.Context, d *appsv1.Deployment) error {
	return c.kubeclientset.AppsV1().RESTClient().Put().Namespace(d.Namespace).Resource("deployments").Name(d.Name).SubResource("status").Body(d).Do(ctx).Error()
}

// scaleAndReport writes the spec with Update and the status with the REST
// helper: silent.
func (c *Controller) scaleAndReport(ctx context.Context, d *appsv1.Deployment, replicas int32) error {
	d = d.DeepCopy()
	d.Spec.Replicas = &replicas
	d.Status.Replicas = replicas
	if _, err := c.kubeclientset.AppsV1().Deployments(d.Namespace).Update(ctx, d, metav1.UpdateOptions{}); err != nil {
		return err
	}
	return c.updateStatusREST(ctx, d)
}
