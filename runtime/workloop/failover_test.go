package workloop_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	coordinationclient "k8s.io/client-go/kubernetes/typed/coordination/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/leaderelection/resourcelock"

	"github.com/ctrllint/ctrllint/runtime/eventhandler"
	"github.com/ctrllint/ctrllint/runtime/workloop"
)

// Lease timings of the failover tests. Another replica may take the lease
// LeaseDuration after the last renewal it saw; the old leader gives up
// RenewDeadline (plus a retry period) after its last renewal. The gap
// between the two is the time the old leader has to stop, so it is wide
// here: the machine running the tests may be loaded.
const (
	testLeaseDuration = 5 * time.Second
	testRenewDeadline = time.Second
	testRetryPeriod   = 100 * time.Millisecond
)

// partitioned is a replica's view of the Lease API that, once a fault is
// set, runs it instead of each call, as for a replica cut off from the API
// server.
type partitioned struct {
	coordinationclient.LeasesGetter
	fault *atomic.Pointer[fault]
}

// A fault is what a partitioned Lease call does instead of reaching the
// API server.
type fault func(ctx context.Context) error

var errPartitioned = apierrors.NewServiceUnavailable("this replica is cut off from the API server")

// refused: every call fails at once (connections refused).
func refused(context.Context) error { return errPartitioned }

// dropped: every call hangs until its context ends (packets dropped).
func dropped(ctx context.Context) error {
	<-ctx.Done()
	return ctx.Err()
}

// stalledUntil: every call hangs, whatever its context, until release is
// closed, as if the elector's goroutine had stopped while the workers ran.
func stalledUntil(release <-chan struct{}) fault {
	return func(context.Context) error {
		<-release
		return errPartitioned
	}
}

func (p partitioned) Leases(namespace string) coordinationclient.LeaseInterface {
	return partitionedLeases{p.LeasesGetter.Leases(namespace), p.fault}
}

type partitionedLeases struct {
	coordinationclient.LeaseInterface
	fault *atomic.Pointer[fault]
}

func (l partitionedLeases) failed(ctx context.Context) error {
	if f := l.fault.Load(); f != nil {
		return (*f)(ctx)
	}
	return nil
}

func (l partitionedLeases) Get(ctx context.Context, name string, opts metav1.GetOptions) (*coordinationv1.Lease, error) {
	if err := l.failed(ctx); err != nil {
		return nil, err
	}
	return l.LeaseInterface.Get(ctx, name, opts)
}

func (l partitionedLeases) Create(ctx context.Context, lease *coordinationv1.Lease, opts metav1.CreateOptions) (*coordinationv1.Lease, error) {
	if err := l.failed(ctx); err != nil {
		return nil, err
	}
	return l.LeaseInterface.Create(ctx, lease, opts)
}

func (l partitionedLeases) Update(ctx context.Context, lease *coordinationv1.Lease, opts metav1.UpdateOptions) (*coordinationv1.Lease, error) {
	if err := l.failed(ctx); err != nil {
		return nil, err
	}
	return l.LeaseInterface.Update(ctx, lease, opts)
}

// ledger records which replica syncs which key, and what each saw.
type ledger struct {
	mu       sync.Mutex
	inFlight map[eventhandler.Key]string          // key → replica syncing it
	ctxs     map[eventhandler.Key]context.Context // the last context a sync of key ran with, per replica "a"
	synced   map[string][]eventhandler.Key        // replica → keys it started, in order
	problems []string
}

func newLedger() *ledger {
	return &ledger{inFlight: map[eventhandler.Key]string{}, ctxs: map[eventhandler.Key]context.Context{}, synced: map[string][]eventhandler.Key{}}
}

// start records that replica began syncing key; a key that another
// replica is syncing, or whose old leader's sync still has a live context,
// is a problem.
func (l *ledger) start(ctx context.Context, replica string, key eventhandler.Key) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if other, ok := l.inFlight[key]; ok {
		l.problems = append(l.problems, fmt.Sprintf("%s started %s while %s was syncing it", replica, key, other))
	}
	if replica != "a" {
		if actx, ok := l.ctxs[key]; ok && actx.Err() == nil {
			l.problems = append(l.problems, fmt.Sprintf("%s started %s before a's sync context was cancelled", replica, key))
		}
	} else {
		l.ctxs[key] = ctx
	}
	l.inFlight[key] = replica
	l.synced[replica] = append(l.synced[replica], key)
}

