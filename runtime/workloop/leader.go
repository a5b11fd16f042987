package workloop

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

// LeaderElection makes Run process keys only while this replica holds the
// lock, so two replicas never reconcile the same object at once.
type LeaderElection struct {
	Lock resourcelock.Interface
	// LeaseDuration is how long other replicas wait, from the last renewal
	// they saw, before taking the lease over (default 15s). A whole number
	// of seconds: the Lease records it in seconds (LeaseDurationSeconds),
	// and that is what other replicas wait, so New refuses a fraction.
	LeaseDuration time.Duration
	RenewDeadline time.Duration // default 10s
	RetryPeriod   time.Duration // default 2s
}

// WithLeaderElection runs the workers only while leading. When the lease
// is lost, the syncs' context is cancelled at once, no further key is
// taken, and Run returns ErrLeadershipLost as soon as the syncs have
// returned. A sync that ignores its context is waited for at most
// LeaseDuration-RenewDeadline-RetryPeriod from when the lease stopped
// counting as held (what is left before another replica can take it
// over), or the drain timeout if shorter. Exit the process then: a new
// leader may be acting on the same objects, and a sync left running would
// act alongside it.
//
// The lease stops counting as held RenewDeadline+RetryPeriod after the
// last successful renewal was sent (monotonic time): another replica,
// which waits LeaseDuration from when it saw that renewal, cannot have it
// yet. The runtime reads its own clock for this rather than waiting for
// client-go's elector, which may be late: when renewals hang (a partition
// that drops packets) it gives up only after trying to release the lease,
// a renew deadline more; in a process that was stopped (SIGSTOP, a
// debugger) or starved, its timers fire after the workers have resumed.
// So the clock is read before each key is taken, and whenever a sync asks
// its context for Err: a process resumed after its lease ran out takes no
// key, and a sync that checks ctx.Err() before each write writes nothing —
// do check it. What no leader election prevents is a write already on its
// way when the process stopped; make writes conditional (resourceVersion
// preconditions) where a stale one would matter.
//
// When ctx is cancelled instead, the lease is kept while in-flight syncs
// drain and released after, so the next leader starts at once but not
// while this one still acts.
func WithLeaderElection[K comparable](le LeaderElection) Option[K] {
	return func(o *options[K]) { o.leader = &le }
}

// check refuses what would break the guarantees above.
func (le *LeaderElection) check() error {
	// client-go's elector writes int(LeaseDuration/time.Second) into the
	// Lease, and other replicas wait that long: with a fraction they would
	// take over before the bounds computed from LeaseDuration ran out (and
	// with under a second, at once).
	if le.LeaseDuration%time.Second != 0 {
		return fmt.Errorf("LeaseDuration must be a whole number of seconds, got %v: "+
			"the Lease records it in seconds, and other replicas wait only that long", le.LeaseDuration)
	}
	return nil
}

// ErrLeadershipLost is returned by Run when the lease was lost before ctx
// was cancelled.
var ErrLeadershipLost = errors.New("leader election lost")

// errLeaseGone fails the lock's calls once the lease is lost: the elector
// then neither renews a lease this replica has given up nor waits on a
// partitioned API server to release it.
var errLeaseGone = errors.New("workloop: the lease was lost; no more calls on its lock")

// leaseState is what the worker loop knows of the lease it runs under.
type leaseState struct {
	ctx          context.Context // done when the lease is lost, by the elector or by the clock
	lose         context.CancelFunc
	abandonAfter time.Duration // how long Run waits for syncs after the loss
	lock         *clockedLock
}

// until is when the lease stops counting as held by the clock.
func (l *leaseState) until() time.Time { return l.lock.heldUntil() }

// held reports whether the lease still counts as held, reading the clock;
// when it does not, the lease is lost from then on.
func (l *leaseState) held() bool {
	if l.ctx.Err() != nil {
		return false
	}
	if time.Now().Before(l.until()) {
		return true
	}
	// From now on the lock refuses every call: the elector neither renews
	// a lease this replica has stopped acting under nor, on a partition,
	// waits out a renew deadline to release it (client-go cancels the
	// leading context only after that release).
	l.lock.lost()
	l.lose()
	return false
}

// watch loses the lease when the clock runs out on it without a renewal,
// however late the elector is. It returns once the lease is lost.
func (l *leaseState) watch() {
	timer := time.NewTimer(time.Until(l.until()))
	defer timer.Stop()
	for {
		select {
		case <-l.ctx.Done():
			return
		case <-timer.C:
		}
		if !l.held() {
			return
		}
		timer.Reset(time.Until(l.until()))
	}
}

// clockedLock is the elector's lock, timing this replica's renewals: each
// Create or Update naming this replica the holder that succeeds counts
// from when it was sent. Another replica takes over no sooner than a lease
// duration after it saw that record, which was written after the request
// was sent.
type clockedLock struct {
	resourcelock.Interface
	hold    time.Duration // how long a renewal counts: RenewDeadline+RetryPeriod
	mu      sync.Mutex
	renewed time.Time // when the last successful renewal was sent; zero before one
	gone    bool      // the lease was lost: every call fails
}

