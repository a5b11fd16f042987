package ownership

import (
	"context"
	"errors"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// Claimer decides which of the objects a selector matches an owner
// controls, in the spirit of kubernetes' controller-ref manager: it adopts
// orphans that match, releases objects it controls that no longer match,
// and leaves alone what another owner controls.
type Claimer[T metav1.Object] struct {
	Owner    metav1.Object
	Selector labels.Selector
	// CanAdopt is called once, before the first adoption: it should re-read
	// the owner from the API server (not the cache) and fail if the owner is
	// being deleted, so a stale cache cannot make a dying owner adopt.
	CanAdopt func(ctx context.Context) error
	// Adopt and Release write the change (a patch of ownerReferences).
	Adopt   func(ctx context.Context, obj T) error
	Release func(ctx context.Context, obj T) error

	once     sync.Once
	adoptErr error
}

// Claim returns the objects the owner controls after adopting and
// releasing; errors of individual adoptions and releases are joined.
func (c *Claimer[T]) Claim(ctx context.Context, objs []T) ([]T, error) {
	var claimed []T
	var errs []error
	for _, obj := range objs {
		ok, err := c.claim(ctx, obj)
		if err != nil {
			errs = append(errs, err)
		}
		if ok {
			claimed = append(claimed, obj)
		}
	}
	return claimed, errors.Join(errs...)
}

func (c *Claimer[T]) claim(ctx context.Context, obj T) (bool, error) {
	matches := c.Selector.Matches(labels.Set(obj.GetLabels()))
	if ref := metav1.GetControllerOfNoCopy(obj); ref != nil {
		switch {
		case ref.UID != c.Owner.GetUID():
			return false, nil // someone else's
		case matches:
			return true, nil // ours, and still matching
		case obj.GetDeletionTimestamp() != nil:
			return false, nil // ours, going away anyway
		}
		return false, c.Release(ctx, obj) // ours, no longer matching
	}
	if !matches || obj.GetDeletionTimestamp() != nil || c.Owner.GetDeletionTimestamp() != nil {
		return false, nil
	}
	c.once.Do(func() {
		if c.CanAdopt != nil {
			c.adoptErr = c.CanAdopt(ctx)
		}
	})
	if c.adoptErr != nil {
		return false, c.adoptErr
	}
	if err := c.Adopt(ctx, obj); err != nil {
		return false, err
	}
	return true, nil
}
