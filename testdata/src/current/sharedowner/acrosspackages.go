package sharedowner

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"example.com/current/sharedowner/ownerref"
)

// Controllers that build their children's owner references with the
// module's helpers (package ownerref) or their own: the helper's summary
// says which argument the reference names, and the checks apply to it.

// clusterRoleViaHelper: the shape of the bug in issue 19 — a helper
// package builds the owner reference (ownerRef :=
// controller.GetXOwnerRef(obj)) that a cluster-scoped child then carries.
func (c *Controller) clusterRoleViaHelper(ctx context.Context, d *appsv1.Deployment) error {
	ownerRef := ownerref.GetDeploymentOwnerRef(d)
	role := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{
		Name:            d.Namespace + "-" + d.Name,
		OwnerReferences: []metav1.OwnerReference{ownerRef}, // want `cluster-scoped ClusterRole gets an owner reference to namespaced Deployment`
	}}
	_, err := c.client.RbacV1().ClusterRoles().Create(ctx, role, metav1.CreateOptions{})
	return err
}

// clusterRoleBindingViaHelper: the helper's pointer, dereferenced inline.
func (c *Controller) clusterRoleBindingViaHelper(d *appsv1.Deployment) *rbacv1.ClusterRoleBinding {
	binding := &rbacv1.ClusterRoleBinding{}
	binding.Name = d.Namespace + "-" + d.Name
	binding.OwnerReferences = append(binding.OwnerReferences, *ownerref.ControllerRef(d, deploymentKind)) // want `cluster-scoped ClusterRoleBinding gets an owner reference to namespaced Deployment`
	return binding
}

// fixedNameViaHelper: cluster-api's OwnerReferenceTo, a plain reference,
// on a child of fixed name.
func (c *Controller) fixedNameViaHelper(d *appsv1.Deployment) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
		Name:            sharedName,
		Namespace:       d.Namespace,
		OwnerReferences: []metav1.OwnerReference{*ownerref.OwnerReferenceTo(d, deploymentKind)}, // want `owned ConfigMap has the fixed name "proxy-config": every Deployment claims the same object`
	}}
}

// claimViaHelper: statefulset's addControllerRef on an object read from
// the cache, with no check of who controls it.
func (c *Controller) claimViaHelper(ctx context.Context, d *appsv1.Deployment) error {
	cm, err := c.cmLister.ConfigMaps(d.Namespace).Get(d.Name)
	if err != nil {
		return err
	}
	cm = cm.DeepCopy()
	cm.SetOwnerReferences(ownerref.AddControllerRef(cm.GetOwnerReferences(), d, deploymentKind)) // want `an existing ConfigMap read from a cache or the API server gets a controller reference without checking who controls it`
	_, err = c.client.CoreV1().ConfigMaps(d.Namespace).Update(ctx, cm, metav1.UpdateOptions{})
	return err
}

// setOnClusterChild: prometheus-operator's WithManagingOwner shape sets
// the reference on its child argument.
func (c *Controller) setOnClusterChild(d *appsv1.Deployment) *corev1.PersistentVolume {
	pv := &corev1.PersistentVolume{ObjectMeta: metav1.ObjectMeta{Name: d.Namespace + "-" + d.Name}}
	ownerref.SetManagingOwner(pv, d) // want `cluster-scoped PersistentVolume gets an owner reference to namespaced Deployment`
	return pv
}

// sharedSecretViaHelper: named after the Secret its owner references,
// with a controller reference from a helper.
func (c *Controller) sharedSecretViaHelper(d *appsv1.Deployment) *corev1.Secret {
	ref := d.Spec.Template.Spec.ImagePullSecrets[0]
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: ref.Name + "-copy", Namespace: d.Namespace}}
	ownerref.SetManagingOwner(s, d) // want `owned Secret is named after another object \(ref.Name\), not after its Deployment owner`
	return s
}

// endpointSliceFor is kubernetes' endpointslicemirroring newEndpointSlice:
// the reference is built into a variable first. A namespaced child in its
// owner's namespace: silent.
func endpointSliceFor(endpoints *corev1.Endpoints) *corev1.ConfigMap {
	gvk := corev1.SchemeGroupVersion.WithKind("Endpoints")
	ownerRef := metav1.NewControllerRef(endpoints, gvk)
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
		GenerateName:    endpoints.Name + "-",
		Namespace:       endpoints.Namespace,
		OwnerReferences: []metav1.OwnerReference{*ownerRef},
	}}
}

// clusterChildOfVariable: the same variable on a cluster-scoped child.
func clusterChildOfVariable(endpoints *corev1.Endpoints) *rbacv1.ClusterRole {
	gvk := corev1.SchemeGroupVersion.WithKind("Endpoints")
	ownerRef := metav1.NewControllerRef(endpoints, gvk)
	return &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{
		Name:            endpoints.Namespace + "-" + endpoints.Name,
		OwnerReferences: []metav1.OwnerReference{*ownerRef}, // want `cluster-scoped ClusterRole gets an owner reference to namespaced Endpoints`
	}}
}

// Helpers of the package itself are used directly; an exported one is
// also a fact for other packages.

