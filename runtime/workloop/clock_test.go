package workloop

import (
	"context"
	"errors"
	"testing"
	"time"

	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

// doneChecker is a cache that has synced.
type doneChecker struct{}

func (doneChecker) Name() string { return "synced" }
func (doneChecker) Done() <-chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}

// expiredLease is a lease whose last renewal was sent long ago: what a
// process stopped (SIGSTOP, a long pause) finds on resuming, before the
// elector, or any timer, has run.
func expiredLease() *leaseState {
	lock := &clockedLock{hold: time.Second, renewed: time.Now().Add(-time.Hour)}
	l := &leaseState{abandonAfter: time.Minute, lock: lock}
	l.ctx, l.lose = context.WithCancel(context.Background())
	return l
}

// TestExpiredLeaseTakesNoKey: run under a lease that ran out by the clock
// takes no key, though nothing has cancelled the lease (no watch, no
// elector: the goroutines that would have noticed have not run yet), and
// returns at once, the abandon time being over too.
func TestExpiredLeaseTakesNoKey(t *testing.T) {
	synced := false
	c, err := New("expired", func(context.Context, string) error {
		synced = true
		return nil
	}, []cache.DoneChecker{doneChecker{}})
	if err != nil {
		t.Fatal(err)
	}
	c.Enqueue("k")
	lease := expiredLease()
	done := make(chan error, 1)
	go func() { done <- c.run(context.Background(), lease, 1) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run did not return under an expired lease")
	}
	if synced {
		t.Error("a key was synced under a lease that had run out")
	}
	if lease.ctx.Err() == nil {
		t.Error("the lease was not lost")
	}
}

// TestClockedContextReadsTheClock: a sync's context reports the loss as
// soon as it is asked, once the lease has run out by the clock, before any
// timer has fired; and the lock refuses every call from then on, so the
// elector neither renews nor waits to release.
func TestClockedContextReadsTheClock(t *testing.T) {
	lease := expiredLease()
	syncCtx, cancelSyncs := context.WithCancel(context.Background())
	defer cancelSyncs()
	ctx := clockedContext{syncCtx, func() {
		if !lease.held() {
			cancelSyncs()
		}
	}}
	select {
	case <-ctx.Done():
		t.Fatal("the context was done before anyone asked it")
	default:
	}
	if err := ctx.Err(); !errors.Is(err, context.Canceled) {
		t.Fatalf("Err() = %v, want context.Canceled", err)
	}
	select {
	case <-ctx.Done():
	default:
		t.Error("Err() reported the loss but Done is not closed")
	}
	if err := lease.lock.Update(context.Background(), resourcelock.LeaderElectionRecord{}); !errors.Is(err, errLeaseGone) {
		t.Errorf("the lock's Update after the loss: %v, want errLeaseGone", err)
	}
	if _, _, err := lease.lock.Get(context.Background()); !errors.Is(err, errLeaseGone) {
		t.Errorf("the lock's Get after the loss: %v, want errLeaseGone", err)
	}

	// A lease renewed recently is held, and its context live.
	held := expiredLease()
	held.lock.renewed = time.Now()
	live := clockedContext{context.Background(), func() {
		if !held.held() {
			t.Error("a lease renewed just now counts as lost")
		}
	}}
	if err := live.Err(); err != nil {
		t.Errorf("Err() = %v under a held lease", err)
	}
}
