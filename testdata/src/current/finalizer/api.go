// Package finalizer holds deletion branches of controller-runtime
// reconcilers, for the finalizer analyzer.
package finalizer

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Container stands for an object whose cleanup is outside the cluster (a
// container on a Docker host, a user in an identity provider, a webhook on
// a Git forge, a bucket).
//
// +kubebuilder:object:root=true
type Container struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ContainerSpec   `json:"spec,omitempty"`
	Status ContainerStatus `json:"status,omitempty"`
}

type ContainerSpec struct {
	Name  string `json:"name,omitempty"`
	Host  string `json:"host,omitempty"`
	Image string `json:"image,omitempty"`
}

type ContainerStatus struct {
	ID      string   `json:"id,omitempty"`
	Phase   string   `json:"phase,omitempty"`
	Secrets []string `json:"secrets,omitempty"`
}

func (in *Container) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return &out
}

// ContainerList is a list of Containers.
type ContainerList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Container `json:"items"`
}

func (in *ContainerList) DeepCopyObject() runtime.Object {
	out := *in
	out.Items = append([]Container(nil), in.Items...)
	return &out
}
