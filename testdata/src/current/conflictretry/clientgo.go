// Package conflictretry holds fixtures for the conflictretry analyzer on
// client-go v0.37: typed clientsets, listers and the dynamic client.
package conflictretry

import (
	"context"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	"k8s.io/client-go/util/retry"
)

type statusUpdater struct {
	client    kubernetes.Interface
	setLister appslisters.StatefulSetLister
}

// updateSetStatus is kubernetes' StatefulSet status updater
// (pkg/controller/statefulset/stateful_set_status_updater.go,
// UpdateStatefulSetStatus) without its re-read from the lister after a
// failed attempt: the object handed in is sent again and again.
func (u *statusUpdater) updateSetStatus(ctx context.Context, set *appsv1.StatefulSet, status *appsv1.StatefulSetStatus) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		set.Status = *status
		_, err := u.client.AppsV1().StatefulSets(set.Namespace).UpdateStatus(ctx, set, metav1.UpdateOptions{}) // want `retry.RetryOnConflict retries UpdateStatus of set, the parameter set of statusUpdater.updateSetStatus outside the closure and never read again inside it: every attempt sends the same resourceVersion and conflicts again; read set afresh inside the closure \(Get, or the lister and DeepCopy\) before changing and writing it, or refresh it after a failed attempt`
		return err
	})
}

// updateSetStatusRefreshed is the real one: after a failed attempt it
// reads the StatefulSet again from the lister, so the next attempt sends
// the newer resourceVersion.
func (u *statusUpdater) updateSetStatusRefreshed(ctx context.Context, set *appsv1.StatefulSet, status *appsv1.StatefulSetStatus) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		set.Status = *status
		_, updateErr := u.client.AppsV1().StatefulSets(set.Namespace).UpdateStatus(ctx, set, metav1.UpdateOptions{})
		if updateErr == nil {
			return nil
		}
		if updated, err := u.setLister.StatefulSets(set.Namespace).Get(set.Name); err == nil {
			set = updated.DeepCopy()
		}
		return updateErr
	})
}

// authMap is shaped on keikoproj/aws-auth (issue 13, "version conflicts
// do not get retried"): the ConfigMap is read once, and only the Update is
// retried.
type authMap struct {
	client kubernetes.Interface
}

func (a *authMap) upsertRole(ctx context.Context, role string) error {
	cm, err := a.client.CoreV1().ConfigMaps("kube-system").Get(ctx, "aws-auth", metav1.GetOptions{})
	if err != nil {
		return err
	}
	if cm.Data == nil {
		cm.Data = map[string]string{}
	}
	cm.Data["mapRoles"] += role
	return retry.RetryOnConflict(retry.DefaultBackoff, func() error {
		_, err := a.client.CoreV1().ConfigMaps("kube-system").Update(ctx, cm, metav1.UpdateOptions{}) // want `retry.RetryOnConflict retries Update of cm, read by Get at line 62 outside the closure`
		return err
	})
}

// upsertRoleFixed is the fix (aws-auth's): the read is inside the retry.
func (a *authMap) upsertRoleFixed(ctx context.Context, role string) error {
	return retry.RetryOnConflict(retry.DefaultBackoff, func() error {
		cm, err := a.client.CoreV1().ConfigMaps("kube-system").Get(ctx, "aws-auth", metav1.GetOptions{})
		if err != nil {
			return err
		}
		if cm.Data == nil {
			cm.Data = map[string]string{}
		}
		cm.Data["mapRoles"] += role
		_, err = a.client.CoreV1().ConfigMaps("kube-system").Update(ctx, cm, metav1.UpdateOptions{})
		return err
	})
}

// endpointsAdapter and removeEndpoint are shaped on kubernetes'
// masterCountEndpointReconciler.RemoveEndpoints
// (pkg/controlplane/reconcilers/instancecount.go, v1.31.0 and v1.37.2):
// the Endpoints are read and changed before the retry, and the retried
// closure only calls the adapter's Update, which sends them as they are.
type endpointsAdapter struct {
	client kubernetes.Interface
}

func (a *endpointsAdapter) Get(ctx context.Context, ns, name string) (*corev1.Endpoints, error) {
	return a.client.CoreV1().Endpoints(ns).Get(ctx, name, metav1.GetOptions{})
}

