package patchbase

import (
	"context"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// TestEmptyPatch builds an empty patch on purpose, to check what a fake
// client does with it: tests are not reported.
func TestEmptyPatch(t *testing.T) {
	var c client.Client
	policy := &Policy{}
	patch := client.MergeFrom(policy)
	policy.Spec.Document = "{}"
	if c != nil {
		_ = c.Patch(context.Background(), policy, patch)
	}
}
