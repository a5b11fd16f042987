// Package v1alpha1 is a code-generator-style API package, shaped on
// kube-reporting/metering-operator's pkg/apis/metering/v1alpha1 (0.14.0):
// SchemeGroupVersion from a GroupName constant, types registered by
// addKnownTypes, and a GroupVersionKind variable per kind beside its type.
package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

const GroupName = "metering.example.com"

// SchemeGroupVersion is group version used to register these objects.
var SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1alpha1"}

var (
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)
	AddToScheme   = SchemeBuilder.AddToScheme
)

func addKnownTypes(scheme *runtime.Scheme) error {
	scheme.AddKnownTypes(SchemeGroupVersion,
		&ReportDataSource{},
		&ReportQuery{},
		&PrestoTable{},
	)
	metav1.AddToGroupVersion(scheme, SchemeGroupVersion)
	return nil
}
