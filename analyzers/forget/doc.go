// Package forget defines an Analyzer that reports rate-limited work-queue
// keys that a worker neither forgets nor re-queues.
//
// # Analyzer forget
//
// forget: report rate-limited work-queue keys that are neither forgotten nor re-queued, and workers that retry a deleted object's key without end
//
// A rate-limiting work queue remembers every key that went through
// AddRateLimited, counting its failures to compute the next backoff, until
// Forget(key) is called. A worker that returns after a successful sync, or
// after giving up on retries, without calling Forget leaves that entry
// behind: one rate-limiter entry leaks per key for the life of the process,
// and the next time the key fails it starts from the backoff of its old
// failures (up to the limiter's maximum, 1000 seconds by default) instead of
// a few milliseconds.
//
// For every Get() on a rate-limiting queue (client-go's
// TypedRateLimitingInterface, the deprecated RateLimitingInterface, and
// controller-runtime's priority queue) whose key is handed to AddRateLimited
// on some path, the analyzer follows the key along every path from the Get
// (past the shutdown check) to the end of the item's processing: a return,
// or the loop back to the next Get. It follows the key into the package's
// helpers (processNextWorkItem, syncHandler, handleErr, closures) through
// calls, method values and captured variables, through conversions and type
// assertions. A path on which the key meets none of Forget, AddRateLimited,
// AddAfter or Add is reported at its return — inside the helper when the
// helper is where the path ends — or at the Get when it loops back.
//
// Helpers in other packages of the module (a shared handleErr or
// retryOrForget, a queue wrapper's method) are followed through their
// summaries: whether they settle the key on every path, on some, or never.
// A path through a helper of another package that returns without
// settling the key, when the worker settles it nowhere else, is reported at
// the call, naming the helper and the line where it returns. Packages of
// other modules are not analysed.
//
// The analyzer also reports a worker that retries without end: it
// re-queues the key with AddRateLimited on every error, never asks
// NumRequeues when to give up (so it never forgets a failing key), and the
// sync it hands the key to returns the NotFound error of its read of the
// very object the key names (a lister's or a typed client's Get by the
// key's name) without looking at it. Once that object is deleted, the key
// fails the same way every time: it is re-queued at the limiter's maximum
// backoff for the life of the process, its rate-limiter entry is never
// released, and every retry logs an error. It follows the key into the
// package's helpers, through cache.SplitMetaNamespaceKey and the fields of
// a cache.ObjectName, and into a sync stored in a func-typed field
// (c.syncHandler = c.syncFoo); the report is at the AddRateLimited.
//
// # Wrong
//
//	func (c *Controller) processNextWorkItem(ctx context.Context) bool {
//		key, quit := c.queue.Get()
//		if quit {
//			return false
//		}
//		defer c.queue.Done(key)
//		if err := c.sync(ctx, key); err != nil {
//			if c.queue.NumRequeues(key) < maxRetries {
//				c.queue.AddRateLimited(key)
//				return true
//			}
//			utilruntime.HandleError(err)
//			return true // gave up: the key is never forgotten
//		}
//		return true // success: the key is never forgotten
//	}
//
//	func (c *Controller) syncHandler(ctx context.Context, ref cache.ObjectName) error {
//		foo, err := c.foosLister.Foos(ref.Namespace).Get(ref.Name)
//		if err != nil {
//			return err // a deleted Foo's key is retried forever
//		}
//		...
//	}
//
// # Right
//
//	func (c *Controller) processNextWorkItem(ctx context.Context) bool {
//		key, quit := c.queue.Get()
//		if quit {
//			return false
//		}
//		defer c.queue.Done(key)
//		err := c.sync(ctx, key)
//		switch {
//		case err == nil:
//			c.queue.Forget(key)
//		case c.queue.NumRequeues(key) < maxRetries:
//			c.queue.AddRateLimited(key)
//		default:
//			utilruntime.HandleError(err)
//			c.queue.Forget(key)
//		}
//		return true
//	}
//
//	func (c *Controller) syncHandler(ctx context.Context, ref cache.ObjectName) error {
//		foo, err := c.foosLister.Foos(ref.Namespace).Get(ref.Name)
//		if apierrors.IsNotFound(err) {
//			return nil // deleted: nothing left to do
//		}
//		if err != nil {
//			return err
//		}
//		...
//	}
//
// # Fix
//
// Call Forget(key) on every path that stops retrying: after a successful
// sync and when giving up. A `defer c.queue.Forget(key)` is not the same
// thing (it also erases the history of a key just re-queued with
// AddRateLimited, so its backoff never grows), but it is not a leak and is
// not reported.
//
// For a worker that retries without end, treat a NotFound of the object
// the key names as done in the sync (return nil, as sample-controller's
// syncHandler does), and give up on a key that keeps failing: re-queue it
// only while queue.NumRequeues(key) is below a limit, then report the
// error and Forget the key (kubernetes' handleErr).
//
// `ctrllint -fix` inserts `queue.Forget(key)` before a leaking return
// statement, spelled as the function already spells the queue and the key.
// Where another path that re-queues the key reaches the same return (the
// outcomes of a switch meeting at one `return true`), the finding has no
// fix: a Forget there would also erase the backoff AddRateLimited asked
// for. Give the leaking path its own Forget.
//
// # Suppress
//
//	return true //ctrllint:ignore forget the limiter is rebuilt on every leader election
//
// A reason is required; see docs/README.md for file-wide suppression.
//
// # Not reported
//
//   - queues that are not rate-limiting (TypedInterface, TypedDelayingInterface),
//     and rate-limiting queues whose keys never go through AddRateLimited
//     (only AddAfter or Add): the limiter holds nothing for them;
//   - the sample-controller and kubernetes handleErr shapes, and any path
//     that re-queues the key (Add, AddAfter, AddRateLimited);
//   - keys forgotten in a deferred call;
//   - controller-runtime reconcilers: the framework's worker forgets for them;
//   - the shutdown branch after Get, and paths that end in a panic;
//   - keys handed, together with the queue, to code the analyzer cannot see
//     (another module's package, an interface method, a func value), which
//     may forget them, and keys handed over to other code (sent on a
//     channel, stored in a map or a structure, alone or packed in a value,
//     or returned);
//   - a helper of another package of the module that settles the key on
//     some paths only, when the worker also settles it itself on some path
//     (`if err == nil { queue.Forget(key) }` after a helper that re-queues
//     failures): which of the helper's paths the worker completes is not
//     followed;
//   - a helper that settles the key on some of its paths when its caller
//     settles it afterwards (a sync that re-queues with AddAfter on one
//     branch, and a caller that forgets on success);
//   - the fall-through of a switch whose cases cover every value the switched
//     expression can take (a helper that only returns forgetItem or
//     requeueItem, or every constant of a package-defined type);
//   - a key whose comma-ok type assertion fails, or that
//     cache.SplitMetaNamespaceKey or cache.ParseObjectName rejects: a
//     malformed key fails the same way every time, before the code could
//     rate-limit it, so it has no limiter entry to forget;
//   - queues built with a rate limiter of the package whose Forget does
//     nothing (a fixed-interval limiter keeps no per-key state), also when
//     a wrapper of the package that embeds such a queue and keeps its
//     Forget is stored instead (a test's spy queue recording Add calls).
//   - workers that re-queue every error with AddRateLimited when the sync
//     treats a NotFound of its object as done (sample-controller, most of
//     kubernetes' pkg/controller): the errors left can heal; workers that
//     ask NumRequeues; a NotFound examined anywhere on its way back to the
//     re-queue (apierrors.IsNotFound, errors.Is or As, a type switch, a
//     package helper that may look at it, an interface method); the
//     NotFound of another object than the one the key names (read after
//     it: it may appear); reads through controller-runtime's client (its
//     reconcilers are not workers) and syncs the analyzer cannot see (an
//     interface method, another package).
//
// When nothing forgets the key anywhere, the finding is one, at the Get,
// listing the lines where its paths end.
package forget

import _ "embed"

// DocSource is this file: the single source of the analyzer's documentation.
//
//go:embed doc.go
var DocSource string
