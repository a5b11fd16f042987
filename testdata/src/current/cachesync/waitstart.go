package cachesync

import (
	"context"
	"time"

	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

// LeaderMain registers an OnStartedLeading callback that waits on the
// factory, runs the election, and starts the factory only after it: the
// shape of a main that moved leader election in front of its informer
// start-up (compare sample-controller's main and kube-controller-manager's
// Run, which start the factory before the controllers wait on it).
func LeaderMain(ctx context.Context, client kubernetes.Interface, lock resourcelock.Interface) {
	factory := informers.NewSharedInformerFactory(client, 0)
	c := NewController(factory.Apps().V1().Deployments())
	run := func(ctx context.Context) {
		factory.WaitForCacheSync(ctx.Done())
		c.Run(ctx, 2)
	}
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{ // want `the OnStartedLeading callback a func literal in LeaderMain waits for the informer factory \(WaitForCacheSync, line \d+\), and the leader election run here blocks before its Start \(line \d+\): the factory waits only for the informers it has started, none yet, so the wait returns at once and the listers are read empty; call Start before waiting`
		Lock:          lock,
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: run,
			OnStoppedLeading: func() {},
		},
	})
	factory.Start(ctx.Done())
}

// StartedLeaderMain starts the factory before the election: silent.
func StartedLeaderMain(ctx context.Context, client kubernetes.Interface, lock resourcelock.Interface) {
	factory := informers.NewSharedInformerFactory(client, 0)
	c := NewController(factory.Apps().V1().Deployments())
	factory.Start(ctx.Done())
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock:          lock,
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				factory.WaitForCacheSync(ctx.Done())
				c.Run(ctx, 2)
			},
			OnStoppedLeading: func() {},
		},
	})
}

// SwappedMain waits on the factory, then starts it.
func SwappedMain(ctx context.Context, client kubernetes.Interface) {
	factory := informers.NewSharedInformerFactory(client, 0)
	c := NewController(factory.Apps().V1().Deployments())
	factory.WaitForCacheSync(ctx.Done()) // want `WaitForCacheSync of the informer factory is called before its Start \(line \d+\): the factory waits only for the informers it has started`
	factory.Start(ctx.Done())
	c.Run(ctx, 2)
}

// ClosureMain calls a start-up closure that waits on the factory before
// the Start that follows it.
func ClosureMain(ctx context.Context, client kubernetes.Interface) {
	factory := informers.NewSharedInformerFactory(client, 0)
	c := NewController(factory.Apps().V1().Deployments())
	startControllers := func(ctx context.Context) {
		factory.WaitForCacheSync(ctx.Done())
		go c.Run(ctx, 2)
	}
	startControllers(ctx) // want `a func literal in ClosureMain waits for the informer factory \(WaitForCacheSync, line \d+\) before its Start \(line \d+\)`
	factory.Start(ctx.Done())
	<-ctx.Done()
}

// RaceMain starts the closure on a goroutine, then the factory: whether
// the wait comes first is a race the code does not show. Silent.
func RaceMain(ctx context.Context, client kubernetes.Interface) {
	factory := informers.NewSharedInformerFactory(client, 0)
	c := NewController(factory.Apps().V1().Deployments())
	go func() {
		factory.WaitForCacheSync(ctx.Done())
		c.Run(ctx, 2)
	}()
	factory.Start(ctx.Done())
	<-ctx.Done()
}

// SelfStartingLeader's callback starts the factory itself before waiting;
// the later Start is for informers requested afterwards. Silent.
func SelfStartingLeader(ctx context.Context, client kubernetes.Interface, lock resourcelock.Interface) {
	factory := informers.NewSharedInformerFactory(client, 0)
	c := NewController(factory.Apps().V1().Deployments())
	le, err := leaderelection.NewLeaderElector(leaderelection.LeaderElectionConfig{
		Lock:          lock,
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				factory.Start(ctx.Done())
				factory.WaitForCacheSync(ctx.Done())
				c.Run(ctx, 2)
			},
			OnStoppedLeading: func() {},
		},
	})
	if err != nil {
		return
	}
	le.Run(ctx)
	factory.Start(ctx.Done())
}

// GivenFactory waits on a factory it is given before starting it: the
// caller may have started it already. Silent.
func GivenFactory(ctx context.Context, factory informers.SharedInformerFactory) {
	factory.WaitForCacheSync(ctx.Done())
	factory.Start(ctx.Done())
}

// LeaderGC runs a node-object collection when it becomes leader, after a
// factory wait whose map it drops: the collection is reached through the
// OnStartedLeading callback (nfd-gc's pass, started from an election
// instead of a ticker).
func LeaderGC(ctx context.Context, client kubernetes.Interface, lock resourcelock.Interface) {
	factory := informers.NewSharedInformerFactory(client, 0)
	gc := &NodeObjectGC{client: client, factory: factory}
	factory.Core().V1().Nodes().Informer()
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{ // want `n.garbageCollect, reached through the OnStartedLeading callback a func literal in LeaderGC, deletes or updates what an informer cache read \(line \d+\) does not find, after a cache-sync wait whose result is ignored \(line \d+\)`
		Lock:          lock,
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(context.Context) { gc.garbageCollect() },
			OnStoppedLeading: func() {},
		},
	})
}

// CheckedLeaderGC returns unless every cache synced before the election.
// Silent.
func CheckedLeaderGC(ctx context.Context, client kubernetes.Interface, lock resourcelock.Interface) {
	factory := informers.NewSharedInformerFactory(client, 0)
	gc := &NodeObjectGC{client: client, factory: factory}
	factory.Core().V1().Nodes().Informer()
	factory.Start(ctx.Done())
	for _, ok := range factory.WaitForCacheSync(ctx.Done()) {
		if !ok {
			return
		}
	}
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock:          lock,
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(context.Context) { gc.garbageCollect() },
			OnStoppedLeading: func() {},
		},
	})
}
