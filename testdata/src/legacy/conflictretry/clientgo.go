// Package conflictretry holds fixtures for the conflictretry analyzer on
// client-go v0.30 and controller-runtime v0.18.
package conflictretry

import (
	"context"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
// (pkg/controller/statefulset/stateful_set_status_updater.go) without its
// re-read after a failed attempt.
func (u *statusUpdater) updateSetStatus(set *appsv1.StatefulSet, status *appsv1.StatefulSetStatus) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		set.Status = *status
		_, err := u.client.AppsV1().StatefulSets(set.Namespace).UpdateStatus(context.TODO(), set, metav1.UpdateOptions{}) // want `retry.RetryOnConflict retries UpdateStatus of set, the parameter set of statusUpdater.updateSetStatus outside the closure and never read again inside it`
		return err
	})
}

// updateSetStatusRefreshed is the real one (kubernetes v1.30): the lister
// is read again after a failed attempt.
func (u *statusUpdater) updateSetStatusRefreshed(set *appsv1.StatefulSet, status *appsv1.StatefulSetStatus) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		set.Status = *status
		_, updateErr := u.client.AppsV1().StatefulSets(set.Namespace).UpdateStatus(context.TODO(), set, metav1.UpdateOptions{})
		if updateErr == nil {
			return nil
		}
		if updated, err := u.setLister.StatefulSets(set.Namespace).Get(set.Name); err == nil {
			set = updated.DeepCopy()
		}
		return updateErr
	})
}

// endpointsAdapter and removeEndpoint are shaped on kubernetes'
// masterCountEndpointReconciler.RemoveEndpoints
// (pkg/controlplane/reconcilers/instancecount.go, v1.30.3): read and
// changed before the retry, sent unchanged on every attempt.
type endpointsAdapter struct {
	client kubernetes.Interface
}

func (a *endpointsAdapter) Get(ns, name string) (*corev1.Endpoints, error) {
	return a.client.CoreV1().Endpoints(ns).Get(context.TODO(), name, metav1.GetOptions{})
}

func (a *endpointsAdapter) Update(ns string, e *corev1.Endpoints) (*corev1.Endpoints, error) {
	return a.client.CoreV1().Endpoints(ns).Update(context.TODO(), e, metav1.UpdateOptions{})
}

func removeEndpoint(a *endpointsAdapter, name, ip string) error {
	e, err := a.Get(metav1.NamespaceDefault, name)
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
	return retry.RetryOnConflict(retry.DefaultBackoff, func() error {
		_, err := a.Update(metav1.NamespaceDefault, e) // want `retry.RetryOnConflict retries endpointsAdapter.Update \(which calls Update\) of e, read by endpointsAdapter.Get at line 68 outside the closure`
		return err
	})
}

// labelNode is kubernetes' AddOrUpdateLabelsOnNode
// (pkg/controller/controller_utils.go): the Node is read in every attempt.
func labelNode(client kubernetes.Interface, name string, labels map[string]string) error {
	return retry.RetryOnConflict(retry.DefaultBackoff, func() error {
		node, err := client.CoreV1().Nodes().Get(context.TODO(), name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		node = node.DeepCopy()
		for k, v := range labels {
			node.Labels[k] = v
		}
		_, err = client.CoreV1().Nodes().Update(context.TODO(), node, metav1.UpdateOptions{})
		return err
	})
}

// labelNodePoll polls again on a conflict with the Node read before the
// loop (wait.PollImmediate, deprecated but current in v0.30).
func labelNodePoll(client kubernetes.Interface, name string) error {
	node, err := client.CoreV1().Nodes().Get(context.TODO(), name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	node.Labels["ready"] = "true"
	return wait.PollImmediate(time.Second, time.Minute, func() (bool, error) {
		_, err := client.CoreV1().Nodes().Update(context.TODO(), node, metav1.UpdateOptions{}) // want `wait.PollImmediate retries Update of node, read by Get at line 105 outside the closure`
		if err != nil {
			if apierrors.IsConflict(err) {
				return false, nil
			}
			return false, err
		}
		return true, nil
	})
}

// replaceConfig sends an object built from scratch: no resourceVersion,
// an unconditional update.
func replaceConfig(client kubernetes.Interface, ns string, data map[string]string) error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "config", Namespace: ns}, Data: data}
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		_, err := client.CoreV1().ConfigMaps(ns).Update(context.TODO(), cm, metav1.UpdateOptions{})
		return err
	})
}
