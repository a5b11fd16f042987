package unwatched

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// MemcachedSpec is the desired state of a Memcached: the kubebuilder
// tutorial's (operator-sdk's website/content/en/docs/building-operators/golang/tutorial.md).
type MemcachedSpec struct {
	Size int32 `json:"size,omitempty"`
}

// MemcachedStatus is its observed state.
type MemcachedStatus struct {
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// Memcached is the controller's primary kind.
type Memcached struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   MemcachedSpec   `json:"spec,omitempty"`
	Status MemcachedStatus `json:"status,omitempty"`
}

func (in *Memcached) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return &out
}
