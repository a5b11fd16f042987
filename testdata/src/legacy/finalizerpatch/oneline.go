package finalizerpatch

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// addFinalizerCompact copies, adds and patches on one line: the fix adds
// the lock within the line.
func addFinalizerCompact(ctx context.Context, c client.Client, installation *Installation) error {
	base := installation.DeepCopy(); controllerutil.AddFinalizer(installation, goldmaneFinalizer); return c.Patch(ctx, installation, client.MergeFrom(base)) // want `controllerutil.AddFinalizer changes installation's finalizers`
}
