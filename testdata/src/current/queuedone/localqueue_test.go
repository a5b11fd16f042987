package queuedone

import (
	"context"
	"testing"

	"k8s.io/client-go/util/workqueue"
)

// Tests that build a queue of their own, add to it and take one item to
// assert on it, shaped like client-go's util/workqueue tests and the
// enqueue tests of kubernetes' controllers (once reported by mistake). The
// queue never leaves the test: no worker waits on the key, so leaving it in
// processing is harmless: silent.

func TestEnqueueKey(t *testing.T) {
	q := workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())
	defer q.ShutDown()
	q.Add("default/web")
	if got := q.Len(); got != 1 {
		t.Fatalf("queue length = %d, want 1", got)
	}
	key, _ := q.Get()
	if key != "default/web" {
		t.Errorf("key = %q, want default/web", key)
	}
}

func TestEnqueueDeduplicates(t *testing.T) {
	q := workqueue.NewTypedWithConfig(workqueue.TypedQueueConfig[string]{Name: "test"})
	q.Add("default/web")
	q.Add("default/web")
	key, shutdown := q.Get()
	if shutdown {
		t.Fatal("queue shut down")
	}
	if key != "default/web" {
		t.Fatalf("key = %q, want default/web", key)
	}
	if q.Len() != 0 {
		t.Errorf("queue length = %d, want 0", q.Len())
	}
}

// Tests that hand the queue to code that runs a worker, or drain it, still
// leak or hang on a key that is not marked Done: reported.

// TestWorkerRetries runs the controller's own worker on the test's queue.
func TestWorkerRetries(t *testing.T) {
	q := workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())
	c := &Controller{queue: q, sync: func(context.Context, string) error { return nil }}
	q.Add("default/web")
	c.earlyReturn(context.Background())
}

// TestWorkerLoop runs a worker of its own in a goroutine.
func TestWorkerLoop(t *testing.T) {
	q := workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			key, quit := q.Get() // want `key from q.Get\(\) is not marked Done on the path back to the next Get\(\)`
			if quit {
				return
			}
			if key == "" {
				continue
			}
			q.Done(key)
		}
	}()
	q.Add("default/web")
	q.ShutDownWithDrain()
	<-done
}

// TestDrain waits for the queue to drain after taking a key it never marks
// Done: ShutDownWithDrain waits forever.
func TestDrain(t *testing.T) {
	q := workqueue.NewTyped[string]()
	q.Add("default/web")
	key, _ := q.Get()
	if key != "default/web" {
		t.Errorf("key = %q, want default/web", key)
	}
	q.ShutDownWithDrain()
} // want `key from q.Get\(\) is not marked Done on this path`
