// Package runtimebench_test measures the reference controller runtime against
// controller-runtime on the same workload: ConfigMaps in a fake clientset,
// watched by a client-go shared informer, reconciled by a sync that reads
// the object back from the informer's lister.
//
// BenchmarkReconcile reports reconciles/s for a cold start: the clock runs
// from the moment the informer factory starts (the handlers are already
// registered on both sides) until every object has been reconciled once,
// so it includes the list from the fake clientset and each runtime's wait
// for the cache. first-ms is the part of that before the first reconcile.
//
// BenchmarkLatency, after that initial pass, updates objects one at a time
// through the fake clientset and times each until the sync for that object
// starts. p50-µs and p99-µs start the clock when the informer takes the
// watch event in (its transform sees the new object), which leaves out the
// fake clientset's own Update cost, about a millisecond, the same for both
// runtimes; api-p50-µs and api-p99-µs start it just before the Update call.
//
// Each benchmark iteration is a whole run: a new clientset, informer
// factory and controller, torn down before the next iteration starts; an
// iteration fails if goroutines are left behind.
package runtimebench_test

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	listerscorev1 "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	crcontroller "sigs.k8s.io/controller-runtime/pkg/controller"
	crhandler "sigs.k8s.io/controller-runtime/pkg/handler"
	crlog "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"

	"github.com/ctrllint/ctrllint/runtime/eventhandler"
	"github.com/ctrllint/ctrllint/runtime/workloop"
)

const (
	namespace = "bench"
	// updates is how many objects BenchmarkLatency updates, one at a time.
	updates = 200
	// waitLimit bounds every wait, so a lost event fails the benchmark
	// instead of hanging it.
	waitLimit = 30 * time.Second
	// goroutineSlack is how many goroutines an iteration may leave behind
	// (one-time global workers started lazily by a library on first use).
	goroutineSlack = 3
)

var (
	workerCounts = []int{2, 8}
	objectCounts = []int{500, 2000}
)

// impl is one controller runtime under test.
type impl struct {
	name string
	// start registers the handlers on the informer, starts the controller
	// in the background and returns once it is ready for the informer to
	// start. stop is called after ctx is cancelled and returns once every
	// goroutine the controller started has returned.
	start func(ctx context.Context, w *world, workers int) (stop func() error, err error)
}

var impls = []impl{
	{name: "ctrllint", start: startCtrllint},
	{name: "controller-runtime", start: startControllerRuntime},
}

var quietLogs sync.Once

// quiet discards the logs both runtimes write on start and stop (and keeps
// controller-runtime from complaining that no logger was ever set).
func quiet() {
	quietLogs.Do(func() {
		crlog.SetLogger(logr.Discard())
		klog.SetLogger(logr.Discard())
	})
}

func BenchmarkReconcile(b *testing.B) {
	quiet()
	for _, workers := range workerCounts {
		for _, objects := range objectCounts {
			for _, im := range impls {
				b.Run(fmt.Sprintf("%s/workers=%d/objects=%d", im.name, workers, objects), func(b *testing.B) {
					var total, first time.Duration
					var reconciled, runs int
					for b.Loop() {
						r := runOnce(b, im, workers, objects, 0)
						total += r.initial
						first += r.first
						reconciled += objects
						runs++
					}
					b.ReportMetric(float64(reconciled)/total.Seconds(), "reconciles/s")
					b.ReportMetric(float64(first)/float64(runs)/float64(time.Millisecond), "first-ms")
				})
			}
		}
	}
}

func BenchmarkLatency(b *testing.B) {
	quiet()
	for _, workers := range workerCounts {
		for _, objects := range objectCounts {
			for _, im := range impls {
				b.Run(fmt.Sprintf("%s/workers=%d/objects=%d", im.name, workers, objects), func(b *testing.B) {
					var fromEvent, fromAPI []time.Duration
					for b.Loop() {
						r := runOnce(b, im, workers, objects, updates)
						for _, l := range r.latencies {
							fromEvent = append(fromEvent, l.fromEvent)
							fromAPI = append(fromAPI, l.fromAPI)
						}
					}
					slices.Sort(fromEvent)
					slices.Sort(fromAPI)
					b.ReportMetric(micros(percentile(fromEvent, 0.50)), "p50-µs")
					b.ReportMetric(micros(percentile(fromEvent, 0.99)), "p99-µs")
					b.ReportMetric(micros(percentile(fromAPI, 0.50)), "api-p50-µs")
					b.ReportMetric(micros(percentile(fromAPI, 0.99)), "api-p99-µs")
				})
			}
		}
	}
}

// world is one run's fake cluster, informer and reconcile recorder.
type world struct {
	client   *fake.Clientset
	factory  informers.SharedInformerFactory
	informer configMapInformer
	rec      *recorder
}

// configMapInformer is the part of the generated ConfigMap
// informer the benchmark uses.
type configMapInformer interface {
	Informer() cache.SharedIndexInformer
	Lister() listerscorev1.ConfigMapLister
}

