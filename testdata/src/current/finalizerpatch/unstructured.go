package finalizerpatch

import (
	"context"
	"slices"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// releaseFinalizer removes a finalizer from an object of any kind, held
// as an Unstructured: its SetFinalizers is a setter of the list too.
// Shaped on open-cluster-management's config-policy-controller, which
// patched the finalizers of the objects it prunes (fixed in PR 119).
func releaseFinalizer(ctx context.Context, c client.Client, obj *unstructured.Unstructured, finalizer string) error {
	patch := client.MergeFrom(obj.DeepCopy()) // want `obj.SetFinalizers changes obj's finalizers`
	obj.SetFinalizers(slices.DeleteFunc(obj.GetFinalizers(), func(f string) bool { return f == finalizer }))
	return c.Patch(ctx, obj, patch)
}
