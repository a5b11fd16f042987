package conflictretry

import (
	"context"
	"log/slog"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
)

// Objects handed to a logger inside the retried closure. conflictretry
// knew klog and logr (kubernetes' StatefulSet status updater,
// pkg/controller/statefulset/stateful_set_status_updater.go, logs its
// object with klog.KObj(set)) but took log/slog, zap and logrus for code
// that may refresh the object, and stayed silent: they are in kube's one
// table of logging packages (kube.IsLogPkg) now.

// updateSetStatusSlog is updateSetStatus with each attempt logged through
// the standard library's structured logger.
func (u *statusUpdater) updateSetStatusSlog(ctx context.Context, set *appsv1.StatefulSet, status *appsv1.StatefulSetStatus) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		slog.DebugContext(ctx, "updating StatefulSet status", "statefulset", set)
		set.Status = *status
		_, err := u.client.AppsV1().StatefulSets(set.Namespace).UpdateStatus(ctx, set, metav1.UpdateOptions{}) // want `retry.RetryOnConflict retries UpdateStatus of set, the parameter set of statusUpdater.updateSetStatusSlog outside the closure and never read again inside it`
		return err
	})
}