// heldUntil is when the lease stops counting as held: the zero time
// before any renewal, and never later once the lease is lost.
func (l *clockedLock) heldUntil() time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.renewed.IsZero() {
		return time.Time{}
	}
	return l.renewed.Add(l.hold)
}

func (l *clockedLock) lost() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.gone = true
}

func (l *clockedLock) call(ler *resourcelock.LeaderElectionRecord, f func() error) error {
	l.mu.Lock()
	gone := l.gone
	l.mu.Unlock()
	if gone {
		return errLeaseGone
	}
	sent := time.Now()
	if err := f(); err != nil {
		return err
	}
	if ler != nil && ler.HolderIdentity == l.Identity() {
		l.mu.Lock()
		if !l.gone && sent.After(l.renewed) {
			l.renewed = sent
		}
		l.mu.Unlock()
	}
	return nil
}

func (l *clockedLock) Get(ctx context.Context) (*resourcelock.LeaderElectionRecord, []byte, error) {
	var rec *resourcelock.LeaderElectionRecord
	var raw []byte
	err := l.call(nil, func() (err error) {
		rec, raw, err = l.Interface.Get(ctx)
		return err
	})
	return rec, raw, err
}

func (l *clockedLock) Create(ctx context.Context, ler resourcelock.LeaderElectionRecord) error {
	return l.call(&ler, func() error { return l.Interface.Create(ctx, ler) })
}

func (l *clockedLock) Update(ctx context.Context, ler resourcelock.LeaderElectionRecord) error {
	return l.call(&ler, func() error { return l.Interface.Update(ctx, ler) })
}

func (c *Controller[K]) runLeading(ctx context.Context, workers int) error {
	le := *c.opts.leader
	if le.LeaseDuration == 0 {
		le.LeaseDuration = 15 * time.Second
	}
	if le.RenewDeadline == 0 {
		le.RenewDeadline = 10 * time.Second
	}
	if le.RetryPeriod == 0 {
		le.RetryPeriod = 2 * time.Second
	}
	// The lease counts as held RenewDeadline+RetryPeriod after a renewal
	// was sent (the elector gives up no sooner); another replica may take it
	// a lease duration after. A sync that ignores its cancelled context is
	// not waited for beyond that.
	abandonAfter := max(le.LeaseDuration-le.RenewDeadline-le.RetryPeriod, 0)
	if d := c.opts.drainTimeout; d > 0 && d < abandonAfter {
		abandonAfter = d
	}
	lock := &clockedLock{Interface: le.Lock, hold: le.RenewDeadline + le.RetryPeriod}
	// The elector releases the lease as soon as its context ends. Given ctx,
	// it would do so while the syncs still drain, and the next leader would
	// act alongside them: it gets a context of its own, ended once the
	// workers are gone (or at once if this replica never led).
	electorCtx, stopElector := context.WithCancel(context.WithoutCancel(ctx))
	defer stopElector()

	// OnStartedLeading runs in a goroutine of the elector's, and Run of the
	// elector does not wait for it: the workers' end is awaited here.
	var runErr error
	var mu sync.Mutex            // orders the callback against giving up
	leading := false             // set when the callback started the workers
	stopped := false             // set when Run gave up before leading
	ended := make(chan struct{}) // closed when the workers are gone
	defer context.AfterFunc(ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		if !leading {
			stopElector() // not leading: nothing to drain
		}
	})()
	elector, err := leaderelection.NewLeaderElector(leaderelection.LeaderElectionConfig{
		Lock:            lock,
		LeaseDuration:   le.LeaseDuration,
		RenewDeadline:   le.RenewDeadline,
		RetryPeriod:     le.RetryPeriod,
		ReleaseOnCancel: true,
		Name:            c.name,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(lease context.Context) {
				mu.Lock()
				if stopped {
					mu.Unlock()
					return // Run has already returned
				}
				leading = true
				mu.Unlock()
				defer close(ended)
				defer stopElector() // drained: release the lease
				state := &leaseState{abandonAfter: abandonAfter, lock: lock}
				state.ctx, state.lose = context.WithCancel(lease)
				watched := make(chan struct{})
				go func() { defer close(watched); state.watch() }()
				defer func() { state.lose(); <-watched }()
				runErr = c.run(ctx, state, workers)
			},
			OnStoppedLeading: func() {},
		},
	})
	if err != nil {
		return err
	}
	elector.Run(electorCtx) // returns when the lease is lost or released
	mu.Lock()
	if !leading {
		stopped = true
		mu.Unlock()
		c.queue.ShutDown() // never led: release the queue's goroutines
		if ctx.Err() == nil {
			return ErrLeadershipLost // acquired and lost before the workers started
		}
		return nil
	}
	mu.Unlock()
	<-ended
	if runErr != nil {
		return runErr
	}
	if ctx.Err() == nil {
		return ErrLeadershipLost
	}
	return nil
}
