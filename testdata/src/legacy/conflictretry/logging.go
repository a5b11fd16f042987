package conflictretry

import (
	"context"

	"go.uber.org/zap"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
)

// Objects handed to a logger inside the retried closure. conflictretry
// knew klog and logr (kubernetes' StatefulSet status updater,
// pkg/controller/statefulset/stateful_set_status_updater.go, logs its
// object with klog.KObj(set)) but took zap, log/slog and logrus for code
// that may refresh the object, and stayed silent: they are in kube's one
// table of logging packages (kube.IsLogPkg) now.

// updateSetStatusZap is updateSetStatus with each attempt logged through
// zap, the logger controller-runtime's zap package builds on.
func (u *statusUpdater) updateSetStatusZap(log *zap.Logger, set *appsv1.StatefulSet, status *appsv1.StatefulSetStatus) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		log.Debug("updating StatefulSet status", zap.Any("statefulset", set))
		set.Status = *status
		_, err := u.client.AppsV1().StatefulSets(set.Namespace).UpdateStatus(context.TODO(), set, metav1.UpdateOptions{}) // want `retry.RetryOnConflict retries UpdateStatus of set, the parameter set of statusUpdater.updateSetStatusZap outside the closure and never read again inside it`
		return err
	})
}
