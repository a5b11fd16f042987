package finalizer

import (
	"context"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// A test stages a deletion against a fake client: nothing leaks there.
// Silent (_test.go files are not analysed).
func TestDeletion(t *testing.T) {
	var c client.Client
	ctx := context.Background()
	obj := &Container{}
	if obj.DeletionTimestamp != nil {
		_ = c.Delete(ctx, &Container{})
		controllerutil.RemoveFinalizer(obj, containerFinalizer)
		_ = c.Update(ctx, obj)
	}
}
