package finalizerpatch

import (
	"context"

	"k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

const goldmaneFinalizer = "tigera.io/operator-goldmane"

var defaultInstanceKey = client.ObjectKey{Name: "default"}

// maintainInstallationFinalizer is shaped on tigera/operator's
// MaintainInstallationFinalizer (pkg/controller/utils/utils.go, v1.41.1,
// line 1059; fixed in PR 4492), with controllerutil's helpers.
func maintainInstallationFinalizer(ctx context.Context, c client.Client, mainResource client.Object, finalizer string) error {
	installation := &Installation{}
	if err := c.Get(ctx, defaultInstanceKey, installation); err != nil {
		if errors.IsNotFound(err) {
			return nil
		}
		return err
	}
	patchFrom := client.MergeFrom(installation.DeepCopy()) // want `finalizers sent in a JSON merge patch without an optimistic lock: controllerutil.AddFinalizer changes installation's finalizers \(line 28\) and c.Patch sends them with client.MergeFrom\(installation.DeepCopy\(\)\) \(line 32\)`
	if mainResource != nil {
		controllerutil.AddFinalizer(installation, finalizer)
	} else {
		controllerutil.RemoveFinalizer(installation, finalizer)
	}
	return c.Patch(ctx, installation, patchFrom)
}

// withLock is the same as fixed: silent.
func withLock(ctx context.Context, c client.Client, installation *Installation) error {
	patchFrom := client.MergeFromWithOptions(installation.DeepCopy(), client.MergeFromWithOptimisticLock{})
	controllerutil.AddFinalizer(installation, goldmaneFinalizer)
	return c.Patch(ctx, installation, patchFrom)
}

// strategic merges the list: silent.
func strategic(ctx context.Context, c client.Client, installation *Installation) error {
	patch := client.StrategicMergeFrom(installation.DeepCopy())
	controllerutil.AddFinalizer(installation, goldmaneFinalizer)
	return c.Patch(ctx, installation, patch)
}

// statusOnly patches the status subresource: silent.
func statusOnly(ctx context.Context, c client.Client, installation *Installation) error {
	patch := client.MergeFrom(installation.DeepCopy())
	controllerutil.AddFinalizer(installation, goldmaneFinalizer)
	return c.Status().Patch(ctx, installation, patch)
}
