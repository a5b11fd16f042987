// Package v1alpha2 is cert-manager's pkg/apis/acme/v1alpha2 at v0.13: the
// Challenge kind, registered under the ACME group, whose name comes from
// the parent package's constant.
package v1alpha2

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"example.com/legacy/ownerkind/api/acme"
)

var SchemeGroupVersion = schema.GroupVersion{Group: acme.GroupName, Version: "v1alpha2"}

var (
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)
	AddToScheme   = SchemeBuilder.AddToScheme
)

func addKnownTypes(scheme *runtime.Scheme) error {
	scheme.AddKnownTypes(SchemeGroupVersion, &Challenge{})
	metav1.AddToGroupVersion(scheme, SchemeGroupVersion)
	return nil
}

type Challenge struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

func (in *Challenge) DeepCopyObject() runtime.Object { out := *in; return &out }
