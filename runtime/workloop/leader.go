package workloop

import (
	"context"
	"errors"
	"sync"
	"time"

	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

// LeaderElection makes Run process keys only while this replica holds the
// lock, so two replicas never reconcile the same object at once.
type LeaderElection struct {
	Lock          resourcelock.Interface
	LeaseDuration time.Duration // default 15s
	RenewDeadline time.Duration // default 10s
	RetryPeriod   time.Duration // default 2s
}

// WithLeaderElection runs the workers only while leading. When the lease
// is lost, the syncs' context is cancelled at once, no further key is
// taken, and Run returns ErrLeadershipLost as soon as the syncs have
// returned. A sync that ignores its context is waited for at most
// LeaseDuration-RenewDeadline-RetryPeriod (what is left before another
// replica can take the lease over) or the drain timeout, whichever is
// shorter. Exit the process then: a new leader may be acting on the same
// objects, and a sync left running would act alongside it.
//
// When ctx is cancelled instead, the lease is kept while in-flight syncs
// drain and released after, so the next leader starts at once but not
// while this one still acts.
func WithLeaderElection[K comparable](le LeaderElection) Option[K] {
	return func(o *options[K]) { o.leader = &le }
}

// ErrLeadershipLost is returned by Run when the lease was lost before ctx
// was cancelled.
var ErrLeadershipLost = errors.New("leader election lost")

// leaseState is what the worker loop knows of the lease it runs under.
type leaseState struct {
	ctx          context.Context // done when the lease is lost
	abandonAfter time.Duration   // how long Run waits for syncs after the loss
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
	// The elector gives up at most a retry period and the renew deadline
	// after its last renewal; another replica may take the lease the lease
	// duration after it. A sync that ignores its cancelled context is not
	// waited for beyond that.
	abandonAfter := max(le.LeaseDuration-le.RenewDeadline-le.RetryPeriod, 0)
	if d := c.opts.drainTimeout; d > 0 && d < abandonAfter {
		abandonAfter = d
	}
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
		Lock:            le.Lock,
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
				runErr = c.run(ctx, &leaseState{ctx: lease, abandonAfter: abandonAfter}, workers)
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
