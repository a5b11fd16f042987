package queuedone

import (
	"reflect"
	"testing"
	"time"

	"k8s.io/client-go/util/workqueue"
)

// Tests that drain a queue to compare what it held, shaped like
// cert-manager v1.21's pkg/controller/certificate-shim/ingresses
// controller_test.go (take keys until the queue is shut down) and
// certificaterequests/selfsigned checks_test.go (take as many keys as
// expected, then compare): the loop only takes and collects, nothing
// queues a key again, and the queue is dropped with the test: silent.

func TestCollectUntilShutDown(t *testing.T) {
	c := newTestController()
	c.enqueue("default/a")
	time.AfterFunc(50*time.Millisecond, c.queue.ShutDown)
	var got []string
	for {
		key, done := c.queue.Get()
		if done {
			break
		}
		got = append(got, key)
	}
	if !reflect.DeepEqual(got, []string{"default/a"}) {
		t.Errorf("got %v", got)
	}
}

func TestCollectExpected(t *testing.T) {
	queue := workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())
	queue.Add("default/a")
	want := []string{"default/a"}
	var got []string
	for range want {
		key, _ := queue.Get()
		got = append(got, key)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v", got)
	}
}

// A loop that syncs what it takes is a worker loop, test or not: reported.
func TestCollectAndSync(t *testing.T) {
	c := newTestController()
	c.enqueue("default/a")
	var got []string
	for c.queue.Len() > 0 {
		key, _ := c.queue.Get() // want `key from c.queue.Get\(\) is not marked Done on the paths ending at lines 55 and 62`
		got = append(got, key)
		_ = c.sync(t.Context(), key)
	}
	if len(got) != 1 {
		t.Errorf("got %v", got)
	}
}
