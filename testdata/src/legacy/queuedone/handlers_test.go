package queuedone

import (
	"testing"

	"k8s.io/client-go/util/workqueue"
)

func newTestController() *Controller {
	return &Controller{
		queue:       workqueue.NewRateLimitingQueue(workqueue.DefaultControllerRateLimiter()),
		syncHandler: func(string) error { return nil },
	}
}

// Tests of event handlers that take the key the handler queued to assert
// on it, shaped like kubernetes v1.30's pkg/controller tests on untyped
// queues (deployment's TestAddReplicaSet, replicaset's TestOverlappingRSs):
// no worker runs on the test's controller: silent.

func TestEnqueue(t *testing.T) {
	c := newTestController()
	c.queue.Add("default/a")
	item, done := c.queue.Get()
	if item == nil || done {
		t.Fatal("failed to enqueue")
	}
	if key := item.(string); key != "default/a" {
		t.Errorf("queue.Get() = %v, want default/a", key)
	}
}

// TestEnqueuePerCase builds a controller per case (daemon's
// TestDeleteFinalStateUnknown).
func TestEnqueuePerCase(t *testing.T) {
	for _, name := range []string{"a", "b"} {
		c := newTestController()
		c.queue.Add("default/" + name)
		if item, _ := c.queue.Get(); item != "default/"+name {
			t.Errorf("queue.Get() = %v, want default/%s", item, name)
		}
	}
}

// A test's own worker loop (kubernetes v1.30's resourcequota TestAddQuota
// drains the queue this way, marking every key Done): a key it skips stays
// in processing: reported.
func TestSyncAll(t *testing.T) {
	c := newTestController()
	c.queue.Add("default/a")
	for c.queue.Len() > 0 {
		item, _ := c.queue.Get() // want `item from c.queue.Get\(\) is not marked Done on the path back to the next Get\(\)`
		key, ok := item.(string)
		if !ok {
			continue
		}
		if err := c.syncHandler(key); err != nil {
			t.Error(err)
		}
		c.queue.Done(item)
	}
} // want `item from c.queue.Get\(\) is not marked Done on this path`

// queuedKeys returns every queued key to its caller (kubernetes v1.30's
// daemon getQueuedKeys): silent.
func queuedKeys(q workqueue.RateLimitingInterface) []string {
	var keys []string
	count := q.Len()
	for i := 0; i < count; i++ {
		item, done := q.Get()
		if done {
			return keys
		}
		keys = append(keys, item.(string))
	}
	return keys
}

// countKeys keeps the keys to itself: reported.
func countKeys(q workqueue.RateLimitingInterface) int {
	var keys []interface{}
	for q.Len() > 0 {
		item, _ := q.Get() // want `item from q.Get\(\) is not marked Done on the paths ending at lines 83 and 86`
		keys = append(keys, item)
	}
	return len(keys)
}
