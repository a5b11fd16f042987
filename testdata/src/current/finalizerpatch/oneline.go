package finalizerpatch

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// addFinalizerCompact copies, adds and patches on one line: the fix adds
// the lock within the line.
func (r *IstioReconciler) addFinalizerCompact(ctx context.Context, installation *Installation) error {
	base := installation.DeepCopy(); controllerutil.AddFinalizer(installation, istioFinalizer); return r.Patch(ctx, installation, client.MergeFrom(base)) // want `controllerutil.AddFinalizer changes installation's finalizers`
}