// NewOwnerRefs is a controller reference to d, in a slice.
func NewOwnerRefs(d *appsv1.Deployment) []metav1.OwnerReference { // want NewOwnerRefs:`sharedowner\(returns controller of #0\)`
	return []metav1.OwnerReference{*metav1.NewControllerRef(d, deploymentKind)}
}

// setOwner sets a plain reference to owner on child.
func setOwner(child metav1.Object, owner *appsv1.Deployment) {
	child.SetOwnerReferences([]metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: owner.Name, UID: owner.UID}})
}

func (c *Controller) localHelpers(d *appsv1.Deployment) []metav1.Object {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: d.Name}}
	ns.OwnerReferences = NewOwnerRefs(d) // want `cluster-scoped Namespace gets an owner reference to namespaced Deployment`
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: sharedName, Namespace: d.Namespace}}
	setOwner(cm, d) // want `owned ConfigMap has the fixed name "proxy-config"`
	return []metav1.Object{ns, cm}
}

// Silent: the right idioms, and references that name no argument.

// namespacedViaHelpers: children named after their owner, in its
// namespace.
func (c *Controller) namespacedViaHelpers(d *appsv1.Deployment) []metav1.Object {
	ownerRef := ownerref.GetDeploymentOwnerRef(d)
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
		Name:            d.Name + "-config",
		Namespace:       d.Namespace,
		OwnerReferences: []metav1.OwnerReference{ownerRef},
	}}
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: d.Name, Namespace: d.Namespace}}
	ownerref.SetManagingOwner(sa, d)
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: d.Name, Namespace: d.Namespace}}
	svc.OwnerReferences = NewOwnerRefs(d)
	return []metav1.Object{cm, sa, svc}
}

// clusterOwnerViaHelper: a namespaced child of a cluster-scoped owner is
// allowed.
func (c *Controller) clusterOwnerViaHelper(ns *corev1.Namespace) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
		Name:            "defaults",
		Namespace:       ns.Name,
		OwnerReferences: []metav1.OwnerReference{*ownerref.ControllerRef(ns, corev1.SchemeGroupVersion.WithKind("Namespace"))},
	}}
}

// notSetOnAChild: the reference only keys an index lookup.
func (c *Controller) notSetOnAChild(d *appsv1.Deployment) string {
	ownerRef := ownerref.GetDeploymentOwnerRef(d)
	return string(ownerRef.UID) + "/" + ownerRef.Name
}

// referenceToSomethingElse: the helpers' references name no argument (the
// object's controller, a field of a configuration).
func (c *Controller) referenceToSomethingElse(d *appsv1.Deployment, cfg *ownerref.Config) []metav1.Object {
	role := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: d.Namespace + "-" + d.Name}}
	if ref := ownerref.ControllerOf(d); ref != nil {
		role.OwnerReferences = []metav1.OwnerReference{*ref}
	}
	binding := &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{
		Name:            "operator",
		OwnerReferences: []metav1.OwnerReference{*ownerref.OperatorRef(cfg)},
	}}
	return []metav1.Object{role, binding}
}

// adoptThroughHelper: the helper refuses an object controlled by another
// owner.
func (c *Controller) adoptThroughHelper(ctx context.Context, d *appsv1.Deployment) error {
	cm, err := c.cmLister.ConfigMaps(d.Namespace).Get(d.Name)
	if err != nil {
		return err
	}
	cm = cm.DeepCopy()
	ref := ownerref.AdoptRef(cm, d, deploymentKind)
	if ref == nil {
		return nil
	}
	cm.OwnerReferences = append(cm.OwnerReferences, *ref)
	_, err = c.client.CoreV1().ConfigMaps(d.Namespace).Update(ctx, cm, metav1.UpdateOptions{})
	return err
}

// reassigned: a variable given two references is not followed.
func (c *Controller) reassigned(d *appsv1.Deployment, other *corev1.Namespace) *rbacv1.ClusterRole {
	ownerRef := metav1.NewControllerRef(d, deploymentKind)
	if d.Spec.Paused {
		ownerRef = metav1.NewControllerRef(other, corev1.SchemeGroupVersion.WithKind("Namespace"))
	}
	return &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{
		Name:            d.Namespace + "-" + d.Name,
		OwnerReferences: []metav1.OwnerReference{*ownerRef},
	}}
}

// operatorSDKStyle: a reference built from the owner's metadata, handed
// to a helper that sets it (apirator's pkg/controller/k8s/util/owner).
func (c *Controller) operatorSDKStyle(d *appsv1.Deployment) []metav1.Object {
	role := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: d.Namespace + "-" + d.Name}}
	ownerref.AddOwnerRefToObject(role, ownerref.AsOwner(&d.ObjectMeta)) // want `cluster-scoped ClusterRole gets an owner reference to namespaced Deployment`
	// Silent: a child named after its owner, and a reference taken out.
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: d.Name + "-config", Namespace: d.Namespace}}
	ownerref.AddOwnerRefToObject(cm, ownerref.AsOwner(&d.ObjectMeta))
	binding := &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: d.Namespace + "-" + d.Name}}
	ownerref.RemoveOwnerRef(binding, ownerref.AsOwner(&d.ObjectMeta))
	return []metav1.Object{role, cm, binding}
}
