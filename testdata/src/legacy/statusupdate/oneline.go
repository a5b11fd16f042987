package statusupdate

import (
	"context"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// recordCompact sets the status and sends it on one line: the fix rewrites
// the send within the line.
func (c *CronJobController) recordCompact(ctx context.Context, cj *batchv1.CronJob, at time.Time) error {
	cj = cj.DeepCopy(); cj.Status.LastSuccessfulTime = &metav1.Time{Time: at}; _, err := c.kubeClient.BatchV1().CronJobs(cj.Namespace).Update(ctx, cj, metav1.UpdateOptions{}); return err // want `CronJob status set at line 14 is sent only with Update`
}
