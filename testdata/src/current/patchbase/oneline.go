package patchbase

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// addFinalizerCompact takes the base, changes the object and patches it
// on one line: the fix copies the base within the line.
func (r *PolicyReconciler) addFinalizerCompact(ctx context.Context, policy *Policy) error {
	patch := client.MergeFrom(policy); controllerutil.AddFinalizer(policy, policyFinalizer); return r.Patch(ctx, policy, patch) // want `client.MergeFrom\(policy\) keeps a pointer to policy`
}
