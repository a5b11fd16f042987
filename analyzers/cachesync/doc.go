// Package cachesync defines an Analyzer that reports controller workers
// started before the informer caches they read have synced, and informers
// requested from a factory after its Start.
//
// # Analyzer cachesync
//
// cachesync: report workers started before their informer caches have synced, and informers requested after a factory's Start
//
// An informer's cache starts empty: it fills from a List of the API server
// and only then follows the watch. A worker that runs before that reads
// listers that are still filling. To it, objects that exist look deleted:
// a ReplicaSet controller creates Pods that already exist, a garbage
// collector deletes children whose owner it cannot find yet, a status
// controller writes counts of zero. Every controller built on client-go
// waits for its informers' HasSynced (cache.WaitForCacheSync and its
// variants) before it starts its workers, and returns if the wait fails;
// controller-runtime's manager does it for its controllers.
//
// The analyzer looks at each function of the package that no other
// function of the package calls (a controller's Run, a main) and reports
// the worker starts that a path from its entry reaches without passing a
// cache-sync wait. A worker start is a go statement, a call of
// apimachinery's wait.Until, UntilWithContext, NonSlidingUntil*,
// JitterUntil*, BackoffUntil* or Forever, of wait.Group's Start*, of
// sync.WaitGroup's Go or of errgroup's Go, whose function is a worker loop:
// it takes items from a client-go work queue (Get), itself or through the
// package's functions, method values and closures (also a closure a
// package function returns), and what it runs reads a lister, informer or
// informer factory. Starts in package helpers (startWorkers, a go func()
// wrapping wait.Until, a Run started by another function) count where the
// helper is called or started.
//
// Waits are cache.WaitForCacheSync, WaitForNamedCacheSync,
// WaitForNamedCacheSyncWithContext and WaitFor; the factories'
// WaitForCacheSync (typed, dynamic, metadata and generated; they return a
// map, which need not be checked); controller-runtime's cache
// WaitForCacheSync; a check of an informer's HasSynced, of an
// InformerSynced value or of a DoneChecker (a hand-written polling loop,
// a wait.PollUntil* whose condition checks it); another package's helper
// given HasSynced functions that returns a bool; and a package function
// that waits on every path that returns success (a return of a non-nil
// error or of false is a failure, which the caller checks).
//
// The second check is about informer factories (typed, dynamic, metadata,
// generated): Start runs only the informers requested before it. An
// informer requested afterwards — factory.Core().V1().Pods().Informer() or
// Lister(), InformerFor, ForResource, in the same function or in a package
// function called after Start with the factory or a handle from it, or a
// per-resource handle passed to another package's constructor after Start —
// is never run: its cache stays empty, its HasSynced never turns true and a
// wait for it blocks until shutdown.
//
// # Wrong
//
//	func (c *Controller) Run(ctx context.Context, workers int) {
//		defer c.queue.ShutDown()
//		for range workers {
//			go wait.UntilWithContext(ctx, c.runWorker, time.Second) // reads c.podLister
//		}
//		<-ctx.Done()
//	}
//
//	factory.Start(ctx.Done())
//	ctrl := NewController(client, factory.Core().V1().Pods()) // its informer is requested now
//
// # Right
//
//	func (c *Controller) Run(ctx context.Context, workers int) {
//		defer c.queue.ShutDown()
//		if !cache.WaitForNamedCacheSyncWithContext(ctx, c.podsSynced) {
//			return
//		}
//		for range workers {
//			go wait.UntilWithContext(ctx, c.runWorker, time.Second)
//		}
//		<-ctx.Done()
//	}
//
//	ctrl := NewController(client, factory.Core().V1().Pods())
//	factory.Start(ctx.Done())
//
// # Fix
//
// Keep each informer's HasSynced (podInformer.Informer().HasSynced) when
// the controller is built, and wait for all of them at the top of Run,
// returning when the wait fails (the context was cancelled). Build every
// controller, so that it requests its informers, before calling the
// factory's Start; a late informer needs another Start. There is no
// suggested fix: where the wait belongs, and which informers it names, is
// the controller's to say.
//
// # Suppress
//
//	go wait.Until(c.worker, time.Second, stopCh) //ctrllint:ignore cachesync the worker only reads the API server
//
// A reason is required; see docs/README.md for file-wide suppression.
//
// # Not reported
//
//   - goroutines that are not worker loops: event broadcasters, metrics and
//     health servers, informer.Run, factory.Start, and periodic loops that
//     take no work-queue items (a lister-scanning cleanup every minute);
//   - workers that read no informer cache (a queue drained into API calls),
//     or only stores the package builds itself (cache.NewStore);
//   - starts in functions the package calls itself, when the caller waits
//     first; workers that wait for, or check, the caches themselves before
//     their Get;
//   - a wait that fails and is followed by starting workers anyway: the wait
//     still counts (kubernetes' garbage collector proceeds on purpose when
//     its initial sync times out, and a worker started on a closed stop
//     channel does not run);
//   - a Run that never waits, of a controller type that keeps no HasSynced
//     (no cache.InformerSynced or DoneChecker field) and whose methods and
//     constructors never wait, check HasSynced or start informers, or of a
//     type that offers its caller an exported wait method (WaitForCacheSync
//     next to Run); for functions that are not methods, of a package that
//     does none of these: the caller (a main that waits on the factory
//     before it runs the controllers, as kyverno's and
//     external-provisioner's do) is out of sight, so the analyzer assumes
//     it waits;
//   - controller-runtime reconcilers: the manager syncs caches first;
//   - an informer requested after Start that may have been created before
//     it: the same factory's informer or handle for that resource is asked
//     for before Start, or elsewhere in the package for a factory the
//     function is given or keeps in a field, or the factory was handed to
//     another package's code or stored before Start; and a late informer
//     after which Start is called again (kube-controller-manager's late
//     informers) or which is run directly (go informer.Run);
//   - test files: tests start controllers on fake informers on purpose.
package cachesync

import _ "embed"

// DocSource is this file: the single source of the analyzer's documentation.
//
//go:embed doc.go
var DocSource string
