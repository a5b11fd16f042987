// Package ownerref is a module's shared owner-reference helpers (shapes:
// cluster-api's internal/topology/ownerrefs.OwnerReferenceTo, kubernetes'
// pkg/controller/endpointslicemirroring newEndpointSlice's variable, and
// prometheus-operator's pkg/operator WithManagingOwner), written against
// client-go v0.30.
package ownerref

import (
	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var cronJobKind = batchv1.SchemeGroupVersion.WithKind("CronJob")

// GetCronJobOwnerRef is a controller reference to cj.
func GetCronJobOwnerRef(cj *batchv1.CronJob) *metav1.OwnerReference { // want GetCronJobOwnerRef:`sharedowner\(returns controller of #0\)`
	ownerRef := metav1.NewControllerRef(cj, cronJobKind)
	return ownerRef
}

// OwnerReferenceTo is a plain owner reference to obj.
func OwnerReferenceTo(obj metav1.Object, gvk schema.GroupVersionKind) metav1.OwnerReference { // want OwnerReferenceTo:`sharedowner\(returns owner of #0\)`
	return metav1.OwnerReference{APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind, Name: obj.GetName(), UID: obj.GetUID()}
}

// SetControllerOwner makes owner the controller of o.
func SetControllerOwner(o, owner metav1.Object, gvk schema.GroupVersionKind) { // want SetControllerOwner:`sharedowner\(sets on #0 controller of #1\)`
	o.SetOwnerReferences(append(o.GetOwnerReferences(), *metav1.NewControllerRef(owner, gvk)))
}

// ControllerOf is the reference to whoever controls obj: not summarised.
func ControllerOf(obj metav1.Object) *metav1.OwnerReference {
	return metav1.GetControllerOf(obj)
}
