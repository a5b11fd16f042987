// Package tombstone defines an Analyzer that reports informer delete handlers
// that panic on, or silently drop, cache.DeletedFinalStateUnknown tombstones.
//
// # Analyzer tombstone
//
// tombstone: report delete handlers that panic on or drop cache.DeletedFinalStateUnknown tombstones
//
// An informer's delete handler does not always receive the deleted object.
// When the watch connection drops and the deletion happens during the gap,
// the informer learns of it only at the next re-list, and hands the handler
// a cache.DeletedFinalStateUnknown tombstone carrying the last known state.
// A handler that asserts the object's type panics on it, and client-go's
// default (utilruntime.ReallyCrash) turns that panic into a crash of the
// whole controller; after the restart the object is simply gone from the
// fresh list, so the deletion is missed anyway. A handler that bails out
// when the assertion fails drops the deletion quietly: owned objects are
// never cleaned up, expectations are never lowered and the controller waits
// forever for a deletion it already missed. It happens rarely, which is why
// it survives testing and bites in production, under API server restarts
// and network partitions.
//
// The analyzer finds the functions that receive deleted objects: the
// DeleteFunc of ResourceEventHandlerFuncs and ResourceEventHandlerDetailedFuncs,
// the FilterFunc of FilteringResourceEventHandler (it sees deletions too),
// the OnDelete method of the package's own handler types, and the package
// functions these pass the object to (through direct calls, method values
// and func values). It follows the object along every path and reports:
//
//   - an unchecked type assertion of the object to anything but the tombstone;
//   - a comma-ok assertion whose failure path never considers
//     DeletedFinalStateUnknown, and a type switch with no case for it, also
//     when that path hands the object to a library function that only
//     describes it: the loggers of klog, logr, zap and log/slog, fmt's
//     print, format and error functions, log's print functions,
//     utilruntime.HandleError, reflect.TypeOf and prometheus metrics, none
//     of which can unwrap a tombstone;
//   - cache.MetaNamespaceKeyFunc, cache.ObjectToName and meta.Accessor on the
//     object, which return an error for a tombstone;
//   - an assertion to *cache.DeletedFinalStateUnknown, which never succeeds;
//   - with the typed handlers of client-go v0.37, a dereference of
//     DeletedObject[T].OptionalObj without a nil check (it is nil when the
//     informer saw the deletion without any copy of the object), and of the
//     argument of a TypedFilteringResourceEventHandler's FilterFunc, which
//     receives that same OptionalObj.
//
// The object is followed across the packages of the module being analysed
// (in dependency order, as analysis facts), two ways:
//
//   - a helper of another package of the module that the handler hands the
//     object to (`util.PodFromObj(obj)`, `c.metrics.RecordDelete(obj)`) is
//     summarised: what it does to a tombstone in each interface{} parameter
//     — unwraps it, hands it to code that may, asserts it unchecked and
//     panics, drops it (a failing comma-ok assertion, a type switch, a key
//     function that fails), or only logs it. A helper that panics or drops
//     is reported at the handler's call, naming the helper and where it
//     asserts; the drop only when the handler does not deal with the
//     tombstone itself after the call, and the drop loses work (a helper
//     that only adds the object's key to a queue it is given may lose
//     nothing: see `# Not reported`). A helper that only logs or formats
//     the object leaves it as it was, so what the handler does with the
//     object next is still checked;
//   - a watcher package of the module that registers the DeleteFunc itself
//     and hands its object, tombstone and all, to a method of an interface
//     of the module (`h.OnDelete(obj)`) makes every method implementing
//     that interface method, in the packages importing the watcher, a
//     delete handler, whatever its name. A watcher that unwraps the
//     tombstone before the call makes none.
//
// When one function is both the AddFunc (or UpdateFunc) and the DeleteFunc,
// the finding is at the failing call or assertion, and its message names
// both roles.
//
// # Wrong
//
//	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
//		DeleteFunc: func(obj interface{}) {
//			pod := obj.(*v1.Pod) // panics on a tombstone
//			c.enqueue(pod)
//		},
//	})
//
//	func (c *Controller) enqueue(obj interface{}) { // AddFunc and DeleteFunc
//		key, err := cache.MetaNamespaceKeyFunc(obj) // error on a tombstone
//		...
//	}
//
//	DeleteFunc: func(d cache.DeletedObject[*v1.Pod]) {
//		c.queue.Add(d.OptionalObj.Namespace + "/" + d.OptionalObj.Name) // nil
//	},
//
//	pod, ok := obj.(*v1.Pod)
//	if !ok { // a tombstone is logged, and the deletion dropped
//		logger.Error("unexpected object", zap.Any("object", obj))
//		return
//	}
//
//	// package podutil, in the same module
//	func PodFromObj(obj interface{}) *v1.Pod { return obj.(*v1.Pod) }
//
//	DeleteFunc: func(obj interface{}) {
//		pod := podutil.PodFromObj(obj) // PodFromObj panics on a tombstone
//		...
//	},
//
//	// package watcher, in the same module: each handler gets the object as is
//	DeleteFunc: func(obj interface{}) { for _, h := range w.handlers { h.OnDelete(obj) } },
//
//	func (c *Controller) OnDelete(obj interface{}) { // implements watcher.Handler
//		pod := obj.(*v1.Pod) // panics on a tombstone
//		...
//	}
//
// # Right
//
//	DeleteFunc: func(obj interface{}) {
//		pod, ok := obj.(*v1.Pod)
//		if !ok {
//			tombstone, ok := obj.(cache.DeletedFinalStateUnknown)
//			if !ok {
//				utilruntime.HandleError(fmt.Errorf("unexpected object %T", obj))
//				return
//			}
//			if pod, ok = tombstone.Obj.(*v1.Pod); !ok {
//				utilruntime.HandleError(fmt.Errorf("tombstone holds %T", tombstone.Obj))
//				return
//			}
//		}
//		c.enqueue(pod)
//	},
//
//	key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
//
//	DeleteFunc: func(d cache.DeletedObject[*v1.Pod]) {
//		c.queue.Add(d.GetKey()) // works with and without the object
//	},
//
// # Fix
//
// Unwrap the tombstone before asserting: check for
// cache.DeletedFinalStateUnknown and continue with its Obj, as in the right
// shape above, or use a type switch with a case for it. Replace
// cache.MetaNamespaceKeyFunc and cache.ObjectToName by
// cache.DeletionHandlingMetaNamespaceKeyFunc and
// cache.DeletionHandlingObjectToName; with typed handlers use
// DeletedObject.GetKey or GetObjectName, or check OptionalObj for nil.
//
// `ctrllint -fix` applies two of these mechanically: the deletion-handling
// key functions, and, before a comma-ok assertion, an unchecked assertion or
// a type switch on a local interface{} variable, the block
//
//	if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
//		obj = tombstone.Obj
//	}
//
// # Suppress
//
// A handler that is registered only on an informer that never delivers
// tombstones is rare; say why on the line of the finding, or the line above:
//
//	pod := obj.(*v1.Pod) //ctrllint:ignore tombstone this fake informer never re-lists
//
// or for a whole file:
//
//	//ctrllint:file-ignore tombstone generated test doubles
//
// The reason is required, and a directive that suppresses nothing is
// reported.
//
// # Not reported
//
//   - add and update handlers, which always receive the live object;
//   - type switches with a DeletedFinalStateUnknown case, and comma-ok
//     assertions whose failure path unwraps the tombstone, calls a
//     deletion-handling key function or passes the object to code the
//     analyzer cannot see (a package of another module, an interface
//     method, a func stored in a field), or to a helper of the module that
//     unwraps it or hands it to such code; a helper that logs the object
//     and also hands it on is such code, whatever its name;
//   - a helper of another package of the module that fails on a tombstone,
//     when the handler deals with the tombstone after the call (`key, err
//     := util.KeyOf(obj); if err != nil { ...
//     obj.(cache.DeletedFinalStateUnknown) ... }`); helpers reached through
//     an interface, a func value or a method of an unexported type;
//   - the implementations of a watcher package's interface when the
//     watcher unwraps the tombstone before calling them, or calls them
//     only from add and update handlers; a watcher whose DeleteFunc is a
//     func the controller hands it (a handler factory) or that queues the
//     object for a worker of its own is not followed;
//   - an explicit tombstone check that returns or reassigns the object before
//     the assertion, and an assertion after the object went through a
//     package helper that checks for tombstones (`if isTombstone(obj)
//     { return }`) or through code the analyzer cannot see;
//   - what follows a package predicate that gives one fixed answer for a
//     tombstone, on the branch of the other answer (`if !c.canProcess(obj)
//     { return }`, where canProcess returns false when its assertion
//     fails): no tombstone gets there, and the drop is reported once, at
//     the predicate's assertion;
//   - a FilterFunc that filters tombstones out when the handler it guards
//     has no DeleteFunc (nothing is lost); its panics are still reported;
//   - DeletionHandlingMetaNamespaceKeyFunc, DeletionHandlingObjectToName,
//     DeletedObject.GetKey, GetObjectName, GetName and GetNamespace;
//   - OptionalObj after a nil check, or after FinalStateUnknown was found nil;
//   - a tombstone unwrapped only when it carries an object (`if t, ok :=
//     obj.(cache.DeletedFinalStateUnknown); ok && t.Obj != nil { obj = t.Obj
//     }`): one without its object has nothing left to handle;
//   - controller-runtime event handlers (handler.Funcs and friends): their
//     event.DeleteEvent carries the object and a DeleteStateUnknown flag;
//     client-go handlers registered on a controller-runtime informer are
//     checked;
//   - a deletion dropped by a handler that does nothing else than add the
//     object's own key to a work queue held in a field, when every worker
//     of that queue hands the key only to queue calls, logging and syncs
//     that first read the key's object of the same kind from a lister and,
//     on NotFound, return a nil error doing nothing but logging (kubernetes'
//     expand controller): for such a controller a deletion has no work to
//     do. Anything else on that path (cleanup on NotFound, state written by
//     the handler or before the read, an error the worker acts on, a key
//     handed to a closure or an interface) keeps the finding. The
//     chain may cross packages of the module, as in argo-rollouts'
//     controllers: the handler may hand the object to an enqueue helper
//     that does nothing else than add its key to the queue it is given
//     (`controllerutil.Enqueue(obj, cfg.Queue)`, whose key function drops
//     the tombstone), the queue may be held in a field assigned from that
//     one (`&Controller{queue: cfg.Queue}`), and the worker may be a loop
//     that hands each key it takes from the queue it is given only to the
//     sync it is given (`controllerutil.RunWorker(ctx, c.queue, kind,
//     c.syncService)`). The kind a sync must read is then the one the
//     informer's type says (`servicesInformer.Informer().AddEventHandler`);
//     for an untyped informer held in a field (a dynamic informer,
//     `c.ruleInformer.AddEventHandler`) the sync must read through a
//     dynamic lister built on that informer's indexer
//     (`dynamiclister.New(cfg.RuleInformer.GetIndexer(), gvr)`);
//   - handlers built by a function call (a handler factory) or stored in a
//     struct field: which function they hold is not followed.
//
// # Known limitations
//
// Whether a dropped deletion loses work is decided by following the key to
// the syncs of the handler's package only: a worker loop of another package
// is followed when it is handed a sync of the package, but a sync of
// another package or one reached through an interface is not, nor one that
// reads the object through a controller-runtime client, a store's GetByKey
// or a wrapper of the module rather than a lister, nor a handler on an
// informer that neither its type nor a field names, unless the handler
// asserts the object's type itself (argo-rollouts' ingress controller,
// registered on `cfg.IngressWrap.Informer()` and reading through its
// IngressWrapper interface): the drop is reported; suppress it with the
// reason when the sync ignores missing objects.
//
// Only the packages of the modules being analysed are followed: a helper or
// watcher of a dependency of another module is code the analyzer cannot
// see, which may unwrap the tombstone.
package tombstone

import _ "embed"

// DocSource is this file: the single source of the analyzer's documentation.
//
//go:embed doc.go
var DocSource string
