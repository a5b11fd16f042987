package patchbase

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// lockOnly is withOptimisticLock with the finding suppressed, and a
// reason: a directive names the analyzer and says why.
func (r *PolicyReconciler) lockOnly(ctx context.Context, policy *Policy) error {
	patch := client.MergeFromWithOptions(policy, client.MergeFromWithOptimisticLock{}) //ctrllint:ignore patchbase the patch is a resourceVersion probe: it must conflict when the object moved on, and send nothing else
	policy.Spec.Document = ""
	return r.Patch(ctx, policy, patch)
}
