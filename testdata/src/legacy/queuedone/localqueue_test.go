package queuedone

import (
	"testing"

	"k8s.io/client-go/util/workqueue"
)

// Tests that build an untyped queue of their own and take one item to
// assert on it, shaped like client-go v0.30's util/workqueue tests (once
// reported by mistake). The queue never leaves the test, so no worker waits
// on the key: silent.

func TestEnqueueKey(t *testing.T) {
	q := workqueue.New()
	defer q.ShutDown()
	q.Add("default/web")
	item, _ := q.Get()
	if key, ok := item.(string); !ok || key != "default/web" {
		t.Errorf("item = %v, want default/web", item)
	}
}

func TestEnqueueRateLimited(t *testing.T) {
	q := workqueue.NewRateLimitingQueue(workqueue.DefaultControllerRateLimiter())
	q.AddRateLimited("default/web")
	item, shutdown := q.Get()
	if shutdown {
		t.Fatal("queue shut down")
	}
	if item != "default/web" {
		t.Fatalf("item = %v, want default/web", item)
	}
}

// The test's queue given to the controller's worker, and a queue drained
// after a key taken and never marked Done (ShutDownWithDrain waits forever):
// reported.

func TestWorkerRuns(t *testing.T) {
	q := workqueue.NewRateLimitingQueue(workqueue.DefaultControllerRateLimiter())
	c := &Controller{queue: q, syncHandler: func(string) error { return nil }}
	q.Add("default/web")
	c.badKeyReturns()
}

func TestDrain(t *testing.T) {
	q := workqueue.New()
	q.Add("default/web")
	item, _ := q.Get()
	if item != "default/web" {
		t.Errorf("item = %v, want default/web", item)
	}
	q.ShutDownWithDrain()
} // want `item from q.Get\(\) is not marked Done on this path`
