// Package controller is a work-queue controller loop generic over its key
// type, with the discipline ctrllint's forget and queuedone analyzers check:
// every key taken is marked Done, every key that stops being retried is
// forgotten, and workers start only once the caches the sync reads are
// synced.
package controller

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// Sync reconciles one key. A nil error means done (the key is forgotten);
// an error retries it with backoff, up to the retry limit.
type Sync[K comparable] func(ctx context.Context, key K) error

// Controller runs a Sync over the keys of a rate-limited queue.
type Controller[K comparable] struct {
	name   string
	sync   Sync[K]
	synced []cache.DoneChecker
	queue  workqueue.TypedRateLimitingInterface[K]
	opts   options[K]
}

// New returns a controller named name. synced names the caches the sync
// reads (an informer's HasSyncedChecker()): Run starts no worker before all
// of them have synced, so a sync never mistakes a cache still filling for
// objects that do not exist. It is a parameter, not an option, because
// forgetting it is the bug.
func New[K comparable](name string, sync Sync[K], synced []cache.DoneChecker, opts ...Option[K]) (*Controller[K], error) {
	if len(synced) == 0 {
		return nil, errors.New("controller " + name + ": name the caches the sync reads (synced is empty)")
	}
	o := defaults[K]()
	for _, opt := range opts {
		opt(&o)
	}
	q := workqueue.NewTypedRateLimitingQueueWithConfig(o.rateLimiter, workqueue.TypedRateLimitingQueueConfig[K]{
		Name:            name,
		MetricsProvider: o.metrics,
	})
	return &Controller[K]{name: name, sync: sync, synced: synced, queue: q, opts: o}, nil
}

// Enqueue adds a key; a key already waiting is not added twice, and a key
// being processed is processed again once its current sync is done.
func (c *Controller[K]) Enqueue(key K) { c.queue.Add(key) }

// EnqueueAfter adds a key after a delay (a periodic re-check).
func (c *Controller[K]) EnqueueAfter(key K, d time.Duration) { c.queue.AddAfter(key, d) }

// Len is the number of keys waiting.
func (c *Controller[K]) Len() int { return c.queue.Len() }

// NumRequeues is how many failures of key the rate limiter remembers: zero
// for every key that succeeded or was given up on.
func (c *Controller[K]) NumRequeues(key K) int { return c.queue.NumRequeues(key) }

// Run waits for the caches, runs workers until ctx is cancelled, then
// stops taking new keys, lets in-flight syncs finish (ShutDownWithDrain)
// and returns once every worker has exited. With leader election it does
// all that only while leading.
func (c *Controller[K]) Run(ctx context.Context, workers int) error {
	if workers < 1 {
		return fmt.Errorf("controller %s: workers must be at least 1, got %d", c.name, workers)
	}
	if c.opts.leader != nil {
		return c.runLeading(ctx, workers)
	}
	return c.run(ctx, workers)
}

func (c *Controller[K]) run(ctx context.Context, workers int) error {
	// WaitFor is woken by the caches themselves; the older
	// WaitForCacheSync functions poll every 100ms.
	if !cache.WaitFor(ctx, "caches of "+c.name, c.synced...) {
		c.queue.ShutDown()
		if ctx.Err() != nil {
			return nil // stopped before the caches synced: nothing ran
		}
		return fmt.Errorf("controller %s: caches did not sync", c.name)
	}
	// Syncs get a context that outlives ctx by the drain: in-flight work
	// finishes instead of failing half-way, unless the drain takes longer
	// than the drain timeout.
	syncCtx, cancelSyncs := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelSyncs()

	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for c.processNext(syncCtx) {
			}
		})
	}
	<-ctx.Done()
	if c.opts.drainTimeout > 0 {
		timer := time.AfterFunc(c.opts.drainTimeout, cancelSyncs)
		defer timer.Stop()
	}
	c.queue.ShutDownWithDrain() // no new keys; wait for in-flight ones to be Done
	// The delaying queue under the rate limiter stops its own goroutine only
	// on ShutDown, not on ShutDownWithDrain: without this call it leaks.
	c.queue.ShutDown()
	wg.Wait()
	return nil
}

// processNext takes one key and settles it: Done always, Forget on success
// and on giving up, AddRateLimited while retries remain.
func (c *Controller[K]) processNext(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	// Done releases the key: until then the queue hands it to no one else.
	defer c.queue.Done(key)

	err := c.syncRecovering(ctx, key)
	switch {
	case err == nil:
		c.queue.Forget(key) // clear its backoff history
	case c.queue.NumRequeues(key) < c.opts.maxRetries:
		c.queue.AddRateLimited(key) // retry with backoff
	default:
		c.queue.Forget(key) // give up; the next event starts afresh
		c.opts.onGiveUp(key, err)
	}
	return true
}

// syncRecovering turns a panic in the sync into an error, so one bad
// object cannot take the controller down.
func (c *Controller[K]) syncRecovering(ctx context.Context, key K) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &PanicError{Key: fmt.Sprint(key), Value: r, Stack: debug.Stack()}
			utilruntime.HandleErrorWithContext(ctx, err, "Sync panicked", "controller", c.name, "key", key)
		}
	}()
	return c.sync(ctx, key)
}

// PanicError is the error a panicking sync is turned into.
type PanicError struct {
	Key   string
	Value any
	Stack []byte
}

func (e *PanicError) Error() string { return fmt.Sprintf("sync of %s panicked: %v", e.Key, e.Value) }