func (l *ledger) end(key eventhandler.Key) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.inFlight, key)
}

func (l *ledger) started(replica string) []eventhandler.Key {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]eventhandler.Key(nil), l.synced[replica]...)
}

func (l *ledger) report(t *testing.T) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, p := range l.problems {
		t.Error(p)
	}
}

// replica is one controller process: its own informers over the shared
// API server (the fake clientset), its own leader elector against the
// shared Lease, and a switch that cuts its Lease calls off.
type replica struct {
	c       *workloop.Controller[eventhandler.Key]
	fault   atomic.Pointer[fault]
	factory informers.SharedInformerFactory
	done    chan error
	cancel  context.CancelFunc
	// returned is when Run returned.
	returned atomic.Pointer[time.Time]
}

// testTimings are the lease timings of most failover tests.
var testTimings = workloop.LeaderElection{LeaseDuration: testLeaseDuration, RenewDeadline: testRenewDeadline, RetryPeriod: testRetryPeriod}

func newReplica(t *testing.T, client *fake.Clientset, id string, sync workloop.Sync[eventhandler.Key], opts ...workloop.Option[eventhandler.Key]) *replica {
	t.Helper()
	return newTimedReplica(t, client, id, testTimings, sync, opts...)
}

// newTimedReplica is newReplica with the lease timings of timings.
func newTimedReplica(t *testing.T, client *fake.Clientset, id string, timings workloop.LeaderElection, sync workloop.Sync[eventhandler.Key], opts ...workloop.Option[eventhandler.Key]) *replica {
	t.Helper()
	r := &replica{factory: informers.NewSharedInformerFactory(client, 0), done: make(chan error, 1)}
	cms := r.factory.Core().V1().ConfigMaps()
	lock := &resourcelock.LeaseLock{
		LeaseMeta:  metav1.ObjectMeta{Namespace: "kube-system", Name: "failover"},
		Client:     partitioned{client.CoordinationV1(), &r.fault},
		LockConfig: resourcelock.ResourceLockConfig{Identity: id},
	}
	timings.Lock = lock
	opts = append(opts, workloop.WithLeaderElection[eventhandler.Key](timings))
	c, err := workloop.New("failover", sync, []cache.DoneChecker{cms.Informer().HasSyncedChecker()}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cms.TypedInformer().AddTypedEventHandler(eventhandler.Enqueue[*corev1.ConfigMap](c.Enqueue)); err != nil {
		t.Fatal(err)
	}
	r.c = c
	return r
}

// partition cuts the replica's Lease calls off with f.
func (r *replica) partition(f fault) { r.fault.Store(&f) }

func (r *replica) start() {
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	r.factory.Start(ctx.Done())
	go func() {
		err := r.c.Run(ctx, 1)
		now := time.Now()
		r.returned.Store(&now)
		r.done <- err
	}()
}

// wait waits for Run to return, and stops the informers.
func (r *replica) wait(t *testing.T, what string) error {
	t.Helper()
	defer r.factory.Shutdown()
	select {
	case err := <-r.done:
		return err
	case <-time.After(30 * time.Second):
		t.Fatalf("%s: Run did not return within 30s", what)
		return nil
	}
}

func configMaps(names ...string) *fake.Clientset {
	client := fake.NewClientset()
	for _, name := range names {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name}}
		if _, err := client.CoreV1().ConfigMaps("ns").Create(context.Background(), cm, metav1.CreateOptions{}); err != nil {
			panic(err)
		}
	}
	return client
}

// TestFailoverCancelsOldLeader: two replicas, A leading with a sync in
// flight and another key queued. A is cut off from the API server, so its
// renewals fail and B takes the lease over. A's sync context must be
// cancelled before B starts that key, A must take no other key after the
// loss, no key may be synced by both at once, and A's Run must return
// ErrLeadershipLost promptly (before B acts), without waiting for a drain.
func TestFailoverCancelsOldLeader(t *testing.T) {
	failover(t, testTimings, refused, nil)
}

