// Package conflictretry defines an Analyzer that reports conflict retries
// whose every attempt sends the same stale object.
//
// # Analyzer conflictretry
//
// conflictretry: report conflict retries that resend an object read outside the retried closure
//
// An Update or UpdateStatus carries the object's resourceVersion, and the
// API server refuses it with a 409 Conflict when the stored object has
// moved on. client-go's retry.RetryOnConflict(backoff, fn) calls fn again
// on a conflict; the retry helps only if fn sends something newer. When
// the closure writes an object it captured from outside, read before the
// retry began, and never reads it again, every attempt sends the same
// resourceVersion and gets the same conflict: the retry sleeps through its
// backoff (retry.DefaultRetry: five attempts 10ms apart; DefaultBackoff:
// four, 10ms, 50ms and 250ms apart) and fails anyway, and the change is lost
// or delayed until the next sync. The closure must re-read the object (a Get, or a lister
// read and DeepCopy) before changing and writing it, or refresh it after a
// failed attempt, as kubernetes' StatefulSet status updater does.
//
// The analyzer looks at closures handed to retry.RetryOnConflict, to
// retry.OnError with a predicate that is true for conflicts
// (apierrors.IsConflict, or a function of the package that returns it,
// alone or in a disjunction), and to apimachinery's wait.Poll* and
// wait.ExponentialBackoff* loops whose condition returns false and a nil
// error (poll again) where IsConflict holds for the write's error. In such
// a closure it reports the first write of each captured object variable
// that:
//
//   - is an Update or UpdateStatus of a typed client (clientset or
//     generated), of the dynamic client, or of controller-runtime's client
//     (Update, Status().Update, SubResource("status").Update), or a
//     controller-runtime Patch whose patch is
//     client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})
//     (the patch carries base's resourceVersion), made in the closure or by
//     a function of the package that sends its parameter that way;
//   - sends the captured object, a DeepCopy of it, or (for the locked
//     patch) a base that is one of these;
//   - whose error the closure returns (as it is, or wrapped);
//   - where the closure neither assigns the variable (the kubernetes idiom:
//     `set = updated.DeepCopy()` after a failed attempt) nor hands the object
//     to a Get or to code not known to leave its resourceVersion alone, nor
//     sets its metadata or resourceVersion;
//   - and the object was read before the retry: by a Get of a typed or
//     dynamic client or of a lister, by a controller-runtime Get into it, as
//     a DeepCopy of such an object, by a function of the package that returns
//     such an object, or handed in as a parameter of the enclosing function
//     (a caller's object: a controller's objects come from its cache or the
//     API server).
//
// The message names the retry, the write, the object and where it was read.
// Tests are analysed too: a test that retries a stale write against envtest
// or a cluster flakes (config-sync fixed its tests for this in PR 1597,
// moco in PR 908). Test files that import a fake client (a package path
// ending in /fake) are not: in a unit test nothing else writes the fake's
// objects, so the retry never runs a second attempt.
//
// # Wrong
//
//	cm, err := c.client.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
//	if err != nil {
//		return err
//	}
//	cm.Data["mapRoles"] += role
//	return retry.RetryOnConflict(retry.DefaultBackoff, func() error {
//		_, err := c.client.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
//		return err
//	})
//
// # Right
//
//	return retry.RetryOnConflict(retry.DefaultBackoff, func() error {
//		cm, err := c.client.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
//		if err != nil {
//			return err
//		}
//		cm.Data["mapRoles"] += role
//		_, err = c.client.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
//		return err
//	})
//
// With controller-runtime, Get into the object at the top of the closure
// (`if err := r.Get(ctx, key, obj); err != nil { return err }`), then
// change and write it.
//
// # Fix
//
// Move the read into the closure, before the change: the change is then
// made again on the latest object at each attempt. A closure that must
// keep a change computed outside can attempt the write and, when it fails,
// read the object again into the captured variable (from the lister,
// DeepCopy'd, or from the API server) and copy the change onto it for the
// next attempt. No fix is suggested: which read to use and which changes
// to redo is the author's decision.
//
// # Suppress
//
//	_, err := c.client.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}) //ctrllint:ignore conflictretry cm is refreshed by the informer callback that shares it
//
// A reason is required; see docs/README.md for file-wide suppression.
//
// # Not reported
//
//   - a closure that reads the object (clientset, dynamic or lister Get;
//     controller-runtime Get into the captured pointer) before writing it,
//     or that writes a new object it read (`latest := &T{}; r.Get(ctx, key,
//     latest)`);
//   - a closure that assigns the captured variable anywhere, whatever it
//     assigns: kubernetes' "attempt, and on failure re-read" idiom
//     (StatefulSet status updater, ControllerRevision history, the HPA's
//     scale update);
//   - an object whose resourceVersion or metadata the closure sets
//     (`obj.ResourceVersion = ""` makes the update unconditional;
//     SetResourceVersion from a fresh read), or that it hands to a function
//     of the package that may read into it or set them, to a func value,
//     to unknown code, or stores away;
//   - an object built in the enclosing function (a literal), or a
//     parameter for which a caller in the package passes an object it built
//     (a literal, or a constructor's result: prometheus-operator's
//     CreateOrUpdateService takes such a desired object): without a
//     resourceVersion the update is unconditional and does not conflict;
//   - a write whose error the closure does not return (logged, dropped):
//     RetryOnConflict and OnError retry only the conflicts they are
//     returned;
//     and objects of unknown origin (a struct field, a global, a result of
//     another package's helper, a variable assigned on several paths from
//     different kinds of values);
//   - Patch without a resourceVersion precondition (merge, strategic, JSON
//     and apply patches, client.MergeFrom): it does not conflict; and
//     patches whose bytes carry a resourceVersion (a typed client's Patch
//     of hand-built bytes): the analyzer does not read the bytes;
//   - Create, Delete, Apply, and writes to other subresources (scale);
//   - retry.OnError with a predicate that ignores conflicts, and wait loops
//     whose condition stops on a conflict (returns the error, or true);
//   - writes made in a closure nested inside the retried one, through a
//     helper of another package, or through a helper of the package more
//     than one call deep;
//   - a captured variable another closure assigns (an informer callback
//     swapping in newer objects) or whose address is handed on;
//   - closures that capture nothing (a named function handed to the retry);
//   - retries in test files that import a fake client;
//   - retry helpers of other libraries (wrappers of RetryOnConflict, such as
//     openshift's RetryOnConflictOrRetriable): only client-go's and
//     apimachinery's are known;
//   - loops written by hand (`for i := 0; i < 5; i++ { ...Update... }`).
package conflictretry

import _ "embed"

// DocSource is this file: the single source of the analyzer's documentation.
//
//go:embed doc.go
var DocSource string
