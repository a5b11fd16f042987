package statusupdate

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	appsv1ac "k8s.io/client-go/applyconfigurations/apps/v1"
)

// applyStatus puts a status into an apply configuration sent with Apply:
// the main resource ignores it.
func (c *Controller) applyStatus(ctx context.Context, ns, name string, ready int32) error {
	ac := appsv1ac.Deployment(name, ns).
		WithStatus(appsv1ac.DeploymentStatus().WithReadyReplicas(ready))
	_, err := c.kubeclientset.AppsV1().Deployments(ns).Apply(ctx, ac, metav1.ApplyOptions{FieldManager: "ctl"}) // want `Deployment status set at line 14 is sent only with Apply, which ignores status: Deployment has a status subresource, so the change is silently dropped; write status with ApplyStatus`
	return err
}

// applySpecAsStatus sends a spec with ApplyStatus: dropped.
func (c *Controller) applySpecAsStatus(ctx context.Context, ns, name string, replicas int32) error {
	ac := appsv1ac.Deployment(name, ns)
	ac.WithSpec(appsv1ac.DeploymentSpec().WithReplicas(replicas))
	_, err := c.kubeclientset.AppsV1().Deployments(ns).ApplyStatus(ctx, ac, metav1.ApplyOptions{FieldManager: "ctl"}) // want `Deployment spec changed at line 22 is sent only with ApplyStatus`
	return err
}

// applyRight sends each part to where it belongs: silent.
func (c *Controller) applyRight(ctx context.Context, ns, name string, replicas, ready int32) error {
	spec := appsv1ac.Deployment(name, ns).WithSpec(appsv1ac.DeploymentSpec().WithReplicas(replicas))
	if _, err := c.kubeclientset.AppsV1().Deployments(ns).Apply(ctx, spec, metav1.ApplyOptions{FieldManager: "ctl"}); err != nil {
		return err
	}
	status := appsv1ac.Deployment(name, ns).WithStatus(appsv1ac.DeploymentStatus().WithReadyReplicas(ready))
	_, err := c.kubeclientset.AppsV1().Deployments(ns).ApplyStatus(ctx, status, metav1.ApplyOptions{FieldManager: "ctl"})
	return err
}

// applyBoth sends one apply configuration to both: silent.
func (c *Controller) applyBoth(ctx context.Context, ns, name string, replicas, ready int32) error {
	ac := appsv1ac.Deployment(name, ns).
		WithSpec(appsv1ac.DeploymentSpec().WithReplicas(replicas)).
		WithStatus(appsv1ac.DeploymentStatus().WithReadyReplicas(ready))
	if _, err := c.kubeclientset.AppsV1().Deployments(ns).Apply(ctx, ac, metav1.ApplyOptions{FieldManager: "ctl"}); err != nil {
		return err
	}
	_, err := c.kubeclientset.AppsV1().Deployments(ns).ApplyStatus(ctx, ac, metav1.ApplyOptions{FieldManager: "ctl"})
	return err
}
