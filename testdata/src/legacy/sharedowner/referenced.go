package sharedowner

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
)

var (
	ingressKind    = networkingv1.SchemeGroupVersion.WithKind("Ingress")
	deploymentKind = appsv1.SchemeGroupVersion.WithKind("Deployment")
)

type Copier struct {
	cmLister     corelisters.ConfigMapLister
	secretLister corelisters.SecretLister
}

// tlsSecrets is shaped on cert-manager's ingress-shim
// (pkg/controller/certificate-shim/sync.go, buildCertificates), written
// against client-go listers: one child per TLS block, named after the
// block's Secret through a variable and controlled by the Ingress. Two
// Ingresses listing the same secretName claim one child: reported.
func (c *Copier) tlsSecrets(ing *networkingv1.Ingress) []*corev1.Secret {
	var out []*corev1.Secret
	for _, tls := range ing.Spec.TLS {
		name := tls.SecretName
		s := &corev1.Secret{}
		s.Name = name
		s.Namespace = ing.Namespace
		s.SetOwnerReferences([]metav1.OwnerReference{*metav1.NewControllerRef(ing, ingressKind)}) // want `owned Secret is named after another object \(tls.SecretName\), not after its Ingress owner`
		out = append(out, s)
	}
	return out
}

// copyMountedConfig copies a ConfigMap the Deployment's pods mount,
// read from the lister by the volume's reference, into a child named
// after it (the shape issue 19 names: name := cm.Name + "-copy"). Every
// Deployment mounting that ConfigMap claims the same copy: reported.
func (c *Copier) copyMountedConfig(d *appsv1.Deployment) ([]*corev1.ConfigMap, error) {
	var out []*corev1.ConfigMap
	for _, vol := range d.Spec.Template.Spec.Volumes {
		if vol.ConfigMap == nil {
			continue
		}
		cm, err := c.cmLister.ConfigMaps(d.Namespace).Get(vol.ConfigMap.Name)
		if err != nil {
			return nil, err
		}
		name := cm.Name + "-copy"
		out = append(out, &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{
				Name:            name,
				Namespace:       d.Namespace,
				OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(d, deploymentKind)}, // want `owned ConfigMap is named after another object \(cm.Name\), not after its Deployment owner`
			},
			Data: cm.Data,
		})
	}
	return out, nil
}

// copyPerOwner names each copy after the Deployment and the ConfigMap
// together: unique per owner. Silent.
func (c *Copier) copyPerOwner(d *appsv1.Deployment) ([]*corev1.ConfigMap, error) {
	var out []*corev1.ConfigMap
	for _, vol := range d.Spec.Template.Spec.Volumes {
		if vol.ConfigMap == nil {
			continue
		}
		cm, err := c.cmLister.ConfigMaps(d.Namespace).Get(vol.ConfigMap.Name)
		if err != nil {
			return nil, err
		}
		copied := &corev1.ConfigMap{Data: cm.Data}
		copied.Name = d.Name + "-" + cm.Name
		copied.Namespace = d.Namespace
		copied.OwnerReferences = append(copied.OwnerReferences, *metav1.NewControllerRef(d, deploymentKind))
		out = append(out, copied)
	}
	return out, nil
}

// ownerNamedSecret reads a Secret named after its owner and names the
// child after that Secret: still one per owner. Silent.
func (c *Copier) ownerNamedSecret(d *appsv1.Deployment) (*corev1.Secret, error) {
	src, err := c.secretLister.Secrets(d.Namespace).Get(d.Name + "-tls")
	if err != nil {
		return nil, err
	}
	return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{
		Name:            src.Name + "-copy",
		Namespace:       d.Namespace,
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(d, deploymentKind)},
	}}, nil
}