// TestFailoverDroppedRequests: the same, but A's Lease requests hang until
// their deadline instead of failing (a partition that drops packets), with
// a renew deadline over half the lease duration, as in client-go's
// defaults (15s, 10s, 2s). client-go's elector cancels the leading context
// only after it has tried to release the lease, and that release waits out
// another renew deadline on such a partition: A's syncs ran on until
// 2×RenewDeadline+RetryPeriod after its last renewal, past the lease
// duration, while B could already act (seen end to end: hack/e2e). The
// lease now ends by A's clock, and the release is not waited for.
func TestFailoverDroppedRequests(t *testing.T) {
	failover(t, workloop.LeaderElection{LeaseDuration: 3 * time.Second, RenewDeadline: 2 * time.Second, RetryPeriod: testRetryPeriod}, dropped, nil)
}

// TestFailoverStalledElector: A's Lease calls hang, whatever their
// context, until B has taken over, as if A's elector had stopped while its
// workers ran (a process stopped and resumed is the extreme case: hack/e2e).
// The elector never gives up meanwhile, so A's clock must end the lease:
// its sync's context is cancelled and it takes no other key before B may
// act. Its Run returns once the elector does.
func TestFailoverStalledElector(t *testing.T) {
	release := make(chan struct{})
	failover(t, testTimings, stalledUntil(release), release)
}

// failover: A leads with a sync of one key in flight, the other key
// queued, and B waits; then A's Lease calls meet f. B must take over and
// sync both keys; A's sync context must be cancelled, and its sync over,
// before B starts the key, A must take no other key, and (unless f stalls
// A's elector until stalled is closed, which is done once B has acted)
// A's Run must return ErrLeadershipLost before B acts.
func failover(t *testing.T, timings workloop.LeaderElection, f fault, stalled chan struct{}) {
	t.Helper()
	client := configMaps("one", "two")
	book := newLedger()
	entered := make(chan struct{})
	var enterOnce sync.Once
	release := make(chan struct{}) // only ends A's sync if the runtime never cancels it
	defer close(release)
	bSynced := make(chan eventhandler.Key, 10)

	a := newTimedReplica(t, client, "a", timings, func(ctx context.Context, key eventhandler.Key) error {
		book.start(ctx, "a", key)
		defer book.end(key)
		enterOnce.Do(func() { close(entered) })
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-release:
			return nil
		}
	})
	b := newTimedReplica(t, client, "b", timings, func(ctx context.Context, key eventhandler.Key) error {
		book.start(ctx, "b", key)
		defer book.end(key)
		bSynced <- key
		return nil
	})

	a.start()
	select {
	case <-entered:
	case <-time.After(30 * time.Second):
		t.Fatal("A never led")
	}
	b.start()
	defer func() {
		b.cancel()
		if err := b.wait(t, "B"); err != nil {
			t.Errorf("B's Run: %v", err)
		}
	}()

	cut := time.Now()
	a.partition(f)

	// B takes over and syncs both keys.
	seen := map[eventhandler.Key]bool{}
	for len(seen) < 2 {
		select {
		case key := <-bSynced:
			seen[key] = true
		case <-time.After(30 * time.Second):
			t.Fatalf("B synced only %v within 30s of A's partition", seen)
		}
	}
	bActed := time.Now()
	if stalled != nil {
		close(stalled)
	}

	var aReturned time.Time
	select {
	case err := <-a.done:
		aReturned = *a.returned.Load()
		if !errors.Is(err, workloop.ErrLeadershipLost) {
			t.Errorf("A's Run returned %v, want ErrLeadershipLost", err)
		}
	case <-time.After(5 * time.Second):
		t.Error("A's Run had not returned 5s after B took over")
	}
	a.cancel()
	a.factory.Shutdown()

	book.report(t)
	if got := book.started("a"); len(got) != 1 {
		t.Errorf("A started %v; it must take no key after losing the lease", got)
	}
	if !aReturned.IsZero() && stalled == nil {
		if aReturned.After(bActed) {
			t.Errorf("A's Run returned %v after the partition, after B had already acted (%v)", aReturned.Sub(cut), bActed.Sub(cut))
		}
		t.Logf("A's Run returned %v after its partition; B synced both keys %v after it",
			aReturned.Sub(cut).Round(time.Millisecond), bActed.Sub(cut).Round(time.Millisecond))
	}
}

