// Package queuedone defines an Analyzer that reports work-queue keys taken
// with Get() and never marked Done().
//
// # Analyzer queuedone
//
// queuedone: report work-queue keys taken with Get() that are not marked Done() on some path
//
// A work queue hands a key to one worker at a time: Get() moves the key into
// the processing set, and only Done(key) takes it out. Until then, every
// Add of the same key is parked as dirty and never handed out. A worker that
// returns early after Get() without calling Done() (a failed type
// assertion, an early error return) makes that object unreconcilable for the
// life of the process: events keep arriving, the key keeps being added, and
// nothing happens. With ShutDownWithDrain the queue also waits forever for
// the key at shutdown.
//
// For every Get() on a client-go work queue (typed or untyped, plain,
// delaying or rate-limiting), the analyzer follows the key along every path
// from the Get (past the shutdown check) to the end of the item's
// processing: a return, or the loop back to the next Get. It follows the
// key into the package's helpers (closures, methods, functions) through
// calls, method values and captured variables, through conversions and type
// assertions. A path on which the key never reaches Done is reported at its
// return — inside the helper when the helper is where the path ends — or at
// the Get when it loops back.
//
// Helpers in other packages of the module (a queue wrapper that records
// metrics and marks keys Done, a shared worker helper) are followed through
// their summaries: whether they mark the key Done on every path, on some,
// or never. A path through such a helper that returns without Done, when
// the worker marks the key Done nowhere else, is reported at the call,
// naming the helper and the line where it returns. Packages of other
// modules are not analysed.
//
// # Wrong
//
//	func (c *Controller) processNextWorkItem(ctx context.Context) bool {
//		obj, quit := c.queue.Get()
//		if quit {
//			return false
//		}
//		key, ok := obj.(string)
//		if !ok {
//			c.queue.Forget(obj)
//			return true // obj stays in processing for good
//		}
//		err := c.sync(ctx, key)
//		c.queue.Done(obj)
//		return c.handleErr(err, key)
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
//		c.handleErr(ctx, c.sync(ctx, key), key)
//		return true
//	}
//
// # Fix
//
// Defer the Done right after the shutdown check: `defer c.queue.Done(key)`
// covers every return. When processing continues in a helper or goroutine,
// hand the key over and make that code call Done on all of its paths.
//
// # Suppress
//
//	return true //ctrllint:ignore queuedone Done is called by the batch flusher
//
// A reason is required; see docs/README.md for file-wide suppression.
//
// # Not reported
//
//   - the shutdown branch after Get (there is no key to mark);
//   - paths that end in a panic;
//   - a Done in a deferred call (also when a closure captures the key), in
//     a helper the key is handed to (in another package of the module too),
//     or in code the analyzer cannot see (another module, an interface
//     method, a func value) that is given both the key and the queue;
//   - a helper of another package of the module that marks the key Done on
//     some paths only, when the worker also marks it Done itself on some
//     path: which of the helper's paths it completes is not followed;
//   - keys handed over to other code, which marks them Done: sent on a
//     channel (also in one branch of a select), stored in a map or a
//     structure, alone or packed in a value appended to a batch, or returned
//     to the caller, alone (a queue adapter's Get) or appended to a list the
//     function returns (a test helper that takes every queued key to
//     compare them);
//   - controller-runtime reconcilers: the framework's worker calls Done;
//   - a queue the function builds and keeps to itself (a test that adds a
//     key and takes one item to assert on it): nothing else can take from
//     it or wait on the key. Once the queue is stored, passed, returned,
//     captured by a closure (a worker goroutine) or drained with
//     ShutDownWithDrain, its keys are checked;
//   - a test taking a key to assert on it (key, _ := c.queue.Get(); if key
//     != want { t.Errorf(...) }): a Get in a function handed a *testing.T
//     (B, F, TB), or in a closure of one, whose unmarked paths end at
//     returns. No worker runs on a queue the test takes keys from itself,
//     and taking the same key twice would hang the test. A loop that takes
//     keys from the same queue round after round (a test's own worker
//     loop) is checked — a loop that builds a controller per round takes
//     from a new queue each time, and a loop that only takes keys and
//     collects them to compare (for { key, done := q.Get(); if done {
//     break }; got = append(got, key) }: nothing in it but the Get,
//     append, Len and calls of testing, fmt, reflect, testify and go-cmp)
//     queues nothing again — and so is a test that calls
//     ShutDownWithDrain.
//
// A helper that marks the key Done on some of its paths only is blamed at
// its unmarked returns when its caller does not mark the key afterwards.
// When nothing marks the key Done anywhere, the finding is one, at the Get,
// listing the lines where its paths end.
package queuedone

import _ "embed"

// DocSource is this file: the single source of the analyzer's documentation.
//
//go:embed doc.go
var DocSource string
