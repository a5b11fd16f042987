// Package finalizer defines an Analyzer that reports finalizers removed
// while the error of the cleanup they guard is ignored, and finalizers
// added to an object that is being deleted.
//
// # Analyzer finalizer
//
// finalizer: report finalizers removed after a cleanup whose error is ignored, and finalizers added to an object being deleted
//
// A finalizer is a promise: the object stays until the controller has
// cleaned up what it owns outside the garbage collector's reach (a cloud
// resource, an entry in another system, children in another cluster). The
// controller keeps the promise by removing its finalizer only once the
// cleanup has succeeded. When the cleanup's error is dropped, only logged,
// or turned into an event, and the code goes on to remove the finalizer
// and write the object, a failed cleanup is final: the object is deleted,
// nothing will reconcile it again, and what it owned leaks.
//
// The API server also refuses to add a finalizer to an object that is
// being deleted (apimachinery's pkg/api/validation,
// ValidateObjectMetaAccessorUpdate and ValidateNoNewFinalizers: "no new
// finalizers can be added if the object is being deleted"). A controller
// that adds its finalizer on a path where it has seen DeletionTimestamp
// set fails that write on every reconcile until the object is gone.
//
// Within each function (closures separately), the analyzer finds the
// branches on which an object is known to be being deleted: an if on
// obj.DeletionTimestamp != nil, !obj.DeletionTimestamp.IsZero(),
// obj.GetDeletionTimestamp() != nil (and their negations, through a
// variable holding the condition). An unexported function of the package
// that is called only from such branches, with the object as an argument,
// and never used as a value (the usual reconcileDelete or handleDeletion
// helper) is on the deletion branch for that parameter throughout, to any
// depth of such helpers. On a deletion branch it reports:
//
//   - a finalizer removal — controllerutil.RemoveFinalizer(obj, f),
//     obj.SetFinalizers(v) or a store to obj.Finalizers of a list computed
//     from obj's own finalizers by a call named for removal
//     (removeString(obj.Finalizers, f), sets.New(...).Delete(f)) — that
//     is written (an Update, Patch or Apply of obj reached from it, or a
//     deferred one: a patch helper), when a cleanup call on the branch
//     reaches it on a path where the call's error is ignored: the result is
//     not used, or is only logged, recorded as an event, formatted or
//     wrapped into an error that is itself ignored; where the error is
//     compared with nil, the path where it is not nil. A cleanup call
//     returns only an error and names a cleanup (delete, clean, remove,
//     release, destroy, teardown, deregister, detach, purge, terminate,
//     revoke, uninstall, deprovision, finalize, unbind, disconnect,
//     dispose), outside the standard library and controllerutil, and is
//     not a write of the object itself nor a Delete of it;
//   - a finalizer addition — controllerutil.AddFinalizer(obj, f),
//     obj.SetFinalizers(append(obj.GetFinalizers(), f)), a store of such an
//     append to obj.Finalizers — reached from the deletion branch of the
//     same object and then written: typically a deletion branch that falls
//     through (it returns only when the finalizer is present) to the code
//     that adds the finalizer;
//   - a finalizer addition, written, in a function that checks the same
//     object's DeletionTimestamp but reaches the add on a path through none
//     of those checks: the add at the top of Reconcile, before the
//     deletion branch (cluster-api's reconcilers before v1.5, the
//     operator-sdk tutorial). It fails for an object deleted while it
//     lacks the finalizer: removed on an earlier pass while another
//     finalizer (foregroundDeletion, another controller's) keeps the
//     object, or deleted before the controller first saw it. A write in a
//     deferred func literal (cluster-api's patch helper) counts.
//
// # Wrong
//
//	if !app.DeletionTimestamp.IsZero() {
//		if err := r.deleteBucket(ctx, app); err != nil {
//			log.Error(err, "deleting bucket") // logged, and the finalizer goes anyway
//		}
//		controllerutil.RemoveFinalizer(app, bucketFinalizer)
//		return ctrl.Result{}, r.Update(ctx, app)
//	}
//
//	if app.DeletionTimestamp != nil {
//		if controllerutil.ContainsFinalizer(app, bucketFinalizer) {
//			// cleanup, removal, return
//		}
//		// falls through when the finalizer is gone already
//	}
//	controllerutil.AddFinalizer(app, bucketFinalizer) // rejected: app is being deleted
//	if err := r.Update(ctx, app); err != nil {
//		return ctrl.Result{}, err
//	}
//
//	if !controllerutil.ContainsFinalizer(app, bucketFinalizer) {
//		controllerutil.AddFinalizer(app, bucketFinalizer) // before the deletion check
//		return ctrl.Result{}, nil // the deferred patch helper writes it
//	}
//	if !app.DeletionTimestamp.IsZero() {
//		return r.reconcileDelete(ctx, app)
//	}
//
// # Right
//
//	if !app.DeletionTimestamp.IsZero() {
//		if err := r.deleteBucket(ctx, app); err != nil {
//			return ctrl.Result{}, err // retried; the finalizer stays until the bucket is gone
//		}
//		controllerutil.RemoveFinalizer(app, bucketFinalizer)
//		return ctrl.Result{}, r.Update(ctx, app)
//	}
//	if controllerutil.AddFinalizer(app, bucketFinalizer) {
//		return ctrl.Result{}, r.Update(ctx, app)
//	}
//
// # Fix
//
// Return the cleanup's error (or requeue) instead of going on to remove
// the finalizer; an error that means the work is done already (NotFound)
// is checked for and let through (client.IgnoreNotFound, or
// apierrors.IsNotFound before returning). End the deletion branch with a
// return on every path, or add the finalizer only in the branch where
// DeletionTimestamp is zero, as the kubebuilder book does. There is no
// automatic fix: what the cleanup's failure should do (return, requeue
// after a delay, give up after some attempts) is the controller's choice.
//
// # Suppress
//
// A controller that deliberately lets the object go when its cleanup fails
// (best effort: what leaks is harmless or collected elsewhere) says so:
//
//	controllerutil.RemoveFinalizer(app, bucketFinalizer) //ctrllint:ignore finalizer best effort: orphaned buckets are swept by the janitor
//
// A reason is required; see docs/README.md for file-wide suppression.
//
// # Not reported
//
//   - a removal after a cleanup whose error returns, requeues, or is
//     classified (apierrors.IsNotFound(err), errors.Is, collected into a
//     list): the code decides what the error means, and a NotFound check
//     followed by logging is left alone too; and a path that reads the
//     API state again (a client's or lister's Get or List) before the
//     removal: the controller may be waiting for the children to be gone,
//     which is the cleanup itself, not its error;
//   - cleanup calls that return a value besides the error (cloud SDKs'
//     Delete calls returning an output, lookups such as Get or a client
//     constructor): only calls whose one result is an error and whose name
//     says cleanup count, and calls of func values;
//   - a removal not written in the same function (a helper or the caller
//     sends the object; cluster-api's reconcileDelete patches in the
//     caller's defer and reaches the object through a scope struct), and
//     deletion branches seen only through an exported helper, a helper also
//     called off the deletion branch, or a func value;
//   - a cleanup whose error is ignored after the removal, before the write
//     (only cleanups before the removal are followed);
//   - a removal where no cleanup was called at all on the path: whether
//     there is anything to clean up there (the finalizer's owner is gone,
//     a retention policy says keep) is not in the types;
//   - an add in a function that never checks the object's
//     DeletionTimestamp (a helper the caller calls only for live objects,
//     an object the function builds and creates);
//   - objects of other values than the one checked (a copy, another
//     object of the same kind, the object as a closure's free variable: a
//     removal inside retry.RetryOnConflict(func() error {...}) or a
//     package's update-with-retry helper), and finalizer lists built
//     elsewhere (a loop keeping the other entries) and stored whole;
//   - _test.go files: tests stage deletions against fake clients.
package finalizer

import _ "embed"

// DocSource is this file: the single source of the analyzer's documentation.
//
//go:embed doc.go
var DocSource string
