// Package v1 contains the CronJob API of the kubebuilder book's tutorial
// project (docs/book/src/cronjob-tutorial/testdata/project/api/v1,
// kubernetes-sigs/kubebuilder at 0343aa6d): its group comes from the
// +groupName marker and GroupVersion below, as kubebuilder scaffolds
// groupversion_info.go.
// +kubebuilder:object:generate=true
// +groupName=batch.tutorial.kubebuilder.io
package v1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/scheme"
)

var (
	// GroupVersion is group version used to register these objects.
	GroupVersion = schema.GroupVersion{Group: "batch.tutorial.kubebuilder.io", Version: "v1"}

	// SchemeBuilder is used to add go types to the GroupVersionKind scheme.
	SchemeBuilder = &scheme.Builder{GroupVersion: GroupVersion}

	// AddToScheme adds the types in this group-version to the given scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)
