// Package requeueerr defines an Analyzer that reports controller-runtime
// Reconcile returns that ask for a requeue and return a non-nil error: the
// framework ignores the Result.
//
// # Analyzer requeueerr
//
// requeueerr: report Reconcile returns that pair a Result asking for a requeue with a non-nil error
//
// When Reconcile returns a non-nil error, controller-runtime ignores the
// Result. The Reconciler interface says so ("If the returned error is
// non-nil, the Result is ignored and the request will be requeued using
// exponential backoff. The only exception is if the error is a
// TerminalError in which case no requeuing happens."), and the worker does
// it (sigs.k8s.io/controller-runtime/pkg/internal/controller, the
// reconcileHandler of v0.25.2): on a non-nil error it puts the request back
// through the rate limiter, or for a TerminalError does not put it back at
// all, and only then, seeing RequeueAfter or Requeue set, logs "Warning:
// Reconciler returned both a result with either RequeueAfter or Requeue set
// and a non-nil error. RequeueAfter and Requeue will always be ignored if
// the error is non-nil." (v0.18.5 ignores the Result the same way and logs
// "Reconciler returned both a non-zero result and a non-nil error".)
//
// So `return ctrl.Result{RequeueAfter: time.Minute}, err` does not wait a
// minute. The retry comes when the rate limiter says: with the default one,
// 5ms after the first failure, doubling with each failure in a row up to
// 1000s. A controller that meant to poll an external system gently hits it
// again within milliseconds; one that meant to come back in a minute waits
// up to 16 minutes after a run of failures. With a TerminalError the request
// is not requeued at all, so the requested requeue never happens. With
// Requeue: true the retry happens anyway (both go through the rate
// limiter), but the Result is dead code and the warning is logged on every
// such reconcile.
//
// The analyzer looks at the returns of Reconcile methods (of Reconciler,
// TypedReconciler and ObjectReconciler implementations, and the
// context-free Reconcile(req) of controller-runtime before v0.7), of functions
// converted to reconcile.Func or reconcile.TypedFunc (what a builder's
// Complete takes), and of the package's helpers whose Result and error a
// Reconcile returns as its own (`return r.reconcileNormal(ctx, obj)`, also
// through several helpers and through named results set before deferred
// calls). It reports a return when both hold on its path (and a return
// through a Result helper, `return requeueWithError(err)`, when the helper
// returns a Result that asks for a requeue with the error it is given, and
// the error passed is non-nil):
//
//   - the Result asks for a requeue: a Result literal, a local variable
//     assigned field by field, a package-level variable, or the Result a
//     function of the package makes (`func requeueSoon() ctrl.Result`), with
//     RequeueAfter or Requeue set on every path to the return, to a
//     constant that asks for a requeue (true, a positive duration) or, for
//     RequeueAfter, to a duration computed at run time (a configured
//     interval, a parameter);
//   - the error is non-nil: made by fmt.Errorf, errors.New, pkg/errors,
//     reconcile.TerminalError or a concrete error type; a package's sentinel
//     error; a non-nil error wrapped (pkg/errors.Wrap) or joined
//     (errors.Join, utilerrors.NewAggregate); or an error the return is only
//     reached with after `err != nil`, apierrors.IsNotFound(err) and the
//     other reason tests, errors.Is or errors.As, or
//     client.IgnoreNotFound(err) != nil. A deferred closure that rewrites a
//     named error result must keep it non-nil (cluster-api's
//     `reterr = kerrors.NewAggregate([]error{reterr, err})` does).
//
// A TerminalError gets its own message: the Result is ignored and the
// error is never retried, although the warning is still logged.
//
// # Wrong
//
//	if err := r.ensureBucket(ctx, obj); err != nil {
//		// meant: try again in a minute, the storage API is rate limited
//		return ctrl.Result{RequeueAfter: time.Minute}, err
//	}
//
// # Right
//
//	if err := r.ensureBucket(ctx, obj); err != nil {
//		log.FromContext(ctx).Error(err, "ensuring bucket; retrying in a minute")
//		return ctrl.Result{RequeueAfter: time.Minute}, nil
//	}
//
// # Fix
//
// Decide which of the two you meant; no fix is suggested because only the
// author knows. To retry with the rate limiter's backoff, return the error
// alone: `return ctrl.Result{}, err` (the error is logged and counted in
// controller_runtime_reconcile_errors_total). To come back after a fixed
// delay, log the error (or record it in a status condition or an event)
// and return the Result with a nil error. For a TerminalError that should
// still be retried later, return the Result with a nil error and record the
// failure; for one that should not, return an empty Result.
//
// # Suppress
//
//	return ctrl.Result{RequeueAfter: time.Minute}, err //ctrllint:ignore requeueerr the delay is a fallback for an older controller-runtime
//
// A reason is required; see docs/README.md for file-wide suppression.
//
// # Not reported
//
//   - `return ctrl.Result{}, err` and `return ctrl.Result{RequeueAfter: d}, nil`
//     (the right idioms), and Results that set only Priority;
//   - errors that may be nil on the path: the result of a function of
//     unknown nil-ness, client.IgnoreNotFound(err) returned as the error,
//     `kerrors.NewAggregate(errs)` of a slice built with append
//     (cluster-api's phase loops), a variable no check dominates;
//   - Results that ask for a requeue on some paths only (a field assigned
//     under a condition), Results read from struct fields, parameters, or
//     other packages' variables,
//     and Results whose variable escapes or that a deferred closure
//     rewrites;
//   - a Requeue computed at run time, and a RequeueAfter that is one of
//     several results of a call, or read from a helper's Result
//     (`after, err := r.next(); return ctrl.Result{RequeueAfter: after}, err`,
//     `RequeueAfter: res.RequeueAfter`): on the error path they are
//     typically false and zero;
//   - helpers whose Result the Reconcile does not return as its own with
//     their error: a helper whose error the caller logs and replaces,
//     functions called through a func value or an interface (a slice of
//     phase functions), and helpers of other packages (the analyzer sees one
//     package at a time);
//   - reconcilers in _test.go files, which return both on purpose to test
//     the framework;
//   - a named error result that a deferred closure may set to nil or to an
//     error of unknown nil-ness;
//   - helpers that return a *ctrl.Result, and Result helpers of other
//     packages.
//
// A method named Reconcile with a Reconciler's signature is taken to be
// handed to controller-runtime. One that is only called by a wrapper which
// honours the Result despite an error (a middleware that logs the error and
// returns the Result with nil) would be reported wrongly; suppress it with
// the wrapper named in the reason.
package requeueerr

import _ "embed"

// DocSource is this file: the single source of the analyzer's documentation.
//
//go:embed doc.go
var DocSource string
