package workloop_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"

	"github.com/ctrllint/ctrllint/runtime/workloop"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// checker is a cache that syncs when its channel is closed.
type checker chan struct{}

func (c checker) Name() string          { return "test cache" }
func (c checker) Done() <-chan struct{} { return c }
func syncedChecker() checker            { c := make(checker); close(c); return c }

var synced = []cache.DoneChecker{syncedChecker()}

// fast keeps retries in milliseconds.
func fast[K comparable]() workloop.Option[K] {
	return workloop.WithRateLimiter[K](workqueue.NewTypedItemExponentialFailureRateLimiter[K](time.Millisecond, 10*time.Millisecond))
}

// start runs c until the returned stop is called; stop waits for Run.
func start[K comparable](t *testing.T, c *workloop.Controller[K], workers int) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx, workers) }()
	return func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Run did not return after cancel")
		}
	}
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestRetryGiveUpForget: a failing key is retried up to the limit, then
// given up and forgotten; a succeeding key is forgotten at once. Nothing is
// left in the rate limiter either way.
func TestRetryGiveUpForget(t *testing.T) {
	var attempts sync.Map
	gaveUp := make(chan string, 1)
	sync := func(_ context.Context, key string) error {
		n, _ := attempts.LoadOrStore(key, new(atomic.Int32))
		n.(*atomic.Int32).Add(1)
		if key == "bad" {
			return errors.New("always fails")
		}
		return nil
	}
	c, err := workloop.New("retry", sync, synced, fast[string](), workloop.WithMaxRetries[string](3),
		workloop.OnGiveUp(func(key string, err error) { gaveUp <- key }))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(t, c, 2)
	defer stop()
	c.Enqueue("good")
	c.Enqueue("bad")
	select {
	case key := <-gaveUp:
		if key != "bad" {
			t.Fatalf("gave up on %q", key)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("never gave up")
	}
	n, _ := attempts.Load("bad")
	if got := n.(*atomic.Int32).Load(); got != 4 {
		t.Errorf("bad was tried %d times, want 1 + 3 retries", got)
	}
	for _, key := range []string{"good", "bad"} {
		if r := c.NumRequeues(key); r != 0 {
			t.Errorf("%s left in the rate limiter with %d requeues", key, r)
		}
	}
}

// TestPanicRecovered: a panicking sync is reported as an error and
// retried; the controller keeps working.
func TestPanicRecovered(t *testing.T) {
	var calls atomic.Int32
	done := make(chan struct{})
	c, err := workloop.New("panic", func(_ context.Context, key string) error {
		if calls.Add(1) == 1 {
			panic("boom")
		}
		close(done)
		return nil
	}, synced, fast[string]())
	if err != nil {
		t.Fatal(err)
	}
	stop := start(t, c, 1)
	defer stop()
	c.Enqueue("k")
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the key was not retried after the panic")
	}
	eventually(t, "the key to be forgotten", func() bool { return c.NumRequeues("k") == 0 })
}

// TestOneWorkerPerKey: however many workers and however often a key is
// added, it is never synced twice at once.
func TestOneWorkerPerKey(t *testing.T) {
	var inFlight, maxInFlight, total atomic.Int32
	c, err := workloop.New("exclusive", func(_ context.Context, key int) error {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for {
			m := maxInFlight.Load()
			if n <= m || maxInFlight.CompareAndSwap(m, n) {
				break
			}
		}
		total.Add(1)
		time.Sleep(200 * time.Microsecond)
		return nil
	}, synced, fast[int]())
	if err != nil {
		t.Fatal(err)
	}
	stop := start(t, c, 8)
	for range 500 {
		c.Enqueue(7)
	}
	eventually(t, "the queue to drain", func() bool { return c.Len() == 0 && inFlight.Load() == 0 })
	stop()
	if maxInFlight.Load() != 1 {
		t.Errorf("key 7 was synced %d times at once", maxInFlight.Load())
	}
	if total.Load() == 0 {
		t.Error("key 7 was never synced")
	}
}

// TestShutdownDrains: cancelling Run while a sync is in flight lets it
// finish with a live context, takes no new keys nor the keys still queued,
// and returns only after the workers are gone (goleak checks the last part
// for every test).
func TestShutdownDrains(t *testing.T) {
	entered := make(chan struct{})
	release := make(chan struct{})
	var finished atomic.Bool
	var ctxErr error
	var others sync.Map
	c, err := workloop.New("drain", func(ctx context.Context, key string) error {
		if key != "slow" {
			others.Store(key, true)
			return nil
		}
		close(entered)
		<-release
		ctxErr = ctx.Err() // read by the test after Run returned
		finished.Store(true)
		return nil
	}, synced)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx, 1) }()
	c.Enqueue("slow")
	<-entered
	c.Enqueue("queued") // waits behind slow: the only worker is busy
	cancel()
	time.Sleep(20 * time.Millisecond)
	c.Enqueue("later") // after shutdown began: not taken
	select {
	case <-done:
		t.Fatal("Run returned while a sync was in flight")
	default:
	}
	close(release)
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after the drain")
	}
	if !finished.Load() {
		t.Error("the in-flight sync did not finish")
	}
	if ctxErr != nil {
		t.Errorf("the in-flight sync's context was cancelled: %v", ctxErr)
	}
	others.Range(func(key, _ any) bool {
		t.Errorf("key %q was taken after shutdown began", key)
		return true
	})
}