func (a *endpointsAdapter) Update(ctx context.Context, ns string, e *corev1.Endpoints) (*corev1.Endpoints, error) {
	return a.client.CoreV1().Endpoints(ns).Update(ctx, e, metav1.UpdateOptions{})
}

type endpointsReconciler struct {
	adapter *endpointsAdapter
}

func (r *endpointsReconciler) removeEndpoint(ctx context.Context, name, ip string) error {
	e, err := r.adapter.Get(ctx, metav1.NamespaceDefault, name)
	if err != nil {
		return err
	}
	var kept []corev1.EndpointAddress
	for _, addr := range e.Subsets[0].Addresses {
		if addr.IP != ip {
			kept = append(kept, addr)
		}
	}
	e.Subsets[0].Addresses = kept
	err = retry.RetryOnConflict(retry.DefaultBackoff, func() error {
		_, err := r.adapter.Update(ctx, metav1.NamespaceDefault, e) // want `retry.RetryOnConflict retries endpointsAdapter.Update \(which calls Update\) of e, read by endpointsAdapter.Get at line 114 outside the closure`
		return err
	})
	return err
}

// history is kubernetes' realHistory.UpdateControllerRevision
// (pkg/controller/history/controller_history.go): the copy is reassigned
// from the lister after a failed attempt.
type history struct {
	client kubernetes.Interface
	lister appslisters.ControllerRevisionLister
}

func (h *history) updateRevision(ctx context.Context, revision *appsv1.ControllerRevision, newRevision int64) (*appsv1.ControllerRevision, error) {
	clone := revision.DeepCopy()
	err := retry.RetryOnConflict(retry.DefaultBackoff, func() error {
		if clone.Revision == newRevision {
			return nil
		}
		clone.Revision = newRevision
		updated, updateErr := h.client.AppsV1().ControllerRevisions(clone.Namespace).Update(ctx, clone, metav1.UpdateOptions{})
		if updateErr == nil {
			return nil
		}
		if updated != nil {
			clone = updated
		}
		if fresh, err := h.lister.ControllerRevisions(clone.Namespace).Get(clone.Name); err == nil {
			clone = fresh.DeepCopy()
		}
		return updateErr
	})
	return clone, err
}

// scaleOnConflict retries through retry.OnError with IsConflict: the
// same Deployment read once is sent on every attempt.
func scaleOnConflict(ctx context.Context, client kubernetes.Interface, ns, name string, replicas int32) error {
	d, err := client.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	return retry.OnError(retry.DefaultBackoff, apierrors.IsConflict, func() error {
		d.Spec.Replicas = &replicas
		_, err := client.AppsV1().Deployments(ns).Update(ctx, d, metav1.UpdateOptions{}) // want `retry.OnError retries Update of d, read by Get at line 165 outside the closure`
		return err
	})
}

// scaleOnTimeout retries server timeouts only: not a conflict retry.
func scaleOnTimeout(ctx context.Context, client kubernetes.Interface, d *appsv1.Deployment) error {
	return retry.OnError(retry.DefaultBackoff, apierrors.IsServerTimeout, func() error {
		_, err := client.AppsV1().Deployments(d.Namespace).Update(ctx, d, metav1.UpdateOptions{})
		return err
	})
}

// labelNodePoll polls until the label is on: a conflict makes it poll
// again with the Node it read before the loop.
func labelNodePoll(ctx context.Context, client kubernetes.Interface, name string) error {
	node, err := client.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	node.Labels["ready"] = "true"
	return wait.PollUntilContextTimeout(ctx, time.Second, time.Minute, true, func(ctx context.Context) (bool, error) {
		_, err := client.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{}) // want `wait.PollUntilContextTimeout retries Update of node, read by Get at line 187 outside the closure`
		if apierrors.IsConflict(err) {
			return false, nil
		}
		return err == nil, err
	})
}

// labelNodePollFailing stops on any error: a conflict is not retried.
func labelNodePollFailing(ctx context.Context, client kubernetes.Interface, node *corev1.Node) error {
	return wait.PollUntilContextTimeout(ctx, time.Second, time.Minute, true, func(ctx context.Context) (bool, error) {
		_, err := client.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
		if err != nil {
			return false, err
		}
		return true, nil
	})
}

