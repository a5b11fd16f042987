// Package finalizer holds deletion branches of controllers written
// against client-go v0.30 and controller-runtime v0.18, for the finalizer
// analyzer.
package finalizer

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
)

const policyFinalizer = "example.com/policy"

// +kubebuilder:object:root=true
type Policy struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            PolicyStatus `json:"status,omitempty"`
}

type PolicyStatus struct {
	Phase     string `json:"phase,omitempty"`
	VaultName string `json:"vaultName,omitempty"`
}

func (in *Policy) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return &out
}

// Vault is the store the policies are written to.
type Vault interface {
	DeletePolicy(ctx context.Context, name string) error
	RemovePolicyManaged(ctx context.Context, name string) error
}

// PolicyReconciler is shaped on vault-access-operator's
// VaultPolicyReconciler (panteparak/vault-access-operator,
// internal/controller/vaultpolicy_controller.go): Reconcile hands a
// deleted policy to reconcileDelete, whose status write returns its error
// (no cleanup), whose client lookup's error only skips the store, and whose
// DeletePolicy and RemovePolicyManaged errors are logged before the
// finalizer goes.
type PolicyReconciler struct {
	client.Client
	vault func(ctx context.Context, p *Policy) (Vault, error)
}

func (r *PolicyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	policy := &Policy{}
	if err := r.Get(ctx, req.NamespacedName, policy); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !policy.DeletionTimestamp.IsZero() {
		return r.reconcileDelete(ctx, policy)
	}
	if !controllerutil.ContainsFinalizer(policy, policyFinalizer) {
		controllerutil.AddFinalizer(policy, policyFinalizer)
		if err := r.Update(ctx, policy); err != nil {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, nil
}

func (r *PolicyReconciler) reconcileDelete(ctx context.Context, policy *Policy) (ctrl.Result, error) {
	log := logf.FromContext(ctx)
	policy.Status.Phase = "Deleting"
	if err := r.Status().Update(ctx, policy); err != nil {
		return ctrl.Result{}, err
	}
	vault, err := r.vault(ctx, policy)
	if err != nil {
		log.Error(err, "no vault client during deletion, continuing")
	} else {
		if err := vault.DeletePolicy(ctx, policy.Status.VaultName); err != nil {
			log.Error(err, "failed to delete policy", "policyName", policy.Status.VaultName)
		}
		if err := vault.RemovePolicyManaged(ctx, policy.Status.VaultName); err != nil {
			log.Error(err, "failed to remove managed marker")
		}
	}
	controllerutil.RemoveFinalizer(policy, policyFinalizer) // want `finalizer removed from the Policy being deleted though the error of DeletePolicy \(line 82\) is ignored`
	if err := r.Update(ctx, policy); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// StrictPolicyReconciler returns the store's error. Silent.
type StrictPolicyReconciler struct {
	client.Client
	Vault Vault
}

func (r *StrictPolicyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	policy := &Policy{}
	if err := r.Get(ctx, req.NamespacedName, policy); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if policy.DeletionTimestamp.IsZero() {
		if controllerutil.AddFinalizer(policy, policyFinalizer) {
			return ctrl.Result{}, r.Update(ctx, policy)
		}
		return ctrl.Result{}, nil
	}
	if err := r.Vault.DeletePolicy(ctx, policy.Status.VaultName); err != nil {
		return ctrl.Result{}, err
	}
	controllerutil.RemoveFinalizer(policy, policyFinalizer)
	return ctrl.Result{}, r.Update(ctx, policy)
}
