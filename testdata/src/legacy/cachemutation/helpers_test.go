package cachemutation

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"

	"example.com/legacy/cachemutation/podutil"
)

// Helpers of the test package that are not handed the test, called only
// from a test that starts no informer, shaped like kubernetes' daemon
// tests (markPodsReady through podutil), here on nodes of a store the test
// built: they arrange state as the test would itself: silent.

func markNodesReadyIn(store cache.Store) {
	for _, obj := range store.List() {
		node := obj.(*corev1.Node)
		markOneNodeReady(node)
	}
}

func markOneNodeReady(node *corev1.Node) {
	podutil.SetNodeCondition(&node.Status, corev1.NodeCondition{Type: corev1.NodeReady, Status: corev1.ConditionTrue})
}

func TestReadyNodes(t *testing.T) {
	store := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	if err := store.Add(&corev1.Node{}); err != nil {
		t.Fatal(err)
	}
	markNodesReadyIn(store)
}
