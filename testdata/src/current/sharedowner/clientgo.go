// Package sharedowner holds controllers that set owner references, for the
// sharedowner analyzer.
package sharedowner

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
)

var deploymentKind = appsv1.SchemeGroupVersion.WithKind("Deployment")

const sharedName = "proxy-config"

type Controller struct {
	client   kubernetes.Interface
	cmLister corelisters.ConfigMapLister
}

// fixedName: every Deployment owns the same ConfigMap.
func (c *Controller) fixedName(ctx context.Context, d *appsv1.Deployment) error {
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{
			Name:            sharedName,
			Namespace:       d.Namespace,
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(d, deploymentKind)}, // want `owned ConfigMap has the fixed name "proxy-config": every Deployment claims the same object`
		},
	}
	_, err := c.client.CoreV1().ConfigMaps(d.Namespace).Create(ctx, cm, metav1.CreateOptions{})
	return err
}

// namedAfterOwner: one child per owner, in the owner's namespace. Silent.
func (c *Controller) namedAfterOwner(ctx context.Context, d *appsv1.Deployment) error {
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{
			Name:            d.Name + "-config",
			Namespace:       d.Namespace,
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(d, deploymentKind)},
		},
	}
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{GenerateName: "proxy-", Namespace: d.Namespace}}
	sa.OwnerReferences = append(sa.OwnerReferences, *metav1.NewControllerRef(d, deploymentKind))
	svc := &corev1.Service{}
	svc.Name = fmt.Sprintf("%s-svc", d.Name)
	svc.Namespace = d.Namespace
	svc.SetOwnerReferences([]metav1.OwnerReference{*metav1.NewControllerRef(d, deploymentKind)})
	_, err := c.client.CoreV1().ConfigMaps(d.Namespace).Create(ctx, cm, metav1.CreateOptions{})
	return err
}

// otherNamespace: the owner reference crosses namespaces.
func (c *Controller) otherNamespace(d *appsv1.Deployment, src *corev1.Secret) []metav1.Object {
	fixed := &corev1.Secret{}
	fixed.Name = d.Name + "-token"
	fixed.Namespace = metav1.NamespaceSystem
	fixed.OwnerReferences = append(fixed.OwnerReferences, *metav1.NewControllerRef(d, deploymentKind)) // want `owned Secret is placed in the fixed namespace "kube-system", not in its Deployment owner's namespace`
	copied := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{
		Name:            d.Name + "-copy",
		Namespace:       src.Namespace,
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(d, deploymentKind)}, // want `owned Secret is placed in the namespace of src, not in its Deployment owner's namespace`
	}}
	return []metav1.Object{fixed, copied}
}

// requestNamespace: a plain string variable may well be the owner's
// namespace (it is, in a reconciler). Silent.
func (c *Controller) requestNamespace(d *appsv1.Deployment, ns string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
		Name:            d.Name,
		Namespace:       ns,
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(d, deploymentKind)},
	}}
}

// clusterScopedChild: a ClusterRole cannot have a namespaced owner.
func (c *Controller) clusterScopedChild(d *appsv1.Deployment) *rbacv1.ClusterRole {
	return &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{
		Name:            d.Namespace + "-" + d.Name,
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(d, deploymentKind)}, // want `cluster-scoped ClusterRole gets an owner reference to namespaced Deployment: the garbage collector treats it as unresolvable`
	}}
}

// namespacedChildOfClusterOwner: allowed. Silent.
func (c *Controller) namespacedChildOfClusterOwner(ns *corev1.Namespace) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
		Name:            ns.Name + "-defaults",
		Namespace:       ns.Name,
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(ns, corev1.SchemeGroupVersion.WithKind("Namespace"))},
	}}
}

