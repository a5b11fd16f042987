// Package conflictretry holds conflictretry's fixtures on client-go v0.17,
// whose typed clients take no context: UpdateStatus(obj).
package conflictretry

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	"k8s.io/client-go/util/retry"
)

type statusUpdater struct {
	client    kubernetes.Interface
	setLister appslisters.StatefulSetLister
}

// updateSetStatus is kubernetes' StatefulSet status updater at v1.17
// (pkg/controller/statefulset/stateful_set_status_updater.go,
// UpdateStatefulSetStatus) without its re-read from the lister after a
// failed attempt: the object handed in is sent again and again.
func (u *statusUpdater) updateSetStatus(set *appsv1.StatefulSet, status *appsv1.StatefulSetStatus) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		set.Status = *status
		_, err := u.client.AppsV1().StatefulSets(set.Namespace).UpdateStatus(set) // want `retry.RetryOnConflict retries UpdateStatus of set, the parameter set of statusUpdater.updateSetStatus outside the closure and never read again inside it`
		return err
	})
}

// updateSetStatusRefreshed is the real one: after a failed attempt it
// reads the StatefulSet again from the lister.
func (u *statusUpdater) updateSetStatusRefreshed(set *appsv1.StatefulSet, status *appsv1.StatefulSetStatus) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		set.Status = *status
		_, updateErr := u.client.AppsV1().StatefulSets(set.Namespace).UpdateStatus(set)
		if updateErr == nil {
			return nil
		}
		if updated, err := u.setLister.StatefulSets(set.Namespace).Get(set.Name); err == nil {
			set = updated.DeepCopy()
		} else {
			utilruntime.HandleError(fmt.Errorf("error getting updated StatefulSet %s/%s from lister: %v", set.Namespace, set.Name, err))
		}
		return updateErr
	})
}
