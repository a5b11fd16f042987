package podgc

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes/fake"
)

// A test that polls a fake clientset in a loop of its own, as kubernetes'
// controller tests wait for their objects: no API server, no informer to
// add. Silent.
func TestGCLoop(t *testing.T) {
	client := fake.NewClientset()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	wait.UntilWithContext(ctx, func(ctx context.Context) {
		if _, err := client.CoreV1().Secrets("").List(ctx, metav1.ListOptions{}); err != nil {
			t.Error(err)
		}
		cancel()
	}, time.Millisecond)
}
