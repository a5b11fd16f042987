// Package handlerblocking defines an Analyzer that reports API calls, sleeps,
// blocking channel sends and waits for locks held across I/O inside informer
// event handlers.
//
// # Analyzer handlerblocking
//
// handlerblocking: report API calls and waits inside informer event handlers
//
// A shared informer delivers events to each registered handler on one
// goroutine per handler: client-go's processorListener.run
// (k8s.io/client-go/tools/cache/shared_informer.go) takes notifications off
// the listener's buffer and calls OnAdd, OnUpdate or OnDelete, one at a
// time. While a handler waits, every later event for it waits too, and the
// buffer between the informer and the handler grows without bound: a
// handler that makes one API call per event falls behind at the API
// server's latency times the rate of events, and during the initial list
// (thousands of adds) the handler's HasSynced, and so the controller's
// WaitForCacheSync, waits for all of those calls. controller-runtime's
// handlers run on the same goroutine: source.Kind registers an
// EventHandler with the informer (pkg/internal/source/kind.go), whose
// OnAdd/OnUpdate/OnDelete call the predicates and then the handler's
// Create/Update/Delete (pkg/internal/source/event_handler.go, v0.25.2;
// the same in v0.18), so a map function of EnqueueRequestsFromMapFunc, a
// handler.Funcs function or a predicate that blocks stalls its source. (A
// handler given to a source.Channel runs on that source's goroutine
// instead, which it stalls the same way.)
//
// The idiom is that a handler only decides what to enqueue: it reads
// listers and indexers, and adds a key to a work queue; a worker makes the
// API calls, with retries and rate limiting.
//
// The analyzer finds the package's handlers: functions stored in
// client-go's handler structs (ResourceEventHandlerFuncs, the detailed and
// filtering kinds, typed or not), the OnAdd/OnUpdate/OnDelete methods of
// the package's types whose values are handed to an informer's
// AddEventHandler, and controller-runtime's handler.Funcs and
// predicate.Funcs functions, the map functions handed to
// EnqueueRequestsFromMapFunc, the filters handed to NewPredicateFuncs, and
// the Create, Update, Delete and Generic methods of the package's types
// used as a handler.EventHandler or a predicate.Predicate.
// It follows each into the package's functions it calls (directly, through
// method values, closures and func-typed fields, and through closures
// handed to retry.RetryOnConflict and wait's Poll helpers, which run them
// before returning), and reports, once, with the handler and the chain of
// calls that reaches it:
//
//   - an API call: a method of a typed clientset's resource client (the
//     methods returning an error: GetLogs and ProxyGet only build a
//     request), of the dynamic client's resource interface, a REST
//     request's Do, DoRaw, Stream, Watch or WatchList, a write through a
//     controller-runtime client (Create, Update, Patch, Delete,
//     DeleteAllOf, Apply, Status().Update...), a subresource Get (the cache
//     serves no subresource), and a Get or List through a reader that
//     bypasses the cache (GetAPIReader, client.New, or a field that one of
//     them is stored in);
//   - time.Sleep, wait's Poll* and ExponentialBackoff* helpers, and the
//     waits for informer caches: cache.WaitForCacheSync,
//     WaitForNamedCacheSync and its contextual form, WaitFor, an informer
//     factory's or controller-runtime cache's WaitForCacheSync (which can
//     wait for the informer that is waiting for the handler);
//   - a send, outside a select, on a channel that is provably unbuffered:
//     made by make(chan T) in the function, bound into the handler's
//     closure, or every value stored in the struct field it is read from;
//   - a Lock (or RLock) of a mutex, a struct field or package variable,
//     that another function of the package holds, with Lock, across an API
//     call of its own (Lock, then the call before the Unlock; a deferred
//     Unlock holds it to the end), when that function runs per event (a
//     worker, a Reconcile, a handler, a periodic pass: eventpath's
//     per-event path). This is reported once, at the API call, where the
//     fix goes, naming the handlers that wait (kubernetes v1.37.2's
//     devicetainteviction: the DeviceTaintRule status worker applies the
//     status holding the mutex every handler of the controller takes).
//
// # Wrong
//
//	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
//		UpdateFunc: func(old, cur any) {
//			pod := cur.(*v1.Pod)
//			// one GET per update, on the informer's delivery goroutine
//			node, err := c.client.CoreV1().Nodes().Get(context.TODO(), pod.Spec.NodeName, metav1.GetOptions{})
//			if err != nil {
//				return
//			}
//			c.enqueue(node)
//		},
//	})
//
// # Right
//
//	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
//		UpdateFunc: func(old, cur any) {
//			pod := cur.(*v1.Pod)
//			node, err := c.nodeLister.Get(pod.Spec.NodeName) // the cache
//			if err != nil {
//				return
//			}
//			c.enqueue(node)
//		},
//	})
//
// # Fix
//
// No fix is suggested: where the call belongs depends on the controller.
// Read through a lister where the handler only needs the object; move
// writes (an annotation, an event, a status) into the worker that
// processes the key the handler enqueues; replace a sleep with
// queue.AddAfter; send on a buffered channel in a select with a default,
// or use a work queue. If the work must happen right away and may block,
// start a goroutine for it (and mind how many).
//
// # Suppress
//
//	_, err := c.client.CoreV1().Events(ns).Create(ctx, ev, metav1.CreateOptions{}) //ctrllint:ignore handlerblocking events of this handler are rare (one per node)
//
// A reason is required; see docs/README.md for file-wide suppression.
//
// # Not reported
//
//   - enqueueing (workqueue Add, AddRateLimited, AddAfter) and reading
//     listers, indexers and informer stores;
//   - reads through controller-runtime's manager client (Get, List): they
//     are served from the cache;
//   - work started on a goroutine of its own (`go c.sync(key)`), and
//     functions handed to other code than the package's own and the
//     helpers above (time.AfterFunc runs its function later, elsewhere);
//   - `select { case ch <- x: default: }` and any send in a select; sends
//     on buffered channels (a queue its author sized, which blocks only
//     when full: whether it fills is a matter of rates the code does not
//     show), on channels whose making is not visible (parameters, results
//     of calls), and on a variable or field assigned more than one channel
//     (a closure that assigns it again included);
//   - a Lock of a mutex that no function of the package holds across an
//     API call of its own (a helper's call under the lock is not followed),
//     or only set-up code does (a List under the lock before the workers
//     start: the handlers wait once, if at all); a mutex local to a
//     function, and a Lock in the same function as the section (the API
//     call in it is reported itself). Mutexes are told apart by field, not
//     by the value holding them: two values of one type share a verdict;
//   - handlers whose functions come from another package, from a call's
//     result or an interface value; handler values whose type the
//     registration does not show (a parameter or field of interface type);
//     handler types defined in another package (prometheus-operator's
//     ResourceReconciler, registered by the packages that use it); generic
//     handler types;
//   - discovery calls (a discovery client may be a cached one, and whether
//     it is cannot be told from the type) and calls made inside helpers of
//     other packages;
//   - handlers, the functions they call and lock sections declared in
//     _test.go files: tests run handlers against fake clients, where
//     nothing waits for a server.
//
// A blocking call reached from several handlers is reported once, for the
// first handler (in source order) that reaches it.
package handlerblocking

import _ "embed"

// DocSource is this file: the single source of the analyzer's documentation.
//
//go:embed doc.go
var DocSource string
