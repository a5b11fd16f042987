package cachemutation

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"

	"example.com/current/cachemutation/podutil"
)

// Helpers of the test package that are not handed the test, called only
// from tests that start no informer, shaped like kubernetes v1.37's daemon
// tests (daemon_controller_test.go markPodsReady and markPodReady, which
// mark the pods of manager.podStore ready through podutil's
// UpdatePodCondition): they arrange state as the tests would themselves:
// silent.

func markPodsReadyIn(store cache.Store) {
	for _, obj := range store.List() {
		pod := obj.(*corev1.Pod)
		markOneReady(pod)
	}
}

func markOneReady(pod *corev1.Pod) {
	podutil.UpdatePodCondition(&pod.Status, &corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionTrue})
}

func TestReadyPods(t *testing.T) {
	store := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	if err := store.Add(&corev1.Pod{}); err != nil {
		t.Fatal(err)
	}
	markPodsReadyIn(store)
}
