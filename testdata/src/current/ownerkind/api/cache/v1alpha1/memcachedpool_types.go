package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// objectTypes are registered together, as cluster-api's API packages do
// (each types file's init appends to objectTypes, addKnownTypes registers
// them).
var objectTypes = []runtime.Object{}

func addKnownTypes(scheme *runtime.Scheme) error {
	scheme.AddKnownTypes(GroupVersion, objectTypes...)
	return nil
}

// +kubebuilder:object:root=true

// MemcachedPool groups Memcacheds.
type MemcachedPool struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

func init() {
	objectTypes = append(objectTypes, &MemcachedPool{})
}

func (in *MemcachedPool) DeepCopyObject() runtime.Object { out := *in; return &out }
