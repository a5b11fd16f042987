// Package readmodifywrite is the one sanctioned uncached read:
// read-modify-write of an object under retry.RetryOnConflict. Everything
// else reads through listers; a write that must not be based on a stale copy
// reads the live object here, changes it and writes it back, retrying on
// conflict.
package readmodifywrite

import (
	"context"

	"k8s.io/client-go/util/retry"
)

// Update reads the live object with get, lets mutate change it (returning
// false when nothing needs writing) and writes it with update, retrying the
// whole cycle when the write conflicts with another writer.
func Update[T any](ctx context.Context, get func(context.Context) (T, error), mutate func(T) (bool, error), update func(context.Context, T) error) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		obj, err := get(ctx)
		if err != nil {
			return err
		}
		changed, err := mutate(obj)
		if err != nil || !changed {
			return err
		}
		return update(ctx, obj)
	})
}
