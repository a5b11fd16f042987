// Package workloads holds the correct look-alikes of kubernetes'
// pkg/controller (v1.37): each names its owner's kind, through the shapes
// the analyzer must follow or leave alone.
package workloads

import (
	appsv1 "k8s.io/api/apps/v1"
	appsv1beta2 "k8s.io/api/apps/v1beta2"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	extensionsv1beta1 "k8s.io/api/extensions/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	controllerKind = appsv1.SchemeGroupVersion.WithKind("StatefulSet")
	podKind        = corev1.SchemeGroupVersion.WithKind("Pod")
)

// statefulset/stateful_set_utils.go's addControllerRef, called with the set
// and controllerKind, and with the pod and podKind
// (updateClaimOwnerRefToSetAndPod).
func addControllerRef(refs []metav1.OwnerReference, owner metav1.Object, gvk schema.GroupVersionKind) []metav1.OwnerReference {
	for _, ref := range refs {
		if ref.UID == owner.GetUID() {
			return refs
		}
	}
	return append(refs, *metav1.NewControllerRef(owner, gvk))
}

func updateClaimOwnerRefToSetAndPod(claim *corev1.PersistentVolumeClaim, set *appsv1.StatefulSet, pod *corev1.Pod) {
	refs := claim.GetOwnerReferences()
	refs = addControllerRef(refs, set, controllerKind)
	refs = addControllerRef(refs, pod, podKind)
	claim.SetOwnerReferences(refs)
}

// endpointslicemirroring/utils.go's newEndpointSlice: a local GVK literal of
// the core group.
func newEndpointSlice(endpoints *corev1.Endpoints) *discoveryv1.EndpointSlice {
	gvk := schema.GroupVersionKind{Version: "v1", Kind: "Endpoints"}
	ownerRef := metav1.NewControllerRef(endpoints, gvk)
	return &discoveryv1.EndpointSlice{ObjectMeta: metav1.ObjectMeta{
		Namespace:       endpoints.Namespace,
		OwnerReferences: []metav1.OwnerReference{*ownerRef},
	}}
}

// replicaset/replica_set.go's manageReplicas: the replication manager runs
// this controller on ReplicationControllers converted to ReplicaSets, with a
// ReplicationController kind set in a field at construction
// (replication/replication_controller.go). A field's kind is not followed.
type ReplicaSetController struct {
	schema.GroupVersionKind
}

func NewReplicationManager() *ReplicaSetController {
	return &ReplicaSetController{GroupVersionKind: corev1.SchemeGroupVersion.WithKind("ReplicationController")}
}

func (rsc *ReplicaSetController) newPod(rs *appsv1.ReplicaSet) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
		Namespace:       rs.Namespace,
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(rs, rsc.GroupVersionKind)},
	}}
}

// The same kind under a group serving it from the same storage
// (extensions/v1beta1 and apps), and another served version of the same
// group: the garbage collector finds the same object.
func legacyGroups(d *extensionsv1beta1.Deployment, set *appsv1.StatefulSet) []metav1.OwnerReference {
	return []metav1.OwnerReference{
		*metav1.NewControllerRef(d, appsv1.SchemeGroupVersion.WithKind("Deployment")),
		*metav1.NewControllerRef(set, appsv1beta2.SchemeGroupVersion.WithKind("StatefulSet")),
	}
}

// A kind variable the package assigns after its declaration is not a
// constant.
var parentKind = appsv1.SchemeGroupVersion.WithKind("Deployment")

func init() {
	parentKind = appsv1.SchemeGroupVersion.WithKind("DaemonSet")
}

func newDaemonPod(ds *appsv1.DaemonSet) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(ds, parentKind)},
	}}
}

// A kind chosen at run time.
func refFor(set *appsv1.StatefulSet, gvk schema.GroupVersionKind) *metav1.OwnerReference {
	if gvk.Empty() {
		gvk = controllerKind
	}
	return metav1.NewControllerRef(set, gvk)
}

func callers(set *appsv1.StatefulSet) *metav1.OwnerReference {
	return refFor(set, podKind) // silent: refFor assigns its parameter
}

// A template embeds ObjectMeta but is no kind: not an owner the analyzer
// knows.
func templateRef(set *appsv1.StatefulSet) *metav1.OwnerReference {
	return metav1.NewControllerRef(&set.Spec.Template, podKind)
}