// claimExisting takes control of a ConfigMap it did not create.
func (c *Controller) claimExisting(ctx context.Context, d *appsv1.Deployment) error {
	cm, err := c.cmLister.ConfigMaps(d.Namespace).Get(d.Name)
	if err != nil {
		return err
	}
	cm = cm.DeepCopy()
	cm.OwnerReferences = append(cm.OwnerReferences, *metav1.NewControllerRef(d, deploymentKind)) // want `an existing ConfigMap read from a cache or the API server gets a controller reference without checking who controls it`
	_, err = c.client.CoreV1().ConfigMaps(d.Namespace).Update(ctx, cm, metav1.UpdateOptions{})
	return err
}

// adoptOrphan checks who controls the object first, as kubernetes'
// controller-ref manager does. Silent.
func (c *Controller) adoptOrphan(ctx context.Context, d *appsv1.Deployment) error {
	cm, err := c.client.CoreV1().ConfigMaps(d.Namespace).Get(ctx, d.Name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if ref := metav1.GetControllerOf(cm); ref != nil {
		return fmt.Errorf("%s/%s is controlled by %s", cm.Namespace, cm.Name, ref.Name)
	}
	cm.SetOwnerReferences(append(cm.GetOwnerReferences(), metav1.OwnerReference{
		APIVersion: "apps/v1", Kind: "Deployment", Name: d.Name, UID: d.UID, Controller: new(bool),
	}))
	_, err = c.client.CoreV1().ConfigMaps(d.Namespace).Update(ctx, cm, metav1.UpdateOptions{})
	return err
}

// plainOwner adds a non-controller owner reference to an existing object:
// several owners are allowed, and the object goes only with the last one.
// Silent.
func (c *Controller) plainOwner(d *appsv1.Deployment) error {
	cm, err := c.cmLister.ConfigMaps(d.Namespace).Get("shared")
	if err != nil {
		return err
	}
	cm = cm.DeepCopy()
	cm.OwnerReferences = append(cm.OwnerReferences, metav1.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment", Name: d.Name, UID: d.UID})
	return nil
}

// ConfigMapControllerRefManager stands for kubernetes' controller-ref
// managers (PodControllerRefManager and friends): adopting through one is
// the sanctioned way to take control of existing objects.
type ConfigMapControllerRefManager struct{ owner metav1.Object }

func (m *ConfigMapControllerRefManager) ClaimConfigMaps(cms []*corev1.ConfigMap) ([]*corev1.ConfigMap, error) {
	return cms, nil
}

// adoptThroughManager: silent.
func (c *Controller) adoptThroughManager(d *appsv1.Deployment, m *ConfigMapControllerRefManager) error {
	cm, err := c.cmLister.ConfigMaps(d.Namespace).Get(d.Name)
	if err != nil {
		return err
	}
	if _, err := m.ClaimConfigMaps([]*corev1.ConfigMap{cm}); err != nil {
		return err
	}
	cm = cm.DeepCopy()
	cm.OwnerReferences = append(cm.OwnerReferences, *metav1.NewControllerRef(d, deploymentKind))
	return nil
}

// constantRef builds a reference of constants, no owner variable in sight,
// as fixtures do: silent.
func constantRef() *corev1.Secret {
	yes := true
	return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{
		Name:            "fixture",
		Namespace:       "default",
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "1", Controller: &yes}},
	}}
}

// perNamespaceCertificate gives every Namespace one ConfigMap of a fixed
// name inside itself (knative's per-namespace "serving-certs"
// Certificate): each owner has its own object, none is shared. Silent.
func (c *Controller) perNamespaceCertificate(ns *corev1.Namespace) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
		Name:            "serving-certs",
		Namespace:       ns.Name,
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(ns, corev1.SchemeGroupVersion.WithKind("Namespace"))},
	}}
}

// sameNamespaceFixedName gives every Deployment of a namespace the same
// ConfigMap: they all share it. Reported.
func (c *Controller) sameNamespaceFixedName(d *appsv1.Deployment) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
		Name:            "shared-settings",
		Namespace:       d.Namespace,
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(d, appsv1.SchemeGroupVersion.WithKind("Deployment"))}, // want `owned ConfigMap has the fixed name "shared-settings"`
	}}
}
