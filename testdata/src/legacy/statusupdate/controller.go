// Package statusupdate holds status writes of controllers written against
// client-go v0.30, for the statusupdate analyzer.
package statusupdate

import (
	"context"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// CronJobController is shaped like kubernetes' cronjob controller of that
// era: status writes go through a func-typed field.
type CronJobController struct {
	kubeClient kubernetes.Interface

	updateStatusHandler func(ctx context.Context, cj *batchv1.CronJob) (*batchv1.CronJob, error)
}

func NewCronJobController(kubeClient kubernetes.Interface) *CronJobController {
	c := &CronJobController{kubeClient: kubeClient}
	c.updateStatusHandler = c.updateCronJobStatus
	return c
}

func (c *CronJobController) updateCronJobStatus(ctx context.Context, cj *batchv1.CronJob) (*batchv1.CronJob, error) {
	return c.kubeClient.BatchV1().CronJobs(cj.Namespace).UpdateStatus(ctx, cj, metav1.UpdateOptions{})
}

// recordSchedule sets the last schedule time and sends it with Update:
// dropped, the CronJob's status is a subresource.
func (c *CronJobController) recordSchedule(ctx context.Context, cj *batchv1.CronJob, at time.Time) error {
	cj = cj.DeepCopy()
	cj.Status.LastScheduleTime = &metav1.Time{Time: at}
	_, err := c.kubeClient.BatchV1().CronJobs(cj.Namespace).Update(ctx, cj, metav1.UpdateOptions{}) // want `CronJob status set at line 37 is sent only with Update, which ignores status`
	return err
}

// suspend changes the spec and sends it through the status handler:
// dropped.
func (c *CronJobController) suspend(ctx context.Context, cj *batchv1.CronJob) error {
	cj = cj.DeepCopy()
	suspend := true
	cj.Spec.Suspend = &suspend
	_, err := c.updateStatusHandler(ctx, cj) // want `CronJob spec changed at line 47 is sent only with c.updateCronJobStatus \(which calls UpdateStatus\)`
	return err
}

// Correct idioms: silent.

// recordActive sends the status through the status handler.
func (c *CronJobController) recordActive(ctx context.Context, cj *batchv1.CronJob, job *corev1.ObjectReference) error {
	cj = cj.DeepCopy()
	cj.Status.Active = append(cj.Status.Active, *job)
	_, err := c.updateStatusHandler(ctx, cj)
	return err
}

// relabelNode keeps labels through UpdateStatus: the Node status strategy
// does not reset metadata.
func (c *CronJobController) relabelNode(ctx context.Context, node *corev1.Node) error {
	node = node.DeepCopy()
	node.Labels["example.com/checked"] = "true"
	node.Status.Conditions = append(node.Status.Conditions, corev1.NodeCondition{Type: "Checked", Status: corev1.ConditionTrue})
	_, err := c.kubeClient.CoreV1().Nodes().UpdateStatus(ctx, node, metav1.UpdateOptions{})
	return err
}
