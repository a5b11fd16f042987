package controller

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

// WithLeaderElection runs the workers only while leading. When leadership
// is lost, Run drains and returns ErrLeadershipLost: the process should
// exit, as a new leader may already be acting on the same objects.
func WithLeaderElection[K comparable](le LeaderElection) Option[K] {
	return func(o *options[K]) { o.leader = &le }
}

// ErrLeadershipLost is returned by Run when the lease was lost before ctx
// was cancelled.
var ErrLeadershipLost = errors.New("leader election lost")

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
	// OnStartedLeading runs in a goroutine of the elector's, and Run of the
	// elector does not wait for it: the workers' end is awaited here.
	var runErr error
	var mu sync.Mutex            // orders the callback against giving up
	stopped := false             // set when Run gave up before leading
	led := make(chan struct{})   // closed when leadership was acquired
	ended := make(chan struct{}) // closed when the workers are gone
	elector, err := leaderelection.NewLeaderElector(leaderelection.LeaderElectionConfig{
		Lock:            le.Lock,
		LeaseDuration:   le.LeaseDuration,
		RenewDeadline:   le.RenewDeadline,
		RetryPeriod:     le.RetryPeriod,
		ReleaseOnCancel: true,
		Name:            c.name,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(leading context.Context) {
				mu.Lock()
				if stopped {
					mu.Unlock()
					return // Run has already returned
				}
				close(led)
				mu.Unlock()
				defer close(ended)
				runErr = c.run(leading, workers)
			},
			OnStoppedLeading: func() {},
		},
	})
	if err != nil {
		return err
	}
	elector.Run(ctx) // returns when ctx is done or leadership is lost
	mu.Lock()
	select {
	case <-led:
		mu.Unlock()
		<-ended
	default:
		stopped = true
		mu.Unlock()
		c.queue.ShutDown() // never led: release the queue's goroutines
		return nil
	}
	if runErr != nil {
		return runErr
	}
	if ctx.Err() == nil {
		return ErrLeadershipLost
	}
	return nil
}
