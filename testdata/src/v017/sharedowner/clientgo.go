// Package sharedowner holds sharedowner's fixtures on client-go v0.17,
// whose typed clients take no context: Get(name, opts), Update(obj).
package sharedowner

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

var deploymentKind = appsv1.SchemeGroupVersion.WithKind("Deployment")

type Controller struct {
	client kubernetes.Interface
}

// claimExisting takes control of a ConfigMap it read from the API server
// and did not create: the Deployment's deletion then deletes it.
func (c *Controller) claimExisting(d *appsv1.Deployment) error {
	cm, err := c.client.CoreV1().ConfigMaps(d.Namespace).Get(d.Name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	cm.OwnerReferences = append(cm.OwnerReferences, *metav1.NewControllerRef(d, deploymentKind)) // want `an existing ConfigMap read from a cache or the API server gets a controller reference without checking who controls it`
	_, err = c.client.CoreV1().ConfigMaps(d.Namespace).Update(cm)
	return err
}

// adoptOrphan checks who controls the object first, as kubernetes'
// controller-ref manager does (pkg/controller/controller_ref_manager.go).
// Silent.
func (c *Controller) adoptOrphan(d *appsv1.Deployment) error {
	cm, err := c.client.CoreV1().ConfigMaps(d.Namespace).Get(d.Name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if ref := metav1.GetControllerOf(cm); ref != nil {
		return fmt.Errorf("%s/%s is controlled by %s", cm.Namespace, cm.Name, ref.Name)
	}
	cm.OwnerReferences = append(cm.OwnerReferences, *metav1.NewControllerRef(d, deploymentKind))
	_, err = c.client.CoreV1().ConfigMaps(d.Namespace).Update(cm)
	return err
}
