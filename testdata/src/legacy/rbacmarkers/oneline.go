package rbacmarkers

import (
	"context"

	corev1 "k8s.io/api/core/v1"
)

// +kubebuilder:rbac:groups=core,resources=serviceaccounts,verbs=get;list;watch

func (r *ScalerReconciler) account(ctx context.Context, sa *corev1.ServiceAccount) error { return r.Create(ctx, sa) } // want `r\.Create creates a ServiceAccount, and no \+kubebuilder:rbac marker grants create on serviceaccounts`
