package conflictretry

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/util/retry"
)

// TestFakeUpdate retries against client-go's fake clientset: nothing else
// writes the ConfigMap, so no attempt conflicts and the captured object is
// never resent (the retry is dead code). Silent in test files that import
// a fake client.
func TestFakeUpdate(t *testing.T) {
	ctx := context.Background()
	client := fake.NewSimpleClientset(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "cm"}})
	cm, err := client.CoreV1().ConfigMaps("ns").Get(ctx, "cm", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cm.Data = map[string]string{"a": "b"}
		_, err := client.CoreV1().ConfigMaps("ns").Update(ctx, cm, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
