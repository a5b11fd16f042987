package finalizerpatch

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Installation is a cluster-scoped custom resource on which several
// controllers keep a finalizer of their own (tigera/operator's
// operator.tigera.io/v1 Installation).
type Installation struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec InstallationSpec `json:"spec,omitempty"`
}

// InstallationSpec is the desired state of an Installation.
type InstallationSpec struct {
	Variant string `json:"variant,omitempty"`
}

func (in *Installation) DeepCopyInto(out *Installation) {
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
}

func (in *Installation) DeepCopy() *Installation {
	if in == nil {
		return nil
	}
	out := new(Installation)
	in.DeepCopyInto(out)
	return out
}

func (in *Installation) DeepCopyObject() runtime.Object { return in.DeepCopy() }

// Cluster is a user cluster that a seed's controllers (cloud providers,
// backups, SSH keys, credentials) each guard with a finalizer
// (kubermatic's kubermatic.k8c.io/v1 Cluster).
type Cluster struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ClusterSpec   `json:"spec,omitempty"`
	Status ClusterStatus `json:"status,omitempty"`
}

// ClusterSpec is the desired state of a Cluster.
type ClusterSpec struct {
	Paused   bool   `json:"paused,omitempty"`
	Provider string `json:"provider,omitempty"`
}

// ClusterStatus is the observed state of a Cluster.
type ClusterStatus struct {
	Phase string `json:"phase,omitempty"`
}

func (in *Cluster) DeepCopyInto(out *Cluster) {
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
}

func (in *Cluster) DeepCopy() *Cluster {
	if in == nil {
		return nil
	}
	out := new(Cluster)
	in.DeepCopyInto(out)
	return out
}

func (in *Cluster) DeepCopyObject() runtime.Object { return in.DeepCopy() }
