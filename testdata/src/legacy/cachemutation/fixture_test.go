package cachemutation

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// A test that arranges state in the indexer of an informer factory it
// never starts, shaped like kubernetes v1.30's statefulset tests
// (TestStatefulSetControllerDeletes reads a set from its setsIndexer and
// changes its replicas): the indexer is the test's stand-in for the API
// server: silent.
func TestScaleDown(t *testing.T) {
	var client kubernetes.Interface // fake.NewSimpleClientset() in the real test
	factory := informers.NewSharedInformerFactory(client, 0)
	indexer := factory.Core().V1().Pods().Informer().GetIndexer()
	obj, exists, err := indexer.GetByKey("default/web-0")
	if err != nil || !exists {
		t.Fatal(err)
	}
	pod := obj.(*corev1.Pod)
	pod.Status.Phase = corev1.PodFailed
	if err := indexer.Update(pod); err != nil {
		t.Fatal(err)
	}
}

// TestOwnStore edits the pods of a store it built itself (daemon's
// update_test.go marks pods of its podStore not ready).
func TestOwnStore(t *testing.T) {
	store := cache.NewStore(cache.MetaNamespaceKeyFunc)
	for _, obj := range store.List() {
		obj.(*corev1.Pod).Labels["hash"] = "old"
	}
}

// A test that starts the informers writes to a live cache: reported.
func TestStartedInformer(t *testing.T) {
	var client kubernetes.Interface
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	factory := informers.NewSharedInformerFactory(client, 0)
	informer := factory.Core().V1().Pods().Informer()
	go informer.Run(ctx.Done())
	cache.WaitForCacheSync(ctx.Done(), informer.HasSynced)
	obj, _, _ := informer.GetIndexer().GetByKey("default/web-0")
	obj.(*corev1.Pod).Labels["seen"] = "true" // want `obj from informer\.GetIndexer\(\)\.GetByKey is modified`
}