// TestWaitsForCaches: no sync runs before every named cache has synced.
func TestWaitsForCaches(t *testing.T) {
	var ready atomic.Bool
	var early atomic.Bool
	var synced atomic.Int32
	slow := make(checker)
	c, err := workloop.New("gate", func(context.Context, string) error {
		if !ready.Load() {
			early.Store(true)
		}
		synced.Add(1)
		return nil
	}, []cache.DoneChecker{syncedChecker(), slow})
	if err != nil {
		t.Fatal(err)
	}
	stop := start(t, c, 1)
	defer stop()
	c.Enqueue("k")
	time.Sleep(300 * time.Millisecond)
	if synced.Load() != 0 {
		t.Fatal("a sync ran before the caches synced")
	}
	ready.Store(true)
	close(slow)
	eventually(t, "the sync after the caches synced", func() bool { return synced.Load() == 1 })
	if early.Load() {
		t.Error("a sync saw an unsynced cache")
	}
}

// TestNew: the sync gate is not optional, nor are workers.
func TestNew(t *testing.T) {
	if _, err := workloop.New[string]("none", func(context.Context, string) error { return nil }, nil); err == nil {
		t.Error("New accepted a controller that names no caches")
	}
	c, err := workloop.New("zero", func(context.Context, string) error { return nil }, synced)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background(), 0); err == nil {
		t.Error("Run accepted zero workers")
	}
	stop := start(t, c, 1) // shuts the queue down again
	stop()
}

// TestEnqueueAfter: a key added with a delay waits out the delay outside
// the queue and is synced once it has passed, not before.
func TestEnqueueAfter(t *testing.T) {
	const delay = 300 * time.Millisecond
	ran := make(chan time.Time, 1)
	c, err := workloop.New("after", func(context.Context, string) error {
		ran <- time.Now()
		return nil
	}, synced)
	if err != nil {
		t.Fatal(err)
	}
	stop := start(t, c, 1)
	defer stop()
	added := time.Now()
	c.EnqueueAfter("k", delay)
	if n := c.Len(); n != 0 {
		t.Errorf("Len() = %d right after EnqueueAfter, want 0", n)
	}
	select {
	case at := <-ran:
		if got := at.Sub(added); got < delay {
			t.Errorf("synced %v after EnqueueAfter, before the %v delay", got, delay)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the key was never synced")
	}
}

// TestWithMetricsProvider: the provider is asked for the metrics of the
// queue named after the controller, and they see a key that fails once
// and then succeeds: two adds, one retry, two gets, two finished syncs,
// and a depth back at zero.
func TestWithMetricsProvider(t *testing.T) {
	p := &recordingProvider{counts: map[string]int{}}
	var syncs atomic.Int32
	c, err := workloop.New("metered", func(context.Context, string) error {
		if syncs.Add(1) == 1 {
			return errors.New("transient")
		}
		return nil
	}, synced, fast[string](), workloop.WithMetricsProvider[string](p))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(t, c, 1)
	c.Enqueue("k")
	eventually(t, "the second sync", func() bool { return syncs.Load() == 2 })
	stop() // Run returns after the last Done, so every metric is in

	p.mu.Lock()
	defer p.mu.Unlock()
	for _, q := range p.queues {
		if q != "metered" {
			t.Errorf("a metric for queue %q, want only %q", q, "metered")
		}
	}
	if len(p.queues) == 0 {
		t.Fatal("the metrics provider was never asked for a metric")
	}
	want := map[string]int{"depth": 0, "adds": 2, "retries": 1, "latency": 2, "work": 2}
	for metric, n := range want {
		if p.counts[metric] != n {
			t.Errorf("%s = %d, want %d (all: %v)", metric, p.counts[metric], n, p.counts)
		}
	}
}

// recordingProvider is a workqueue.MetricsProvider that counts: Inc adds
// one, Dec takes one away, Observe counts an observation; Set (the
// periodically sampled gauges) is ignored.
type recordingProvider struct {
	mu     sync.Mutex
	queues []string       // the queue name of every metric asked for
	counts map[string]int // by metric
}

type recordedMetric struct {
	p    *recordingProvider
	name string
}

func (m recordedMetric) add(d int) {
	m.p.mu.Lock()
	defer m.p.mu.Unlock()
	m.p.counts[m.name] += d
}

func (m recordedMetric) Inc()            { m.add(1) }
func (m recordedMetric) Dec()            { m.add(-1) }
func (m recordedMetric) Observe(float64) { m.add(1) }
func (m recordedMetric) Set(float64)     {}

func (p *recordingProvider) metric(queue, name string) recordedMetric {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.queues = append(p.queues, queue)
	return recordedMetric{p: p, name: name}
}

func (p *recordingProvider) NewDepthMetric(q string) workqueue.GaugeMetric {
	return p.metric(q, "depth")
}

func (p *recordingProvider) NewAddsMetric(q string) workqueue.CounterMetric {
	return p.metric(q, "adds")
}

func (p *recordingProvider) NewLatencyMetric(q string) workqueue.HistogramMetric {
	return p.metric(q, "latency")
}

func (p *recordingProvider) NewWorkDurationMetric(q string) workqueue.HistogramMetric {
	return p.metric(q, "work")
}

func (p *recordingProvider) NewUnfinishedWorkSecondsMetric(q string) workqueue.SettableGaugeMetric {
	return p.metric(q, "unfinished")
}

func (p *recordingProvider) NewLongestRunningProcessorSecondsMetric(q string) workqueue.SettableGaugeMetric {
	return p.metric(q, "longest")
}

func (p *recordingProvider) NewRetriesMetric(q string) workqueue.CounterMetric {
	return p.metric(q, "retries")
}
