package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

type MemcachedSpec struct {
	Size int32 `json:"size,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// Memcached is the Schema for the memcacheds API.
type Memcached struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec MemcachedSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// MemcachedList contains a list of Memcached.
type MemcachedList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Memcached `json:"items"`
}

// +kubebuilder:object:root=true

// MemcachedBackup is a backup of a Memcached.
type MemcachedBackup struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

func init() {
	SchemeBuilder.Register(&Memcached{}, &MemcachedList{}, &MemcachedBackup{})
}

func (in *Memcached) DeepCopyObject() runtime.Object       { out := *in; return &out }
func (in *MemcachedList) DeepCopyObject() runtime.Object   { out := *in; return &out }
func (in *MemcachedBackup) DeepCopyObject() runtime.Object { out := *in; return &out }
