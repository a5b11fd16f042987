// Package listerbypass defines an Analyzer that reports API reads in a
// controller's processing path for resources the controller already caches.
//
// # Analyzer listerbypass
//
// listerbypass: report API reads in a controller's sync path for resources it already caches in an informer
//
// An informer keeps a watched copy of every object of its resource; its
// lister answers Get and List from memory. A controller that holds a lister
// for a resource and still calls the API server for it in its sync path
// sends one GET or LIST per reconcile — for a controller syncing thousands
// of objects every resync, thousands of requests the informer exists to
// remove, counted against the API server's priority-and-fairness budget
// and its etcd reads. LIST calls are the expensive ones: each returns every
// object of the resource.
//
// The analyzer follows the processing path: functions that take keys from
// a work queue, controller-runtime Reconcile methods, and everything they
// call in the package (directly, through method values, closures and
// func-typed fields such as sample-controller's c.syncHandler). It reports:
//
//   - Get and List on a typed clientset (kubernetes.Interface, generated
//     clientsets of custom resources) for a resource the controller caches:
//     a lister or informer field of the controller whose processing path
//     the read is on (or of a structure of the package it holds), or, when
//     no struct of the package keeps one, an informer the package asks its
//     informer factory for;
//   - Get and List on the dynamic client for a GroupVersionResource the
//     package's dynamic informer factory serves (the same package variable,
//     or the same group/version/resource literal);
//   - Get and List through controller-runtime's API reader
//     (mgr.GetAPIReader(), also kept in a field) or an uncached client.New
//     client, for an object type the manager's cache watches for the package
//     (builder For/Owns, source.Kind, GetInformer).
//
// The message names the resource and, for clientset reads, the lister to
// use instead: one the reporting controller holds.
//
// # Wrong
//
//	func (c *Controller) syncHandler(ctx context.Context, key string) error {
//		ns, name, _ := cache.SplitMetaNamespaceKey(key)
//		foo, err := c.fooLister.Foos(ns).Get(name)
//		...
//		d, err := c.kubeclientset.AppsV1().Deployments(ns).Get(ctx, foo.Spec.DeploymentName, metav1.GetOptions{})
//		...
//	}
//
// # Right
//
//	d, err := c.deploymentsLister.Deployments(ns).Get(foo.Spec.DeploymentName)
//
// # Fix
//
// Read through the lister; write (Create, Update, Patch, Delete) through
// the client. `ctrllint -fix` rewrites a clientset Get into the lister Get
// when the receiver holds a lister or informer of the resource:
// c.kubeclientset.AppsV1().Deployments(ns).Get(ctx, name, opts) becomes
// c.deploymentsLister.Deployments(ns).Get(name). Objects from a lister are
// shared with every other reader of the cache: DeepCopy before changing
// them. With controller-runtime, read through the manager's client.
//
// # Suppress
//
// Some fresh reads are deliberate. Kubernetes' controller-ref manager
// re-checks that an owner is not being deleted with an uncached GET before
// it adopts orphans, because a stale cache could make it adopt objects for an
// owner that is already gone; say so where it happens:
//
//	// A live read: the cache may not yet show the owner's deletion.
//	fresh, err := c.client.AppsV1().ReplicaSets(ns).Get(ctx, name, metav1.GetOptions{}) //ctrllint:ignore listerbypass recheck deletion before adoption
//
// # Not reported
//
//   - fresh reads inside the closure of retry.RetryOnConflict or
//     retry.OnError, or of kubernetes' controller.RecheckDeletionTimestamp
//     (and what they call): read-modify-write needs the latest version, and
//     the controller-ref manager's recheck must not trust the cache;
//   - read-modify-write without those helpers: a read whose result (or
//     anything computed from it) reaches a client write — Update,
//     UpdateStatus, Patch, Delete — in the same function or a package helper
//     it is passed to, or is handed to another package's helper named for a
//     write (PatchStatus, UpdateObject...) or given a client as well;
//   - double-checks: a live read in a function that also reads the same
//     resource from its cache (a lister, or an untyped store or mutation
//     cache), or whose caller does (itself or in another helper it calls),
//     as a fallback on a cache miss or a confirmation;
//   - confirmations a lagging cache cannot give, before acting on them:
//     an existence probe (`_, err := ...Get(...)` with the error tested by
//     apierrors.IsNotFound), a read whose result decides whether the same
//     resource is then created, updated, patched or deleted (in the function
//     or a package helper), and a read whose failure branch goes on to a
//     write instead of returning (the absence is the answer);
//   - set-up code that runs before informers exist: functions that are not
//     reachable from a worker loop or a Reconcile method;
//   - a resource only another controller type of the package caches (a
//     package with two controllers): this one has no lister to read
//     through, and the other's informer may be filtered or fed by another
//     factory (-listerbypass.all reports it as uncached);
//   - resources only the package's tests ask an informer factory for (a
//     function handed a *testing.T that fills an informer's store to
//     arrange state): the controller itself has no cache of them;
//   - resources the package does not cache: there is no lister to use
//     (the flag -listerbypass.all reports every typed clientset read in a
//     processing path, for controllers meant to read only from caches);
//   - controller-runtime's default client, which reads typed objects from
//     the manager's cache;
//   - reads of unstructured.Unstructured or PartialObjectMetadata through
//     controller-runtime's default client, which bypass the cache unless the
//     manager caches unstructured objects: whether it does is decided where
//     the manager is built, usually in another package;
//   - Create, Update, Patch, Delete, Watch and subresource reads.
package listerbypass

import _ "embed"

// DocSource is this file: the single source of the analyzer's documentation.
//
//go:embed doc.go
var DocSource string
