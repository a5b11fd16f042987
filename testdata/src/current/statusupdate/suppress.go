package statusupdate

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	appsv1ac "k8s.io/client-go/applyconfigurations/apps/v1"
)

// applyStatusOnPurpose is applyStatus with the finding suppressed, and a
// reason: a directive names the analyzer and says why.
func (c *Controller) applyStatusOnPurpose(ctx context.Context, ns, name string, ready int32) error {
	ac := appsv1ac.Deployment(name, ns).
		WithStatus(appsv1ac.DeploymentStatus().WithReadyReplicas(ready))
	_, err := c.kubeclientset.AppsV1().Deployments(ns).Apply(ctx, ac, metav1.ApplyOptions{FieldManager: "ctl"}) //ctrllint:ignore statusupdate the test server this targets has no status subresource
	return err
}
