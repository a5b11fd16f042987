package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

var (
	ReportDataSourceGVK = SchemeGroupVersion.WithKind("ReportDataSource")
	ReportQueryGVK      = SchemeGroupVersion.WithKind("ReportQuery")
)

// +genclient
type ReportDataSource struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

// +genclient
type ReportQuery struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

// +genclient
type PrestoTable struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

func (in *ReportDataSource) DeepCopyObject() runtime.Object { out := *in; return &out }
func (in *ReportQuery) DeepCopyObject() runtime.Object      { out := *in; return &out }
func (in *PrestoTable) DeepCopyObject() runtime.Object      { out := *in; return &out }
