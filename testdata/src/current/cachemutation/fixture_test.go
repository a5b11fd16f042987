package cachemutation

import (
	"context"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

func newTestFactory(client kubernetes.Interface) informers.SharedInformerFactory {
	return informers.NewSharedInformerFactory(client, 0)
}

// Tests that arrange state by writing to objects of stores no informer
// feeds: the factory is built on a fake clientset and never started, so
// its indexers are the test's own fixtures: silent.

// TestScaleDown reads a set from the unstarted factory's lister and
// changes its replicas for the next step, like statefulset's ScalesDown.
func TestScaleDown(t *testing.T) {
	var client kubernetes.Interface // fake.NewSimpleClientset() in the real test
	factory := newTestFactory(client)
	sets := factory.Apps().V1().StatefulSets()
	if err := sets.Informer().GetIndexer().Add(&appsv1.StatefulSet{}); err != nil {
		t.Fatal(err)
	}
	set, err := sets.Lister().StatefulSets("default").Get("web")
	if err != nil {
		t.Fatal(err)
	}
	*set.Spec.Replicas = 0
	if err := sets.Informer().GetIndexer().Update(set); err != nil {
		t.Fatal(err)
	}
}

// TestMarkReady marks the pods of a store it built itself ready, like
// daemon's TestNumberReadyStatus and clearExpectations, in a subtest.
func TestMarkReady(t *testing.T) {
	store := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	t.Run("ready", func(t *testing.T) {
		for _, obj := range store.List() {
			pod := obj.(*corev1.Pod)
			pod.Status.Conditions = append(pod.Status.Conditions, corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionTrue})
		}
	})
}

// markAll is a helper handed the test's *testing.T (daemon's
// clearExpectations).
func markAll(t *testing.T, factory informers.SharedInformerFactory) {
	pods, err := factory.Core().V1().Pods().Lister().List(labels.Everything())
	if err != nil {
		t.Fatal(err)
	}
	for _, pod := range pods {
		pod.Labels["hash"] = "old"
	}
}

// Tests that start the factory's informers, or run the controller in a
// goroutine, write to a live cache: the informer replaces the object, the
// controller reads it concurrently, and the mutation detector panics:
// reported.

func TestStartedFactory(t *testing.T) {
	var client kubernetes.Interface
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	factory := newTestFactory(client)
	pods := factory.Core().V1().Pods()
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())
	pod, err := pods.Lister().Pods("default").Get("web")
	if err != nil {
		t.Fatal(err)
	}
	pod.Labels["ready"] = "true" // want `pod from pods\.Lister\(\)\.Pods\("default"\)\.Get is modified`
}

func TestRunningController(t *testing.T) {
	var client kubernetes.Interface
	factory := newTestFactory(client)
	c := &Controller{podLister: factory.Core().V1().Pods().Lister()}
	go func() { _ = c.syncLabels(context.Background(), "default/web") }()
	pod, err := c.podLister.Pods("default").Get("web")
	if err != nil {
		t.Fatal(err)
	}
	pod.Status.Phase = corev1.PodRunning // want `pod from c\.podLister\.Pods\("default"\)\.Get is modified`
}

// setReplicas is a helper of the test package without a *testing.T: it
// may run anywhere, on any lister: checked.
func setReplicas(factory informers.SharedInformerFactory, n int32) {
	set, err := factory.Apps().V1().StatefulSets().Lister().StatefulSets("default").Get("web")
	if err != nil {
		return
	}
	set.Spec.Replicas = &n // want `set from factory\.Apps\(\)\.V1\(\)\.StatefulSets\(\)\.Lister\(\)\.StatefulSets\("default"\)\.Get is modified`
}
