package eventhandler_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"

	"github.com/ctrllint/ctrllint/runtime/eventhandler"
)

// reported collects what utilruntime.HandleError is given while a test
// runs (the process-wide error handlers are restored after it).
type reported struct {
	mu   sync.Mutex
	errs []string
}

func captureErrors(t *testing.T) *reported {
	r := &reported{}
	saved := utilruntime.ErrorHandlers
	utilruntime.ErrorHandlers = []utilruntime.ErrorHandler{func(_ context.Context, err error, msg string, _ ...any) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.errs = append(r.errs, msg+": "+err.Error())
	}}
	t.Cleanup(func() { utilruntime.ErrorHandlers = saved })
	return r
}

func (r *reported) containing(s string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, e := range r.errs {
		if strings.Contains(e, s) {
			n++
		}
	}
	return n
}

// TestPanicInEventHandler: a filter's predicate and an add function panic
// inside a real informer's event delivery. With client-go's default
// (utilruntime.ReallyCrash) that ends the process; here each panic is
// recovered and reported, the object the predicate panicked on is still
// enqueued (the sync decides), and later events are delivered as before.
func TestPanicInEventHandler(t *testing.T) {
	errs := captureErrors(t)
	client := fake.NewClientset(
		&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "good"}},
		&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "bad"}},
	)
	factory := informers.NewSharedInformerFactory(client, 0)
	pods := factory.Core().V1().Pods()
	var filtered, added keys
	keep := func(p *corev1.Pod) bool {
		if p.Name == "bad" {
			panic("the predicate cannot handle " + p.Name)
		}
		return true
	}
	if _, err := pods.TypedInformer().AddTypedEventHandler(eventhandler.Filter(keep, eventhandler.Enqueue[*corev1.Pod](filtered.add))); err != nil {
		t.Fatal(err)
	}
	if _, err := pods.TypedInformer().AddTypedEventHandler(eventhandler.Enqueue[*corev1.Pod](func(key eventhandler.Key) {
		if key.Name == "bad" {
			panic("the add function cannot handle " + key.Name)
		}
		added.add(key)
	})); err != nil {
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
	if _, err := client.CoreV1().Pods("ns").Create(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "later"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	good, bad, later := eventhandler.Key{Namespace: "ns", Name: "good"}, eventhandler.Key{Namespace: "ns", Name: "bad"}, eventhandler.Key{Namespace: "ns", Name: "later"}
	deadline := time.Now().Add(30 * time.Second)
	for filtered.count(later) == 0 || added.count(later) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("events after the panics were not delivered")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if filtered.count(good) != 1 || filtered.count(bad) != 1 {
		t.Errorf("filtered handler enqueued good %d, bad %d times; want each once (bad let through)", filtered.count(good), filtered.count(bad))
	}
	if added.count(good) != 1 || added.count(bad) != 0 {
		t.Errorf("add handler enqueued good %d, bad %d times; want 1 and 0", added.count(good), added.count(bad))
	}
	if n := errs.containing("the predicate cannot handle bad"); n != 1 {
		t.Errorf("the predicate's panic was reported %d times, want once", n)
	}
	if n := errs.containing("the add function cannot handle bad"); n != 1 {
		t.Errorf("the add function's panic was reported %d times, want once", n)
	}
}
