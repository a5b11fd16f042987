package patchbase

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// PolicySpec is the desired state of a Policy.
type PolicySpec struct {
	Document string `json:"document"`
}

// PolicyStatus is the observed state of a Policy.
type PolicyStatus struct {
	ARN        string             `json:"arn,omitempty"`
	Healthy    bool               `json:"healthy,omitempty"`
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// Policy is a kubebuilder-style custom resource with generated deep copies.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Policy struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   PolicySpec   `json:"spec,omitempty"`
	Status PolicyStatus `json:"status,omitempty"`
}

func (in *Policy) DeepCopyInto(out *Policy) {
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Conditions = append([]metav1.Condition(nil), in.Status.Conditions...)
}

func (in *Policy) DeepCopy() *Policy {
	if in == nil {
		return nil
	}
	out := new(Policy)
	in.DeepCopyInto(out)
	return out
}

func (in *Policy) DeepCopyObject() runtime.Object { return in.DeepCopy() }
