// Package ownerref is a module's shared owner-reference helpers, which the
// controllers of other packages build their children's references with.
// The shapes come from real helpers: cluster-api's
// internal/topology/ownerrefs.OwnerReferenceTo, kubernetes'
// pkg/controller/statefulset addControllerRef (stateful_set_utils.go) and
// prometheus-operator's pkg/operator WithManagingOwner (factory.go), as a
// module would share them from a package of its own.
package ownerref

import (
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var deploymentKind = appsv1.SchemeGroupVersion.WithKind("Deployment")

// OwnerReferenceTo is a plain owner reference to obj (cluster-api's
// ownerrefs.OwnerReferenceTo).
func OwnerReferenceTo(obj client.Object, gvk schema.GroupVersionKind) *metav1.OwnerReference { // want OwnerReferenceTo:`sharedowner\(returns owner of #0\)`
	return &metav1.OwnerReference{
		APIVersion: gvk.GroupVersion().String(),
		Kind:       gvk.Kind,
		Name:       obj.GetName(),
		UID:        obj.GetUID(),
	}
}

// GetDeploymentOwnerRef is a controller reference to d, built by hand.
func GetDeploymentOwnerRef(d *appsv1.Deployment) metav1.OwnerReference { // want GetDeploymentOwnerRef:`sharedowner\(returns controller of #0\)`
	isController := true
	return metav1.OwnerReference{
		APIVersion: deploymentKind.GroupVersion().String(),
		Kind:       deploymentKind.Kind,
		Name:       d.Name,
		UID:        d.UID,
		Controller: &isController,
	}
}

// ControllerRef is metav1.NewControllerRef through a variable.
func ControllerRef(owner metav1.Object, gvk schema.GroupVersionKind) *metav1.OwnerReference { // want ControllerRef:`sharedowner\(returns controller of #0\)`
	ref := metav1.NewControllerRef(owner, gvk)
	return ref
}

// AddControllerRef returns refs with owner added as their controller;
// refs that already hold it come back unchanged (statefulset's
// addControllerRef).
func AddControllerRef(refs []metav1.OwnerReference, owner metav1.Object, gvk schema.GroupVersionKind) []metav1.OwnerReference { // want AddControllerRef:`sharedowner\(returns controller of #1\)`
	for _, ref := range refs {
		if ref.UID == owner.GetUID() {
			return refs
		}
	}
	return append(refs, *metav1.NewControllerRef(owner, gvk))
}

// Owner is prometheus-operator's: an object that knows its own kind.
type Owner interface {
	metav1.ObjectMetaAccessor
	schema.ObjectKind
}

// SetManagingOwner makes owner the controller of o (prometheus-operator's
// WithManagingOwner, without the functional option around it).
func SetManagingOwner(o metav1.Object, owner Owner) { // want SetManagingOwner:`sharedowner\(sets on #0 controller of #1\)`
	isController := true
	o.SetOwnerReferences(append(o.GetOwnerReferences(), metav1.OwnerReference{
		APIVersion: owner.GroupVersionKind().GroupVersion().String(),
		Kind:       owner.GroupVersionKind().Kind,
		Name:       owner.GetObjectMeta().GetName(),
		UID:        owner.GetObjectMeta().GetUID(),
		Controller: &isController,
	}))
}

// AdoptRef is a controller reference to owner for child unless another
// owner controls child already: the helper arbitrates the sharing.
func AdoptRef(child, owner metav1.Object, gvk schema.GroupVersionKind) *metav1.OwnerReference { // want AdoptRef:`sharedowner\(returns owner of #1\)`
	if ref := metav1.GetControllerOf(child); ref != nil && ref.UID != owner.GetUID() {
		return nil
	}
	return metav1.NewControllerRef(owner, gvk)
}

// Not summarised: what these return is no reference to a parameter.

// ControllerOf is the reference to whoever controls obj, not to obj.
func ControllerOf(obj metav1.Object) *metav1.OwnerReference {
	return metav1.GetControllerOf(obj)
}

// Config is an operator's configuration, which names its own Deployment.
type Config struct {
	Operator *appsv1.Deployment
}

// OperatorRef is a reference to the operator's Deployment, a field of its
// parameter.
func OperatorRef(cfg *Config) *metav1.OwnerReference {
	return metav1.NewControllerRef(cfg.Operator, deploymentKind)
}

// AsOwner and AddOwnerRefToObject are apirator's owner helpers
// (pkg/controller/k8s/util/owner), as operator-sdk's early examples wrote
// them: the reference is built from the owner's metadata, and set by a
// second helper it is handed to.
func AsOwner(m *metav1.ObjectMeta) metav1.OwnerReference { // want AsOwner:`sharedowner\(returns controller of #0\)`
	isController := true
	return metav1.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment", Name: m.Name, UID: m.UID, Controller: &isController}
}

func AddOwnerRefToObject(o metav1.Object, r metav1.OwnerReference) { // want AddOwnerRefToObject:`sharedowner\(sets on #0 the reference #1\)`
	o.SetOwnerReferences(append(o.GetOwnerReferences(), r))
}

// RemoveOwnerRef takes r out of o's references: it sets none (not
// summarised).
func RemoveOwnerRef(o metav1.Object, r metav1.OwnerReference) {
	o.SetOwnerReferences(without(o.GetOwnerReferences(), r))
}

func without(refs []metav1.OwnerReference, r metav1.OwnerReference) []metav1.OwnerReference {
	var out []metav1.OwnerReference
	for _, ref := range refs {
		if ref.UID != r.UID {
			out = append(out, ref)
		}
	}
	return out
}