type result struct {
	initial   time.Duration // informer start until every object reconciled once
	first     time.Duration // informer start until the first reconcile
	latencies []latency
}

type latency struct {
	fromEvent time.Duration // informer took the watch event in until its reconcile started
	fromAPI   time.Duration // Update call until its reconcile started
}

// runOnce sets up a fake cluster of n ConfigMaps, runs im over it until all
// are reconciled, then makes m updates one at a time and times each, and
// tears everything down, failing b if anything is left running.
func runOnce(b *testing.B, im impl, workers, n, m int) result {
	b.Helper()
	before := runtime.NumGoroutine()

	objs := make([]k8sruntime.Object, n)
	for i := range n {
		objs[i] = &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: objectName(i)},
			Data:       map[string]string{"gen": "0"},
		}
	}
	client := fake.NewClientset(objs...)
	factory := informers.NewSharedInformerFactory(client, 0)
	cms := factory.Core().V1().ConfigMaps()
	w := &world{client: client, factory: factory, informer: cms, rec: newRecorder(n)}
	w.rec.lister = cms.Lister()
	if err := cms.Informer().SetTransform(w.rec.received); err != nil {
		b.Fatal(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	stop, err := im.start(ctx, w, workers)
	if err != nil {
		cancel()
		factory.Shutdown()
		b.Fatalf("%s: start: %v", im.name, err)
	}
	var res result
	var failure string
	func() {
		start := time.Now()
		factory.Start(ctx.Done())
		select {
		case <-w.rec.allSeen:
			first, last := w.rec.firstAndLast()
			res.first, res.initial = first.Sub(start), last.Sub(start)
		case <-time.After(waitLimit):
			failure = fmt.Sprintf("%s: %d of %d objects reconciled after %v", im.name, w.rec.distinct(), n, waitLimit)
			return
		}
		for i := range m {
			d, msg := w.timeUpdate(ctx, i%n, i+1)
			if msg != "" {
				failure = im.name + ": " + msg
				return
			}
			res.latencies = append(res.latencies, d)
		}
	}()

	cancel()
	stopErr := stop()
	factory.Shutdown()
	if failure != "" {
		b.Fatal(failure)
	}
	if stopErr != nil {
		b.Fatalf("%s: stop: %v", im.name, stopErr)
	}
	if got := w.rec.distinct(); got != n {
		b.Fatalf("%s: reconciled %d distinct objects, want %d", im.name, got, n)
	}
	if err := w.rec.failed(); err != nil {
		b.Fatalf("%s: sync: %v", im.name, err)
	}
	if after, ok := settle(before + goroutineSlack); !ok {
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		b.Fatalf("%s: %d goroutines before the run, %d after it stopped:\n%s", im.name, before, after, buf)
	}
	return res
}

// timeUpdate sets object i's generation marker to gen through the fake
// clientset and returns the time from just before the Update call until a
// sync of that object saw the new marker.
func (w *world) timeUpdate(ctx context.Context, i, gen int) (latency, string) {
	name := objectName(i)
	cur, err := w.informer.Lister().ConfigMaps(namespace).Get(name)
	if err != nil {
		return latency{}, fmt.Sprintf("update %d: %v", gen, err)
	}
	cm := cur.DeepCopy()
	cm.Data["gen"] = strconv.Itoa(gen)
	t := &target{
		key:      eventhandler.Key{Namespace: namespace, Name: name},
		gen:      cm.Data["gen"],
		received: make(chan time.Time, 1),
		seen:     make(chan time.Time, 1),
	}
	w.rec.target.Store(t)
	defer w.rec.target.Store(nil)

	sent := time.Now()
	if _, err := w.client.CoreV1().ConfigMaps(namespace).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
		return latency{}, fmt.Sprintf("update %d: %v", gen, err)
	}
	select {
	case started := <-t.seen:
		// The informer took the event in before it could hand it on.
		received := <-t.received
		return latency{fromEvent: started.Sub(received), fromAPI: started.Sub(sent)}, ""
	case <-time.After(waitLimit):
		return latency{}, fmt.Sprintf("update %d of %s not reconciled after %v", gen, name, waitLimit)
	}
}

// recorder is the work both runtimes' syncs do: read the object from the
// lister, note the first reconcile of each key, and report a reconcile
// that sees the update BenchmarkLatency is waiting for.
type recorder struct {
	lister listerscorev1.ConfigMapLister
	want   int

	mu        sync.Mutex
	seen      map[eventhandler.Key]struct{}
	first     time.Time // when the first reconcile started
	lastFirst time.Time // when the last new key was first reconciled
	err       error
	allSeen   chan struct{}

	target atomic.Pointer[target]
}

// target is the update BenchmarkLatency is waiting for.
type target struct {
	key          eventhandler.Key
	gen          string
	received     chan time.Time // buffered: when the informer took it in
	seen         chan time.Time // buffered: when its first reconcile started
	receivedOnce sync.Once
	seenOnce     sync.Once
}

