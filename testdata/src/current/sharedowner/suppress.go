package sharedowner

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// singletonOwner gives a fixed-name child to a Deployment the cluster has
// only one of, and says so in a directive.
func (c *Controller) singletonOwner(ctx context.Context, d *appsv1.Deployment) error {
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{
			Name:            "cluster-proxy-config",
			Namespace:       d.Namespace,
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(d, deploymentKind)}, //ctrllint:ignore sharedowner only the cluster's one proxy Deployment reaches here
		},
	}
	_, err := c.client.CoreV1().ConfigMaps(d.Namespace).Create(ctx, cm, metav1.CreateOptions{})
	return err
}
