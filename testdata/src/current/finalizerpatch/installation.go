package finalizerpatch

import (
	"context"
	"slices"

	"k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

const (
	whiskerFinalizer = "tigera.io/operator-whisker"
	istioFinalizer   = "tigera.io/operator-istio"
)

var defaultInstanceKey = client.ObjectKey{Name: "default"}

// SetInstallationFinalizer and RemoveInstallationFinalizer are shaped on
// tigera/operator's helpers of the same names (pkg/controller/utils/utils.go,
// v1.41.1): SetFinalizers of a list built from the current one.
func SetInstallationFinalizer(i *Installation, finalizer string) { // want SetInstallationFinalizer:`changesFinalizers\(0\)`
	if !slices.Contains(i.GetFinalizers(), finalizer) {
		i.SetFinalizers(append(i.GetFinalizers(), finalizer))
	}
}

func RemoveInstallationFinalizer(i *Installation, finalizer string) { // want RemoveInstallationFinalizer:`changesFinalizers\(0\)`
	if slices.Contains(i.GetFinalizers(), finalizer) {
		i.SetFinalizers(slices.DeleteFunc(slices.Clone(i.GetFinalizers()), func(f string) bool { return f == finalizer }))
	}
}

// MaintainInstallationFinalizer keeps a controller's finalizer on the
// shared Installation while its resources run. Shaped on tigera/operator's
// MaintainInstallationFinalizer (pkg/controller/utils/utils.go, v1.41.1,
// line 1059): the whisker and goldmane controllers both call it, and the
// second merge patch overwrote the first one's finalizer (fixed in PR 4492
// with the optimistic lock, released in v1.42.0).
func MaintainInstallationFinalizer(ctx context.Context, c client.Client, mainResource client.Object, finalizer string, secondaryResources ...client.Object) (bool, error) {
	installation := &Installation{}
	if err := c.Get(ctx, defaultInstanceKey, installation); err != nil {
		if errors.IsNotFound(err) {
			return false, nil
		}
		return false, err
	}
	patchFrom := client.MergeFrom(installation.DeepCopy()) // want `finalizers sent in a JSON merge patch without an optimistic lock: SetInstallationFinalizer changes installation's finalizers \(line 51\) and c.Patch sends them with client.MergeFrom\(installation.DeepCopy\(\)\) \(line 52\); a merge patch replaces the whole list and carries no resourceVersion, so a finalizer another controller added after installation was read is dropped; use client.MergeFromWithOptions\(installation.DeepCopy\(\), client.MergeFromWithOptimisticLock\{\}\), which fails with a Conflict instead`

	if mainResource != nil {
		SetInstallationFinalizer(installation, finalizer)
		return true, c.Patch(ctx, installation, patchFrom)
	}
	if !slices.Contains(installation.GetFinalizers(), finalizer) {
		return false, nil
	}
	for _, res := range secondaryResources {
		err := c.Get(ctx, client.ObjectKeyFromObject(res), res)
		if err == nil {
			return true, nil // still there: keep the finalizer
		}
		if !errors.IsNotFound(err) {
			return true, err
		}
	}
	RemoveInstallationFinalizer(installation, finalizer)
	return false, c.Patch(ctx, installation, patchFrom)
}

// IstioReconciler keeps its finalizer on its own resource, set and
// removed with stores to Finalizers. Shaped on tigera/operator's
// istio_controller.go (v1.41.1, lines 346 and 358; unchanged at the
// time of writing).
type IstioReconciler struct {
	client.Client
}

func (r *IstioReconciler) maintainFinalizer(ctx context.Context, instance *Installation) error {
	if !instance.DeletionTimestamp.IsZero() {
		patchFrom := client.MergeFrom(instance.DeepCopy()) // want `instance.Finalizers = ... changes instance's finalizers \(line 81\) and r.Patch sends them with client.MergeFrom\(instance.DeepCopy\(\)\) \(line 82\)`
		instance.Finalizers = slices.DeleteFunc(instance.Finalizers, func(f string) bool { return f == istioFinalizer })
		return r.Patch(ctx, instance, patchFrom)
	}
	if !slices.Contains(instance.Finalizers, istioFinalizer) {
		patchFrom := client.MergeFrom(instance.DeepCopy()) // want `instance.Finalizers = ... changes instance's finalizers \(line 86\)`
		instance.Finalizers = append(instance.Finalizers, istioFinalizer)
		return r.Patch(ctx, instance, patchFrom)
	}
	return nil
}

// whiskerFinalizer is added with controllerutil and a base copied first,
// the patch built at the Patch. Shaped on tigera/operator's
// elastic_controller.go handleLogStorageFinalizer (v1.41.1, line 593),
// with controllerutil's helper.
func (r *IstioReconciler) addWhiskerFinalizer(ctx context.Context, installation *Installation) error {
	base := installation.DeepCopy()
	if controllerutil.AddFinalizer(installation, whiskerFinalizer) {
		return r.Patch(ctx, installation, client.MergeFromWithOptions(base)) // want `controllerutil.AddFinalizer changes installation's finalizers \(line 98\) and r.Patch sends them with client.MergeFromWithOptions\(base\) \(line 99\).*use client.MergeFromWithOptions\(base, client.MergeFromWithOptimisticLock\{\}\)`
	}
	return nil
}