// received is the informer's transform: it notes when the watch event
// carrying the awaited update reaches the informer, before the store and
// the handlers see it.
func (r *recorder) received(obj any) (any, error) {
	if t := r.target.Load(); t != nil {
		if cm, ok := obj.(*corev1.ConfigMap); ok && cm.Namespace == t.key.Namespace && cm.Name == t.key.Name && cm.Data["gen"] == t.gen {
			t.receivedOnce.Do(func() { t.received <- time.Now() })
		}
	}
	return obj, nil
}

func newRecorder(want int) *recorder {
	return &recorder{want: want, seen: make(map[eventhandler.Key]struct{}, want), allSeen: make(chan struct{})}
}

func (r *recorder) reconcile(key eventhandler.Key) error {
	started := time.Now()
	cm, err := r.lister.ConfigMaps(key.Namespace).Get(key.Name)
	if err != nil {
		r.mu.Lock()
		if r.err == nil {
			r.err = fmt.Errorf("%v: %w", key, err)
		}
		r.mu.Unlock()
		return nil // not retried: the benchmark fails on r.err
	}
	if t := r.target.Load(); t != nil && t.key == key && cm.Data["gen"] == t.gen {
		t.seenOnce.Do(func() { t.seen <- started })
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.first.IsZero() {
		r.first = started
	}
	if _, dup := r.seen[key]; !dup {
		r.seen[key] = struct{}{}
		if len(r.seen) == r.want {
			r.lastFirst = time.Now()
			close(r.allSeen)
		}
	}
	return nil
}

func (r *recorder) distinct() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.seen)
}

// firstAndLast returns when the first reconcile started and when the
// last object was first reconciled.
func (r *recorder) firstAndLast() (time.Time, time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.first, r.lastFirst
}

func (r *recorder) failed() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// startCtrllint wires the reference runtime the way its example does:
// typed handlers from eventhandler.Enqueue, Run waiting for the informer.
func startCtrllint(ctx context.Context, w *world, workers int) (func() error, error) {
	c, err := workloop.New("bench", func(_ context.Context, key eventhandler.Key) error {
		return w.rec.reconcile(key)
	}, []cache.DoneChecker{w.informer.Informer().HasSyncedChecker()})
	if err != nil {
		return nil, err
	}
	typed := w.factory.Core().V1().ConfigMaps().TypedInformer()
	if _, err := typed.AddTypedEventHandler(eventhandler.Enqueue[*corev1.ConfigMap](c.Enqueue)); err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx, workers) }()
	return func() error { return <-done }, nil
}

// startControllerRuntime builds a controller-runtime controller without a
// manager, fed by the same client-go informer through source.Informer and
// eventhandler.EnqueueRequestForObject, with controller-runtime's defaults
// otherwise (including its priority queue).
func startControllerRuntime(ctx context.Context, w *world, workers int) (func() error, error) {
	skip := true
	c, err := crcontroller.NewUnmanaged("bench", crcontroller.Options{
		SkipNameValidation:      &skip, // a new controller of the same name every iteration
		MaxConcurrentReconciles: workers,
		Logger:                  logr.Discard(),
		Reconciler: reconcile.Func(func(_ context.Context, req reconcile.Request) (reconcile.Result, error) {
			return reconcile.Result{}, w.rec.reconcile(eventhandler.Key{Namespace: req.Namespace, Name: req.Name})
		}),
	})
	if err != nil {
		return nil, err
	}
	// The source registers its handler when the controller starts; the
	// informer must not start before that, or the two runtimes would not
	// see the same stream of events.
	inf := &registering{SharedIndexInformer: w.informer.Informer(), added: make(chan struct{})}
	if err := c.Watch(&source.Informer{Informer: inf, Handler: &crhandler.EnqueueRequestForObject{}}); err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() { done <- c.Start(ctx) }()
	select {
	case <-inf.added:
		return func() error { return <-done }, nil
	case err := <-done:
		return nil, fmt.Errorf("controller stopped before registering its handler: %v", err)
	case <-time.After(waitLimit):
		return nil, fmt.Errorf("handler not registered after %v", waitLimit)
	}
}

// registering is a shared informer that says when a handler was added.
type registering struct {
	cache.SharedIndexInformer
	added chan struct{}
	once  sync.Once
}

func (r *registering) AddEventHandlerWithOptions(h cache.ResourceEventHandler, o cache.HandlerOptions) (cache.ResourceEventHandlerRegistration, error) {
	reg, err := r.SharedIndexInformer.AddEventHandlerWithOptions(h, o)
	r.once.Do(func() { close(r.added) })
	return reg, err
}

// settle waits briefly for goroutines that are on their way out, and
// reports whether the count came down to at most limit.
func settle(limit int) (int, bool) {
	deadline := time.Now().Add(3 * time.Second)
	for {
		n := runtime.NumGoroutine()
		if n <= limit {
			return n, true
		}
		if time.Now().After(deadline) {
			return n, false
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func objectName(i int) string { return fmt.Sprintf("cm-%05d", i) }

func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p*float64(len(sorted))+0.5) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

func micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
