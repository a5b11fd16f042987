// Package statusupdate holds statusupdate's fixtures on client-go v0.17,
// whose typed clients take no context: Update(obj), UpdateStatus(obj).
package statusupdate

import (
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/client-go/kubernetes"
)

type Controller struct {
	kubeclientset kubernetes.Interface
}

// updateStatus is sample-controller's updateFooStatus at v0.17
// (controller.go): "If the CustomResourceSubresources feature gate is not
// enabled, we must use Update instead of UpdateStatus". With the status
// subresource on, the API server drops the change; here on a Deployment,
// whose status is a subresource.
func (c *Controller) updateStatus(d *appsv1.Deployment, ready int32) error {
	dCopy := d.DeepCopy()
	dCopy.Status.AvailableReplicas = ready
	_, err := c.kubeclientset.AppsV1().Deployments(d.Namespace).Update(dCopy) // want `Deployment status set at line 21 is sent only with Update, which ignores status`
	return err
}

// updateStatusSubresource sends the status where the server keeps it.
func (c *Controller) updateStatusSubresource(d *appsv1.Deployment, ready int32) error {
	dCopy := d.DeepCopy()
	dCopy.Status.AvailableReplicas = ready
	_, err := c.kubeclientset.AppsV1().Deployments(d.Namespace).UpdateStatus(dCopy)
	return err
}

// scale changes the spec and sends it with UpdateStatus: dropped too.
func (c *Controller) scale(d *appsv1.Deployment, replicas int32) error {
	dCopy := d.DeepCopy()
	dCopy.Spec.Replicas = &replicas
	_, err := c.kubeclientset.AppsV1().Deployments(d.Namespace).UpdateStatus(dCopy) // want `Deployment spec changed at line 37 is sent only with UpdateStatus`
	return err
}
