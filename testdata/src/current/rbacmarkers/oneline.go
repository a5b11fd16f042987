package rbacmarkers

import (
	"context"

	corev1 "k8s.io/api/core/v1"
)

// +kubebuilder:rbac:groups=core,resources=limitranges,verbs=get;list;watch

// ensureLimits creates the LimitRange on one line.
func (r *AccessReconciler) ensureLimits(ctx context.Context, lr *corev1.LimitRange) error { return r.Create(ctx, lr) } // want `r\.Create creates a LimitRange, and no \+kubebuilder:rbac marker grants create on limitranges`

// +kubebuilder:rbac:groups=core,resources=podtemplates,verbs=create // want `it is in the doc comment of method AccessReconciler\.createTemplate`
func (r *AccessReconciler) createTemplate(ctx context.Context, t *corev1.PodTemplate) error { return r.Create(ctx, t) } // want `r\.Create creates a PodTemplate, and no \+kubebuilder:rbac marker grants create on podtemplates`
