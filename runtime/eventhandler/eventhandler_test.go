package eventhandler_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"

	"github.com/ctrllint/ctrllint/runtime/eventhandler"
)

// keys records enqueued keys.
type keys struct {
	mu   sync.Mutex
	seen map[eventhandler.Key]int
}

func (k *keys) add(key eventhandler.Key) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.seen == nil {
		k.seen = map[eventhandler.Key]int{}
	}
	k.seen[key]++
}

func (k *keys) count(key eventhandler.Key) int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.seen[key]
}

// TestWatchGapTombstone drives a real informer over a fake clientset into
// the failure the tombstone analyzer is about: a pod is deleted while the
// watch is down, the reflector re-lists, and the deletion arrives as a
// cache.DeletedFinalStateUnknown. Both the typed and the untyped handler
// must still enqueue its key: no delete lost.
func TestWatchGapTombstone(t *testing.T) {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "gone"}}
	stay := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "stays"}}
	client := fake.NewClientset(pod, stay)

	var mu sync.Mutex
	var current *watch.RaceFreeFakeWatcher
	var expireNext atomic.Bool
	client.PrependWatchReactor("pods", func(k8stesting.Action) (bool, watch.Interface, error) {
		if expireNext.CompareAndSwap(true, false) {
			// The watch cannot resume: the reflector must re-list.
			return true, nil, apierrors.NewResourceExpired("resource version too old")
		}
		w := watch.NewRaceFreeFake()
		mu.Lock()
		current = w
		mu.Unlock()
		return true, w, nil // a watch that sees nothing the test does not send
	})

	factory := informers.NewSharedInformerFactory(client, 0)
	pods := factory.Core().V1().Pods()
	var typed, untyped keys
	var tombstones atomic.Int32
	h := eventhandler.Enqueue[*corev1.Pod](typed.add)
	inner := h.DeleteFunc
	h.DeleteFunc = func(d cache.DeletedObject[*corev1.Pod]) {
		if d.FinalStateUnknown != nil {
			tombstones.Add(1)
		}
		inner(d)
	}
	if _, err := pods.TypedInformer().AddTypedEventHandler(h); err != nil {
		t.Fatal(err)
	}
	if _, err := pods.Informer().AddEventHandler(eventhandler.EnqueueUntyped(untyped.add)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer func() {
		cancel()
		factory.Shutdown()
	}()
	factory.Start(ctx.Done())
	if !cache.WaitForCacheSync(ctx.Done(), pods.Informer().HasSynced) {
		t.Fatal("cache did not sync")
	}

	// Delete behind the informer's back, then break the watch.
	gvr := corev1.SchemeGroupVersion.WithResource("pods")
	if err := client.Tracker().Delete(gvr, "ns", "gone", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	expireNext.Store(true)
	mu.Lock()
	current.Stop()
	mu.Unlock()

	key := eventhandler.Key{Namespace: "ns", Name: "gone"}
	deadline := time.Now().Add(30 * time.Second)
	for typed.count(key) < 2 || untyped.count(key) < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("deletion lost: typed saw %s %d times, untyped %d times (an add, then the delete)", key, typed.count(key), untyped.count(key))
		}
		time.Sleep(10 * time.Millisecond)
	}
	if tombstones.Load() != 1 {
		t.Errorf("the deletion did not come as a tombstone (%d), so the test did not exercise the gap", tombstones.Load())
	}
}

func deploymentRef(name string, uid string) metav1.OwnerReference {
	yes := true
	return metav1.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment", Name: name, UID: types.UID(uid), Controller: &yes}
}

func TestEnqueueOwner(t *testing.T) {
	gk := schema.GroupKind{Group: appsv1.GroupName, Kind: "Deployment"}
	var got keys
	h := eventhandler.EnqueueOwner[*corev1.ServiceAccount](gk, got.add)
	owned := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "web-guard",
		OwnerReferences: []metav1.OwnerReference{deploymentRef("web", "1")}}}
	foreign := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "x",
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "db", UID: "2", Controller: new(bool)}}}}
	orphan := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "y"}}

	h.AddFunc(owned)
	h.AddFunc(foreign)
	h.AddFunc(orphan)
	moved := owned.DeepCopy()
	moved.OwnerReferences = []metav1.OwnerReference{deploymentRef("api", "3")}
	h.UpdateFunc(owned, moved) // both the old and the new owner hear of it
	h.DeleteFunc(cache.DeletedObject[*corev1.ServiceAccount]{OptionalObj: owned})
	h.DeleteFunc(cache.DeletedObject[*corev1.ServiceAccount]{FinalStateUnknown: &cache.DeletedFinalStateUnknown{Key: "ns/z"}}) // no copy: nothing to resolve, no panic

	if n := got.count(eventhandler.Key{Namespace: "ns", Name: "web"}); n != 3 {
		t.Errorf("owner web enqueued %d times, want 3 (add, update, delete)", n)
	}
	if n := got.count(eventhandler.Key{Namespace: "ns", Name: "api"}); n != 1 {
		t.Errorf("new owner api enqueued %d times, want 1", n)
	}
	if n := got.count(eventhandler.Key{Namespace: "ns", Name: "db"}); n != 0 {
		t.Errorf("an owner of another kind was enqueued")
	}
}

func TestFilterLetsDeletionsThrough(t *testing.T) {
	var got keys
	f := eventhandler.Filter[*corev1.Pod](func(p *corev1.Pod) bool { return p.Spec.NodeName != "" }, eventhandler.Enqueue[*corev1.Pod](got.add))
	if f.FilterFunc(nil) != true {
		t.Error("the filter dropped a deletion without a copy of the object")
	}
	if f.FilterFunc(&corev1.Pod{}) {
		t.Error("the predicate was not applied")
	}
	f.OnDelete(cache.DeletedObject[*corev1.Pod]{FinalStateUnknown: &cache.DeletedFinalStateUnknown{Key: "ns/p"}})
	if got.count(eventhandler.Key{Namespace: "ns", Name: "p"}) != 1 {
		t.Error("the deletion without a copy did not reach the handler")
	}
}

func TestUnwrap(t *testing.T) {
	pod := &corev1.Pod{}
	if p, ok := eventhandler.Unwrap[*corev1.Pod](pod); !ok || p != pod {
		t.Error("a plain object was not returned")
	}
	if p, ok := eventhandler.Unwrap[*corev1.Pod](cache.DeletedFinalStateUnknown{Key: "k", Obj: pod}); !ok || p != pod {
		t.Error("a tombstone was not unwrapped")
	}
	if _, ok := eventhandler.Unwrap[*corev1.Pod](cache.DeletedFinalStateUnknown{Key: "k"}); ok {
		t.Error("an empty tombstone yielded an object")
	}
	var _ runtime.Object = pod
}
