package queuedone

import (
	"context"
	"sync"

	"k8s.io/client-go/util/workqueue"
)

// Shapes from kubernetes' own controllers that hand the key over to other
// code that marks it Done, each once reported by mistake: silent.

// taintEviction sends the key to a worker over a channel; the worker calls
// Done (kubernetes' taint eviction controller).
func (c *Controller) taintEviction(ctx context.Context, workers []chan string) {
	for {
		key, shutdown := c.plain.Get()
		if shutdown {
			return
		}
		select {
		case <-ctx.Done():
			c.plain.Done(key)
			return
		case workers[len(key)%len(workers)] <- key:
		}
	}
}

// pvcData and batchStore: the key is packed into a value appended to a
// per-namespace batch, flushed by another worker that calls Done
// (kubernetes' pvcprotection controller).
type pvcData struct {
	key, name string
}

type batchStore struct {
	mu      sync.Mutex
	batches map[string][]pvcData
}

func (s *batchStore) add(namespace, key, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.batches[namespace] = append(s.batches[namespace], pvcData{key: key, name: name})
}

func (c *Controller) pvcProtection(store *batchStore) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	store.add("ns", key, "name")
	return true
}

func (c *Controller) flush(store *batchStore, q workqueue.TypedRateLimitingInterface[string]) {
	store.mu.Lock()
	defer store.mu.Unlock()
	for _, d := range store.batches["ns"] {
		q.Done(d.key)
	}
}

// capturedKey: a closure captures the key, so it lives in a heap cell and
// every use loads it from there (kubernetes' serviceaccount tokens
// controller). The deferred Done still marks it.
func (c *Controller) capturedKey(ctx context.Context) {
	key, quit := c.queue.Get()
	if quit {
		return
	}
	defer c.queue.Done(key)
	retry := false
	defer func() {
		if retry {
			c.queue.AddRateLimited(key)
			return
		}
		c.queue.Forget(key)
	}()
	if err := c.sync(ctx, key); err != nil {
		retry = true
	}
}

// priorityWrapper adapts a queue: its Get returns the item, and its caller
// owns the Done (controller-runtime's priorityQueueWrapper).
type priorityWrapper struct {
	workqueue.TypedRateLimitingInterface[string]
}

func (p *priorityWrapper) GetWithPriority() (string, int, bool) {
	item, shutdown := p.TypedRateLimitingInterface.Get()
	return item, 0, shutdown
}