// labelNodePollFresh reads the Node in every round.
func labelNodePollFresh(ctx context.Context, client kubernetes.Interface, name string) error {
	return wait.PollUntilContextTimeout(ctx, time.Second, time.Minute, true, func(ctx context.Context) (bool, error) {
		node, err := client.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		node.Labels["ready"] = "true"
		_, err = client.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
		if apierrors.IsConflict(err) {
			return false, nil
		}
		return err == nil, err
	})
}

// forceOwner clears the resourceVersion: an unconditional update, which
// does not conflict (deliberately last-writer-wins).
func forceOwner(ctx context.Context, client kubernetes.Interface, cm *corev1.ConfigMap) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cm.ResourceVersion = ""
		_, err := client.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{})
		return err
	})
}

// replaceConfig sends an object built from scratch: it has no
// resourceVersion, so the update is unconditional.
func replaceConfig(ctx context.Context, client kubernetes.Interface, ns string, data map[string]string) error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "config", Namespace: ns}, Data: data}
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		_, err := client.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
		return err
	})
}

// patchLabel patches without a resourceVersion: a merge patch does not
// conflict, whatever it was computed from.
func patchLabel(ctx context.Context, client kubernetes.Interface, pod *corev1.Pod) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		_, err := client.CoreV1().Pods(pod.Namespace).Patch(ctx, pod.Name, types.MergePatchType, []byte(`{"metadata":{"labels":{"a":"b"}}}`), metav1.PatchOptions{})
		return err
	})
}

// logOnly logs the stale write's error and returns nil: the retry never
// sees its conflict, so it does not resend it.
func logOnly(ctx context.Context, client kubernetes.Interface, cm *corev1.ConfigMap) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if _, err := client.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
			println(err.Error())
		}
		return nil
	})
}

// ensureService is shaped on prometheus-operator's
// k8sutil.CreateOrUpdateService (pkg/k8sutil/k8sutil.go): the object
// handed in is a desired one, built by the caller without a
// resourceVersion, and the closure copies what it needs from the live one.
func ensureService(ctx context.Context, client kubernetes.Interface, svc *corev1.Service) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		live, err := client.CoreV1().Services(svc.Namespace).Get(ctx, svc.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		svc.Spec.ClusterIP = live.Spec.ClusterIP
		_, err = client.CoreV1().Services(svc.Namespace).Update(ctx, svc, metav1.UpdateOptions{})
		return err
	})
}

func makeService(ns string) *corev1.Service {
	return &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: ns}}
}

func syncService(ctx context.Context, client kubernetes.Interface, ns string) error {
	return ensureService(ctx, client, makeService(ns))
}

type deploymentController struct {
	client kubernetes.Interface
	lister appslisters.DeploymentLister
}

// markObserved is sample-controller's updateFooStatus (a lister read and a
// DeepCopy before the write) with the write wrapped in RetryOnConflict, as
// its forks do: the copy is taken once, so every attempt sends the
// resourceVersion the cache had.
func (c *deploymentController) markObserved(ctx context.Context, ns, name string) error {
	d, err := c.lister.Deployments(ns).Get(name)
	if err != nil {
		return err
	}
	dCopy := d.DeepCopy()
	dCopy.Status.ObservedGeneration = dCopy.Generation
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		_, err := c.client.AppsV1().Deployments(ns).UpdateStatus(ctx, dCopy, metav1.UpdateOptions{}) // want `retry.RetryOnConflict retries UpdateStatus of dCopy, read by Get at line 302 outside the closure`
		return err
	})
}

// markObservedFresh copies from the lister inside the closure.
func (c *deploymentController) markObservedFresh(ctx context.Context, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		d, err := c.lister.Deployments(ns).Get(name)
		if err != nil {
			return err
		}
		dCopy := d.DeepCopy()
		dCopy.Status.ObservedGeneration = dCopy.Generation
		_, err = c.client.AppsV1().Deployments(ns).UpdateStatus(ctx, dCopy, metav1.UpdateOptions{})
		return err
	})
}
