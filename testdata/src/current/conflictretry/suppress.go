package conflictretry

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
)

// upsertRoleOnPurpose is upsertRole with the finding suppressed, and a
// reason: a directive names the analyzer and says why.
func upsertRoleOnPurpose(ctx context.Context, client kubernetes.Interface, role string) error {
	cm, err := client.CoreV1().ConfigMaps("kube-system").Get(ctx, "aws-auth", metav1.GetOptions{})
	if err != nil {
		return err
	}
	cm.Data["mapRoles"] += role
	return retry.RetryOnConflict(retry.DefaultBackoff, func() error {
		_, err := client.CoreV1().ConfigMaps("kube-system").Update(ctx, cm, metav1.UpdateOptions{}) //ctrllint:ignore conflictretry the ConfigMap has one writer: a conflict here means the cluster is being torn down
		return err
	})
}