// TestLeadershipLostSyncIgnoringContext: a sync that ignores its cancelled
// context does not keep Run from returning ErrLeadershipLost: Run waits for
// it no longer than another replica would need to take the lease over.
func TestLeadershipLostSyncIgnoringContext(t *testing.T) {
	client := configMaps("one")
	entered := make(chan struct{})
	release := make(chan struct{})
	sawCtx := make(chan error, 1)
	a := newReplica(t, client, "a", func(ctx context.Context, key eventhandler.Key) error {
		close(entered)
		<-release // ignores ctx
		sawCtx <- ctx.Err()
		return nil
	})
	a.start()
	select {
	case <-entered:
	case <-time.After(30 * time.Second):
		t.Fatal("A never led")
	}
	cut := time.Now()
	a.partition(refused)
	var err error
	select {
	case err = <-a.done:
	case <-time.After(30 * time.Second):
		t.Error("Run did not return within 30s of losing the lease while a sync ignored its context")
	}
	took := time.Since(cut)
	close(release)
	a.cancel()
	a.factory.Shutdown()
	if !errors.Is(err, workloop.ErrLeadershipLost) {
		t.Errorf("Run returned %v, want ErrLeadershipLost", err)
	}
	// Renewals fail for up to a retry period and RenewDeadline; then Run
	// waits at most what is left of LeaseDuration for the sync.
	if limit := testLeaseDuration + 5*time.Second; took > limit {
		t.Errorf("Run took %v to return after the partition, want under %v", took, limit)
	}
	t.Logf("Run returned %v after the partition", took.Round(time.Millisecond))
	select {
	case err := <-sawCtx:
		if err == nil {
			t.Error("the sync's context was not cancelled when the lease was lost")
		}
	case <-time.After(30 * time.Second):
		t.Error("the released sync never returned")
	}
}

// TestShutdownKeepsLeaseUntilDrained: a leader that is shut down keeps
// its lease while its in-flight sync drains, so the next leader does not
// act on the same key at the same time; then it releases the lease and the
// next leader takes over without waiting for it to expire.
func TestShutdownKeepsLeaseUntilDrained(t *testing.T) {
	client := configMaps("one")
	book := newLedger()
	entered := make(chan struct{})
	release := make(chan struct{})
	bSynced := make(chan eventhandler.Key, 10)
	a := newReplica(t, client, "a", func(ctx context.Context, key eventhandler.Key) error {
		book.start(ctx, "a", key)
		defer book.end(key)
		close(entered)
		<-release
		return nil
	})
	b := newReplica(t, client, "b", func(ctx context.Context, key eventhandler.Key) error {
		book.start(context.Background(), "b", key)
		defer book.end(key)
		bSynced <- key
		return nil
	})
	a.start()
	select {
	case <-entered:
	case <-time.After(30 * time.Second):
		close(release)
		t.Fatal("A never led")
	}
	b.start()
	defer func() {
		b.cancel()
		if err := b.wait(t, "B"); err != nil {
			t.Errorf("B's Run: %v", err)
		}
	}()
	a.cancel() // A shuts down gracefully, its sync still in flight

	select {
	case key := <-bSynced:
		t.Errorf("B synced %s while A was still draining it", key)
	case <-time.After(10 * testRetryPeriod):
	}
	close(release)
	if err := a.wait(t, "A"); err != nil {
		t.Errorf("A's Run returned %v after cancellation, want nil", err)
	}
	drained := time.Now()
	select {
	case <-bSynced:
		// The lease was released: B need not wait for it to expire.
		if took := time.Since(drained); took >= testLeaseDuration {
			t.Errorf("B took %v to take over: A did not release the lease", took)
		}
	case <-time.After(30 * time.Second):
		t.Error("B never took over")
	}
	book.report(t)
}
