package queuedone

import (
	"context"
	"sort"
	"testing"

	"k8s.io/client-go/util/workqueue"
)

func newTestController() *Controller {
	return &Controller{
		queue: workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
		sync:  func(context.Context, string) error { return nil },
	}
}

func (c *Controller) enqueue(key string) { c.queue.Add(key) }

// Tests of event handlers that take the key the handler queued to assert
// on it, shaped like kubernetes v1.37's pkg/controller tests (daemon's
// TestAddPod, statefulset's TestStatefulSetControllerUpdatePod, endpoint's
// TestCheckLeftoverEndpoints): the controller is built by the test and no
// worker runs on its queue, so the key left in processing is dropped with
// the test (taking the same key twice would hang the test): silent.

func TestEnqueueTwice(t *testing.T) {
	c := newTestController()
	c.enqueue("default/a")
	key, done := c.queue.Get()
	if key == "" || done {
		t.Fatal("failed to enqueue")
	}
	if key != "default/a" {
		t.Errorf("queue.Get() = %v, want default/a", key)
	}
	c.enqueue("default/b")
	key, done = c.queue.Get()
	if key == "" || done {
		t.Fatal("failed to enqueue")
	}
	if key != "default/b" {
		t.Errorf("queue.Get() = %v, want default/b", key)
	}
}

// TestEnqueueNothing shuts the queue down to see that nothing was queued
// (statefulset's TestStatefulSetControllerAddPodNoSet).
func TestEnqueueNothing(t *testing.T) {
	c := newTestController()
	c.queue.ShutDown()
	if key, _ := c.queue.Get(); key != "" {
		t.Errorf("enqueued %s", key)
	}
}

// TestEnqueuePerStrategy builds a controller per round of its table and
// takes one key from each (daemon's TestDeleteFinalStateUnknown).
func TestEnqueuePerStrategy(t *testing.T) {
	for _, name := range []string{"a", "b"} {
		c := newTestController()
		c.enqueue("default/" + name)
		key, _ := c.queue.Get()
		if key != "default/"+name {
			t.Errorf("queue.Get() = %v, want default/%s", key, name)
		}
	}
}

// TestEnqueueSubtests takes the key in a subtest.
func TestEnqueueSubtests(t *testing.T) {
	for _, name := range []string{"a", "b"} {
		t.Run(name, func(t *testing.T) {
			c := newTestController()
			c.enqueue("default/" + name)
			if key, _ := c.queue.Get(); key != "default/"+name {
				t.Errorf("queue.Get() = %v, want default/%s", key, name)
			}
		})
	}
}

// A test's own worker loop on the controller's queue, shaped like
// kubernetes v1.37's resourcequota TestAddQuota and resourceclaim
// TestPodGroups draining loops (which mark every key Done): a key it skips
// stays in processing, and when it is queued again the loop never sees
// it: reported.
func TestSyncAll(t *testing.T) {
	c := newTestController()
	ctx := context.Background()
	c.enqueue("default/a")
	for c.queue.Len() > 0 {
		key, _ := c.queue.Get() // want `key from c.queue.Get\(\) is not marked Done on the path back to the next Get\(\)`
		if err := c.sync(ctx, key); err != nil {
			t.Error(err)
			continue
		}
		c.queue.Done(key)
	}
} // want `key from c.queue.Get\(\) is not marked Done on this path`

// TestEnqueueTable takes a key per case from one controller's queue: a
// case whose key is still in processing from an earlier case is never
// handed out again: reported.
func TestEnqueueTable(t *testing.T) {
	c := newTestController()
	for _, name := range []string{"a", "b"} {
		c.enqueue("default/" + name)
		key, _ := c.queue.Get() // want `key from c.queue.Get\(\) is not marked Done on the paths ending at lines 109 and 114`
		if key != "default/"+name {
			t.Errorf("queue.Get() = %v, want default/%s", key, name)
		}
	}
}

// queuedKeys takes every queued key and returns them sorted for a test to
// compare, shaped like kubernetes v1.37's daemon getQueuedKeys: the list
// hands the keys to the caller, as a queue adapter's Get does: silent.
func queuedKeys(q workqueue.TypedRateLimitingInterface[string]) []string {
	var keys []string
	count := q.Len()
	for i := 0; i < count; i++ {
		key, done := q.Get()
		if done {
			return keys
		}
		keys = append(keys, key)
	}
	sort.Strings(keys)
	return keys
}

// countKeys collects the keys in a list it keeps to itself: reported.
func countKeys(q workqueue.TypedRateLimitingInterface[string]) int {
	var keys []string
	for q.Len() > 0 {
		key, _ := q.Get() // want `key from q.Get\(\) is not marked Done on the paths ending at lines 137 and 140`
		keys = append(keys, key)
	}
	return len(keys)
}
