package conflictretry

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// TestScaleUp is shaped on the tests config-sync fixed in PR 1597 ("test:
// fix uses of RetryOnConflict") and moco in PR 908: against envtest or a
// cluster the retry conflicts on every attempt and the test flakes.
func TestScaleUp(t *testing.T) {
	var c client.Client
	ctx := context.Background()
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "cm"}, cm); err != nil {
		t.Fatal(err)
	}
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cm.Data = map[string]string{"replicas": "3"}
		return c.Update(ctx, cm) // want `retry.RetryOnConflict retries Update of cm, read by Get at line 19 outside the closure`
	})
	if err != nil {
		t.Fatal(err)
	}
}
