// Package cachesync defines an Analyzer that reports controller code that
// reads informer caches before they have synced: workers started before
// the wait, deletes and updates decided by what an unsynced lister does
// not return, waits on a factory before its Start, informers requested
// from a factory after its Start, and waits that leave out some of a
// controller's informers.
//
// # Analyzer cachesync
//
// cachesync: report cache reads before the informer caches have synced (workers started too early, deletions decided on unsynced listers, waits before Start) and informers requested after a factory's Start
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
// map, which for workers need not be checked); controller-runtime's cache
// WaitForCacheSync; a check of an informer's HasSynced, of an
// InformerSynced value or of a DoneChecker (a hand-written polling loop,
// a wait.PollUntil* whose condition checks it); another package's helper
// given HasSynced functions that returns a bool; and a package function
// that waits on every path that returns success (a return of a non-nil
// error or of false is a failure, which the caller checks).
//
// The second check is about code that is not a worker: start-up code,
// periodic passes (wait.Until, a ticker loop), garbage collectors. In each
// function that no other function of the package calls, it follows the
// calls and starts (go statements, wait.Until and the other launchers, the
// OnStartedLeading callback of a leader election the function runs) made
// before any cache-sync wait whose result is looked at, a few calls
// deep, to a write decided by what a cache read does not find: a Delete,
// DeleteCollection, Update, UpdateStatus, Patch or Apply of a typed,
// dynamic or metadata client (itself or in a package function, also one
// held in a func field) that only the "not there" branch of a test
// reaches — apierrors.IsNotFound of a lister Get's error or that error
// compared with nil, a store's exists, a comma-ok lookup in a map or the
// Has of a set filled from a List, len of a List equal to zero. A wait
// whose result is dropped (a cache.WaitForCacheSync bool, the map of a
// factory's WaitForCacheSync) does not count here: when it gives up (the
// stop channel closed, a timeout) the code after it runs on partial
// caches, and the message names it. node-feature-discovery's garbage
// collector and master deleted NodeFeatures and removed every node label
// that way. The same root as for workers decides who waits: a type or
// package that never mentions cache sync leaves it to its caller. Plain
// calls are followed only from start-up code (a root that waits, checks
// HasSynced or starts informers); from another root only what it starts.
//
// The third check is about a factory's WaitForCacheSync that a function
// reaches before that factory's Start, on a path: directly, in a closure
// or package function it calls first, or in the OnStartedLeading callback
// of a leader election it runs first (RunOrDie and LeaderElector.Run block
// while leading). The factory waits only for the informers it has
// started, none yet, so the wait returns at once and the listers are read
// empty. Only a factory the function makes, or a field or package variable
// no other function starts, is considered: another factory may have been
// started before.
//
// The fourth check is about informer factories (typed, dynamic, metadata,
// generated): Start runs only the informers requested before it. An
// informer requested afterwards — factory.Core().V1().Pods().Informer() or
// Lister(), InformerFor, ForResource, in the same function or in a package
// function called after Start with the factory or a handle from it, or a
// per-resource handle passed to another package's constructor after Start —
// is never run: its cache stays empty, its HasSynced never turns true and a
// wait for it blocks until shutdown.
//
// The fifth check is about a wait that covers only some of a controller's
// informers. In a method of a controller type, a cache.WaitForCacheSync
// (or WaitForNamedCacheSync, WithContext) whose sync checks are all fields
// of that type (c.podsSynced, c.podInformer.HasSynced,
// c.pods.Informer().HasSynced) is reported when the type has other such
// fields that the package sets and never waits for: a cache.InformerSynced
// field that is assigned and never read (kubernetes' EndpointSlice
// controller up to v1.17.11 kept nodesSynced and endpointSlicesSynced and
// waited for pods and services only), or an informer field that is read
// (its store, its lister) and whose HasSynced is never taken (kubevirt's
// evacuation controller before v1.2.0 read nodeInformer's store). The
// workers started after the wait read those caches while they fill.
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
//	factory.Start(stopCh)
//	factory.WaitForCacheSync(stopCh) // the map of results is dropped
//	go wait.Until(gc.collect, time.Minute, stopCh) // deletes what the node lister does not return
//
//	func (gc *GC) collect() {
//		nodes, _ := gc.nodeLister.List(labels.Everything())
//		names := sets.New[string]()
//		for _, n := range nodes {
//			names.Insert(n.Name)
//		}
//		for _, cm := range gc.nodeConfigMaps() {
//			if !names.Has(cm.Labels["node"]) {
//				gc.client.CoreV1().ConfigMaps(cm.Namespace).Delete(ctx, cm.Name, metav1.DeleteOptions{})
//			}
//		}
//	}
//
//	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{ // blocks while leading
//		Callbacks: leaderelection.LeaderCallbacks{
//			OnStartedLeading: func(ctx context.Context) {
//				factory.WaitForCacheSync(ctx.Done()) // nothing is started yet: returns at once
//				ctrl.Run(ctx)
//			},
//		},
//	})
//	factory.Start(ctx.Done())
//
//	c.nodesSynced = nodeInformer.Informer().HasSynced // set, and never waited for
//	...
//	if !cache.WaitForNamedCacheSync("endpoint_slice", stopCh, c.podsSynced, c.servicesSynced) {
//		return
//	}
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
//	factory.Start(stopCh)
//	for typ, ok := range factory.WaitForCacheSync(stopCh) {
//		if !ok {
//			return fmt.Errorf("cache for %v did not sync", typ)
//		}
//	}
//	go wait.Until(gc.collect, time.Minute, stopCh)
//
//	factory.Start(ctx.Done()) // before the election
//	leaderelection.RunOrDie(ctx, config)
//
// # Fix
//
// Keep each informer's HasSynced (podInformer.Informer().HasSynced) when
// the controller is built, and wait for all of them at the top of Run,
// returning when the wait fails (the context was cancelled). Build every
// controller, so that it requests its informers, before calling the
// factory's Start; a late informer needs another Start. There is no
// suggested fix: where the wait belongs, and which informers it names, is
// the controller's to say. Before a pass that deletes or updates what it
// does not find, wait the same way, and look at the result: return unless
// cache.WaitForCacheSync returned true, or unless every value of the
// factory's map is true. Call a factory's Start before anything waits on
// it: before the leader election, before the start-up closure that waits.
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
//     take no work-queue items, unless they delete or update what a cache
//     read does not find (the second check);
//   - reads before the caches have synced that decide no write on absence:
//     a cleaner that deletes the objects the lister does return (kubernetes'
//     CSR cleaner: an unsynced cache only delays a deletion), a look-up of
//     a listed object in a set of the controller's own, reads that only
//     log; a Create of what looks absent (it fails with AlreadyExists);
//     absence carried by a flag set in a loop (found = true) rather than a
//     lookup; event handlers (the informer callbacks the package
//     registers are not followed); a root that is no start-up code and
//     reads in its own goroutine (an exported sync method another
//     package's worker calls after its own wait);
//   - a wait whose result is looked at, even if a failure only logs and
//     goes on (kubernetes' garbage collector does it on purpose); for
//     workers, any wait, checked or not;
//   - a factory's WaitForCacheSync before a Start on another goroutine (go
//     run(ctx) before Start: a race the code does not settle), on a factory
//     the function is given or that another function also starts, or after
//     a Start of the same factory; cache.WaitForCacheSync on HasSynced
//     before Start (it blocks until Start rather than returning at once);
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
//   - for the fifth check, a package that also waits on a factory or a
//     cache (its WaitForCacheSync covers informers no field names), a wait
//     handed a slice built elsewhere (synced...), a wait with a check that
//     is not a field of the waiting type, and fields whose address is
//     taken or that are read anywhere in the package (a second wait, an
//     optional check): the analyzer does not decide which wait they meet;
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
