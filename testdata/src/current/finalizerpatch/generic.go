package finalizerpatch

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// objectWithDeepCopy is an object type's pointer whose DeepCopy returns it.
type objectWithDeepCopy[T any] interface {
	*T
	client.Object
	DeepCopy() *T
}

// addFinalizerTo adds a finalizer to an object of any generated type,
// copying it through its type parameter. Shaped on cloudfoundry/korifi's
// k8s.AddFinalizer (tools/k8s/finalizer.go, v0.7.1), which its
// reconcilers called until they moved to a patching reconciler (commit
// db810eac, v0.8.0).
func addFinalizerTo[T any, PT objectWithDeepCopy[T]](ctx context.Context, c client.Client, obj PT, finalizer string) error {
	orig := PT(obj.DeepCopy())
	if controllerutil.AddFinalizer(obj, finalizer) {
		if err := c.Patch(ctx, obj, client.MergeFrom(orig)); err != nil { // want `controllerutil.AddFinalizer changes obj's finalizers \(line 24\) and c.Patch sends them with client.MergeFrom\(orig\) \(line 25\)`
			return err
		}
	}
	return nil
}
