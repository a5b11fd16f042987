package observedgeneration

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Condition types and reasons, as an operator's API package declares
// them.
const (
	ConditionReady          = "Ready"
	ConditionImageValidated = "ImageValidated"
	ReasonDeploymentReady   = "DeploymentReady"
	ReasonNotReady          = "DeploymentNotReady"
)

// RemoteProxyStatus is shaped on toolhive's MCPRemoteProxyStatus
// (cmd/thv-operator/api/v1alpha1): a phase, a message and conditions.
type RemoteProxyStatus struct {
	Phase              string             `json:"phase,omitempty"`
	Message            string             `json:"message,omitempty"`
	ObservedGeneration int64              `json:"observedGeneration,omitempty"`
	Conditions         []metav1.Condition `json:"conditions,omitempty"`
}

// RemoteProxy is a custom resource with a status subresource.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type RemoteProxy struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   RemoteProxySpec   `json:"spec,omitempty"`
	Status RemoteProxyStatus `json:"status,omitempty"`
}

type RemoteProxySpec struct {
	Image string `json:"image"`
}

func (in *RemoteProxy) DeepCopy() *RemoteProxy {
	out := *in
	out.Status.Conditions = append([]metav1.Condition(nil), in.Status.Conditions...)
	return &out
}

func (in *RemoteProxy) DeepCopyObject() runtime.Object { return in.DeepCopy() }

// Replica is shaped on deckhouse sds-replicated-volume's
// ReplicatedVolumeReplica (api/v1alpha1), whose status methods set
// conditions on the receiver.
//
// +kubebuilder:subresource:status
type Replica struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ReplicaSpec   `json:"spec,omitempty"`
	Status ReplicaStatus `json:"status,omitempty"`
}

type ReplicaSpec struct {
	Diskful bool `json:"diskful,omitempty"`
}

type ReplicaStatus struct {
	Devices    []string           `json:"devices,omitempty"`
	Quorum     bool               `json:"quorum,omitempty"`
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// Route is shaped on the Gateway API's HTTPRoute: its conditions are per
// parent, in status.parents[].conditions.
type Route struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   RouteSpec   `json:"spec,omitempty"`
	Status RouteStatus `json:"status,omitempty"`
}

type RouteSpec struct {
	ParentRefs []string `json:"parentRefs,omitempty"`
}

type RouteStatus struct {
	Parents []RouteParentStatus `json:"parents,omitempty"`
}

// RouteParentStatus is the Gateway API's: a parent and the route's
// conditions with respect to it.
type RouteParentStatus struct {
	ParentRef      string             `json:"parentRef"`
	ControllerName string             `json:"controllerName"`
	Conditions     []metav1.Condition `json:"conditions,omitempty"`
}

// LegacyCondition is a project's own condition type, shaped on
// cluster-api's clusterv1.Condition: no ObservedGeneration field.
type LegacyCondition struct {
	Type               string                 `json:"type"`
	Status             metav1.ConditionStatus `json:"status"`
	LastTransitionTime metav1.Time            `json:"lastTransitionTime,omitempty"`
	Reason             string                 `json:"reason,omitempty"`
}

// Machine keeps LegacyConditions.
type Machine struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Status MachineStatus `json:"status,omitempty"`
}

type MachineStatus struct {
	Conditions []LegacyCondition `json:"conditions,omitempty"`
}

// Probe is not an API object: a status without metadata, so no
// generation to observe.
type Probe struct {
	Name   string
	Status ProbeStatus
}

type ProbeStatus struct {
	Conditions []metav1.Condition
}

type CacheStatus struct {
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// Cache is shaped on kubebuilder's deploy-image scaffold's Memcached
// (testdata/project-v4-with-plugins/api/v1alpha1): a pointer status.
type Cache struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Status *CacheStatus `json:"status,omitempty"`
}

func (in *Cache) DeepCopyObject() runtimeObject { return in }

// runtimeObject is runtime.Object, for the deep copies of the fixture's
// types.
type runtimeObject = runtime.Object
