package podgc

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
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

// TestGCOrphaned is kubernetes' podgc test (pkg/controller/podgc,
// gc_controller_test.go): it fills the pod informer's store and calls
// gcOrphaned itself. A test filling a store is not the controller reading
// its cache: gcOrphaned's node List is still reported.
func TestGCOrphaned(t *testing.T) { // want TestGCOrphaned:`reads\(List Node at podgc.go:\d+ \(deliberate\); List Node at podgc.go:\d+ \(deliberate\); Get Node at podgc.go:\d+ \(deliberate\); List Namespace at podgc.go:\d+ \(deliberate\)\)`
	ctx := context.Background()
	client := fake.NewClientset()
	factory := informers.NewSharedInformerFactory(client, 0)
	podInformer := factory.Core().V1().Pods()
	gcc, err := NewPodGC(ctx, client, podInformer, factory.Core().V1().Namespaces())
	if err != nil {
		t.Fatal(err)
	}
	podInformer.Informer().GetStore().Add(&corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "a"},
		Spec:       corev1.PodSpec{NodeName: "gone"},
	})
	pods, err := podInformer.Lister().List(labels.Everything())
	if err != nil {
		t.Fatal(err)
	}
	gcc.gcOrphaned(ctx, pods)
}
