// Package workloop is a work-queue controller loop generic over its key
// type, with the discipline ctrllint's forget and queuedone analyzers check:
// every key taken is marked Done, every key that stops being retried is
// forgotten, and workers start only once the caches the sync reads are
// synced.
package workloop

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
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
	if o.leader != nil {
		if err := o.leader.check(); err != nil {
			return nil, fmt.Errorf("controller %s: %w", name, err)
		}
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
// stops taking keys (keys still queued are left), lets in-flight syncs
// finish with a live context (WithDrainTimeout bounds that) and returns
// once every worker has exited. With leader election it does all that only
// while leading; see WithLeaderElection for what happens when the lease is
// lost.
func (c *Controller[K]) Run(ctx context.Context, workers int) error {
	if workers < 1 {
		return fmt.Errorf("controller %s: workers must be at least 1, got %d", c.name, workers)
	}
	if c.opts.leader != nil {
		return c.runLeading(ctx, workers)
	}
	return c.run(ctx, nil, workers)
}

// run runs the workers until ctx is done (shutdown: drain) or lease is
// done (leadership lost: the syncs' context is cancelled at once, and Run
// waits for them no longer than abandonAfter). lease is nil without leader
// election.
func (c *Controller[K]) run(ctx context.Context, lease *leaseState, workers int) error {
	// stop ends the taking of keys, for either reason.
	stop, stopTaking := context.WithCancel(ctx)
	defer stopTaking()
	// Syncs get a context that outlives ctx by the drain: in-flight work
	// finishes instead of failing half-way, unless the drain takes longer
	// than the drain timeout. It does not outlive the lease: once another
	// replica may act, nothing here may still be acting on its behalf.
	syncCtx, cancelSyncs := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelSyncs()
	var lost <-chan struct{}
	var taking, syncing context.Context = stop, syncCtx
	if lease != nil {
		lost = lease.ctx.Done()
		loseLease := func() {
			// In this order: a worker whose sync returns because its
			// context was cancelled must find the taking stopped, or
			// it takes the next queued key.
			stopTaking()
			cancelSyncs()
		}
		defer context.AfterFunc(lease.ctx, loseLease)()
		// The workers ask these contexts before taking a key, and syncs
		// before writing: they read the clock, so a process resumed after
		// its lease ran out sees the loss before any timer has fired.
		check := func() {
			if !lease.held() {
				loseLease() // now, not in AfterFunc's goroutine
			}
		}
		taking = clockedContext{stop, check}
		syncing = clockedContext{syncCtx, check}
	}

	// WaitFor is woken by the caches themselves; the older
	// WaitForCacheSync functions poll every 100ms.
	if !cache.WaitFor(stop, "caches of "+c.name, c.synced...) {
		c.queue.ShutDown()
		if stop.Err() != nil {
			return nil // stopped or lost the lease before the caches synced: nothing ran
		}
		return fmt.Errorf("controller %s: caches did not sync", c.name)
	}

	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for c.processNext(taking, syncing) {
			}
		})
	}
	<-stop.Done()
	if c.opts.drainTimeout > 0 {
		timer := time.AfterFunc(c.opts.drainTimeout, cancelSyncs)
		defer timer.Stop()
	}
	// Wakes the workers waiting in Get. Keys still queued are not taken:
	// processNext checks stop first. (ShutDown also stops the delaying
	// queue's goroutine, which ShutDownWithDrain alone leaks.)
	c.queue.ShutDown()
	exited := make(chan struct{})
	go func() {
		wg.Wait()
		close(exited)
	}()
	select {
	case <-exited:
		return nil
	case <-lost:
	}
	// abandonAfter from the loss, but never past abandonAfter from when the
	// lease stopped counting as held, after which another replica may act:
	// a loss noticed late (after a pause) leaves less, or nothing.
	wait := max(min(lease.abandonAfter, time.Until(lease.until().Add(lease.abandonAfter))), 0)
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-exited:
	case <-timer.C:
		utilruntime.HandleErrorWithContext(ctx, nil, "Syncs still running after leadership was lost; exit the process",
			"controller", c.name, "waited", wait)
	}
	return nil
}

// processNext takes one key and settles it: Done always, Forget on success
// and on giving up, a rate-limited requeue while retries remain. It takes
// nothing once stop is done, even when keys are still queued.
func (c *Controller[K]) processNext(stop, ctx context.Context) bool {
	if stop.Err() != nil {
		return false
	}
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	// Done releases the key: until then the queue hands it to no one else.
	defer c.queue.Done(key)
	if stop.Err() != nil {
		return false // stopped while waiting in Get
	}

	err := c.syncRecovering(ctx, key)
	switch {
	case err == nil:
		c.queue.Forget(key) // clear its backoff history
	case stop.Err() != nil:
		return false // the queue is shut down: no retry, and no give-up to report
	case c.queue.NumRequeues(key) < c.opts.maxRetries:
		c.queue.AddAfter(key, c.retryDelay(key, err))
	default:
		c.queue.Forget(key) // give up; the next event starts afresh
		c.opts.onGiveUp(key, err)
	}
	return true
}

// retryDelay is the rate limiter's backoff for key, or the delay the API
// server asked for (429 and 5xx with Retry-After, server timeouts) when
// that is longer: retrying earlier only earns another refusal.
func (c *Controller[K]) retryDelay(key K, err error) time.Duration {
	d := c.opts.rateLimiter.When(key) // counts the retry, as AddRateLimited does
	if seconds, ok := apierrors.SuggestsClientDelay(err); ok {
		d = max(d, time.Duration(seconds)*time.Second)
	}
	return d
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

// clockedContext is a context whose Err first runs check, which cancels
// it when the lease no longer counts as held by the clock. Contexts derived
// from it see the cancellation through Done, as ever.
type clockedContext struct {
	context.Context
	check func()
}

func (c clockedContext) Err() error {
	if err := c.Context.Err(); err != nil {
		return err
	}
	c.check()
	return c.Context.Err()
}
