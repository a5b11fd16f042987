package podgc

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
)

// TestGCOrphaned is kubernetes' podgc test at v1.16
// (pkg/controller/podgc/gc_controller_test.go): it fills the pod
// informer's store and calls gcOrphaned itself. A test filling a store is
// not the controller reading its cache: gcOrphaned's node List is still
// reported (it was not, before).
func TestGCOrphaned(t *testing.T) { // want TestGCOrphaned:`reads\(List Node at podgc.go:\d+ \(deliberate\)\)`
	client := fake.NewSimpleClientset(&corev1.NodeList{Items: []corev1.Node{{ObjectMeta: metav1.ObjectMeta{Name: "node"}}}})
	factory := informers.NewSharedInformerFactory(client, 0)
	podInformer := factory.Core().V1().Pods()
	gcc := NewPodGC(client, podInformer)
	podInformer.Informer().GetStore().Add(&corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "a"},
		Spec:       corev1.PodSpec{NodeName: "gone"},
	})
	pods, err := podInformer.Lister().List(labels.Everything())
	if err != nil {
		t.Fatal(err)
	}
	gcc.gcOrphaned(pods)
}
