// This file is the custom resource the load balancer reconciler reports
// to: a LoadBalancerClaim beside each Service, whose Ready condition tells
// the teams that wait on a Service's address (a deploy pipeline, a canary
// tool) that its load balancer is there. Its bug is deliberate, marked by
// a comment naming the analyzer that reports it.

package example

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// LoadBalancerClaimSpec is what a team asks of the Service's load balancer.
type LoadBalancerClaimSpec struct {
	// Internal asks for an address inside the VPC.
	Internal bool `json:"internal,omitempty"`
}

// LoadBalancerClaimStatus is what the reconciler made.
type LoadBalancerClaimStatus struct {
	Address    string             `json:"address,omitempty"`
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// LoadBalancerClaim asks for a load balancer for the Service of its name.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type LoadBalancerClaim struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   LoadBalancerClaimSpec   `json:"spec,omitempty"`
	Status LoadBalancerClaimStatus `json:"status,omitempty"`
}

// DeepCopyObject is what controller-gen writes, in short.
func (in *LoadBalancerClaim) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Conditions = append([]metav1.Condition(nil), in.Status.Conditions...)
	return &out
}

// claimReady records the load balancer's address on the Service's claim,
// if it has one, and marks the claim Ready.
func (r *LoadBalancerReconciler) claimReady(ctx context.Context, svc *corev1.Service, ip string) error {
	var claim LoadBalancerClaim
	if err := r.Get(ctx, client.ObjectKeyFromObject(svc), &claim); err != nil {
		return client.IgnoreNotFound(err)
	}
	claim.Status.Address = ip
	meta.SetStatusCondition(&claim.Status.Conditions, metav1.Condition{ // observedgeneration: no ObservedGeneration, so whoever waits for the claim's new spec never sees it Ready
		Type:   "Ready",
		Status: metav1.ConditionTrue,
		Reason: "Provisioned",
	})
	return r.Status().Update(ctx, &claim)
}
