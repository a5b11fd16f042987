// Package listerbypass defines an Analyzer that reports API reads in a
// controller's processing path for resources the controller already caches,
// and per-event lists of resources it should cache.
//
// # Analyzer listerbypass
//
// listerbypass: report API reads in a controller's sync path that its informers serve, and per-event lists that call for one
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
//     (builder For/Owns/Watches, source.Kind, GetInformer; not a type
//     watched with builder.OnlyMetadata, whose cache keeps metadata only).
//     A field of type client.Reader named for a live reader (APIReader,
//     uncachedReader, liveReader, directReader) counts as one even when
//     only main sets it, as cluster-api's reconcilers keep theirs. Reading
//     the request's own object (Get with req.NamespacedName, of the type
//     the builder's For names) in Reconcile this way is reported even when
//     the object is then written: its cache event started the reconcile,
//     and a stale copy only makes the write conflict (cluster-api's
//     topology controller until v1.5, PR 8936).
//
// It reports, wherever it is (admission plugins and other request paths
// too), a clientset List made whenever a lister List of the same resource
// comes back empty, in a function that never asks an informer whether it
// has synced (HasSynced, or a func kept under such a name): once the
// informer has synced, its empty answer is the truth, and the fallback
// sends every lookup where no object exists — the common case — to the API
// server. k8s.io/apiserver's ResourceQuota admission did so for every
// namespace without quotas until v0.32.3 (kubernetes PR 130113), which made
// the live List run only until the quota informer has synced.
//
// The message names the resource and, for clientset reads, the lister to
// use instead: one the reporting controller holds. A List of a resource
// the controller type caches is reported the same way off the processing
// path too, in its periodic passes and event handlers (k8s.io/
// cloud-provider's node controller listed every Node on each status pass
// beside its node lister until v0.27).
//
// A read made inside a sync helper of another package of the module counts
// as one made at the call: a function or method (of an exported type) that
// gets or lists through a typed clientset it takes as a parameter or from
// its receiver's fields, in its own body, in its own package's helpers, or
// in the helpers of further packages of the module it calls, however deep
// the chain (kubernetes' pkg/controller/util/node, which listed a node's
// pods for the node lifecycle controller; node-feature-discovery's
// apihelper). Such
// a call on the per-event path is judged like the read it makes, and the
// message names the helper and the line where it reads.
//
// It also reports clientset List calls of a resource no informer of the
// package caches (none kept in a field, asked of a factory, handed in as a
// parameter, or served by knative's injection informers or
// controller-runtime's cache) on a controller's per-event path: the
// processing path above, event handlers (the functions of client-go's
// ResourceEventHandlerFuncs and its kin), periodic passes run by wait.Until
// and its kin, and knative reconcilers (ReconcileKind, FinalizeKind). Such a
// LIST, often with a label or field selector, runs on every event or every
// pass, and the API server answers it by reading every object of the
// resource from etcd; kubernetes' own controllers replaced them with
// informers (the pod garbage collector's node list on every pass, the node
// lifecycle controller's "pods on this node" list for every node that went
// unready). This message says the fix is an informer.
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
// A pass that lists what nothing caches:
//
//	go wait.UntilWithContext(ctx, gcc.gc, 20*time.Second)
//	...
//	func (gcc *PodGC) gc(ctx context.Context) {
//		nodes, err := gcc.kubeClient.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
//
// lists from an informer the controller is handed:
//
//	func NewPodGC(client kubernetes.Interface, pods coreinformers.PodInformer, nodes coreinformers.NodeInformer) *PodGC {
//		return &PodGC{kubeClient: client, podLister: pods.Lister(), nodeLister: nodes.Lister(), ...}
//	}
//	...
//	nodes, err := gcc.nodeLister.List(labels.Everything())
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
// For a per-event List of a resource nothing caches, add an informer: take
// the resource's informer from the shared informer factory the controller's
// other informers come from (a parameter of its constructor, as
// kube-controller-manager hands them), keep its Lister() and HasSynced,
// wait for it to sync before the workers start, and list through the lister
// with labels.SelectorFromSet instead of a LabelSelector string. A field
// selector becomes an index (cache.Indexers on the informer, read with
// ByIndex), or a filtered informer when the controller only ever needs that
// subset (informers.WithTweakListOptions). With controller-runtime, list
// through the manager's client, whose cache starts an informer for the type;
// with knative, through the injection informer's lister.
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
// A per-event List the controller makes rarely, or must see fresh, is
// suppressed the same way, with the reason:
//
//	// Runs only when an identity lease is deleted, a few times a day.
//	list, err := c.client.CoreV1().ConfigMaps(ns).List(ctx, opts) //ctrllint:ignore listerbypass rare, on lease deletion only
//
// # Not reported
//
//   - fresh reads inside the closure of retry.RetryOnConflict or
//     retry.OnError, or of kubernetes' controller.RecheckDeletionTimestamp
//     (and what they call): read-modify-write needs the latest version, and
//     the controller-ref manager's recheck must not trust the cache;
//   - read-modify-write without those helpers: a Get whose result (or
//     anything computed from it) reaches a client write — Update,
//     UpdateStatus, Patch, Delete — in the same function or a package helper
//     it is passed to, or is handed to another package's helper named for a
//     write (PatchStatus, UpdateObject...) or given a client as well;
//   - double-checks: a live read in a function that also reads the same
//     resource from its cache (a lister, or an untyped store or mutation
//     cache, itself or by handing it to a function), or whose caller does
//     (itself or in another helper it calls),
//     as a fallback on a cache miss or a confirmation (a List made
//     whenever the lister finds none is reported as above unless the
//     function tests HasSynced);
//   - confirmations a lagging cache cannot give, before acting on them:
//     an existence probe (`_, err := ...Get(...)` with the error tested by
//     apierrors.IsNotFound), a Get whose result decides whether the same
//     resource is then created, updated, patched or deleted (in the function
//     or a package helper), and a Get whose failure branch goes on to a
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
//   - Gets of resources the package does not cache: reading one object by
//     name is often live on purpose (a Secret's credentials, the owner just
//     written), and an informer for it keeps every object of the resource
//     in memory; only Lists, which read the whole resource on the server
//     anyway, are reported (the flag -listerbypass.all reports every typed
//     clientset read on the per-event path, for controllers meant to read
//     only from caches);
//   - a List of a resource an informer of the package exists for, even one
//     kept only for its HasSynced: the fix there is its lister, which the
//     first report names when the controller holds it;
//   - Lists in start-up code (main, constructors, Run before it starts its
//     loops), in functions that nothing on the per-event path reaches, and
//     in wait.Poll* conditions, which stop once they hold;
//   - such Lists in _test.go files, which read a fake clientset;
//   - Lists that are deliberate fresh reads: inside RetryOnConflict, a
//     double-check of the cache, or a guard of a Create of the resource
//     (a List that finds none before creating one, itself or in the caller
//     it returns its answer to, before a Create or a package helper named
//     create<Kind>: cluster-api's getCurrentMachineDeployments). A List whose items are
//     then deleted or updated is reported: a write of a listed object
//     needs no fresher copy than the cache's, and upstream replaced such
//     Lists with listers (the API Priority and Fairness ensurer, issue
//     101667; k8s.io/cloud-provider's node controller, PR 115521);
//   - Lists through the dynamic or metadata client, and through
//     controller-runtime's uncached readers, of resources nothing caches:
//     only the first report covers them;
//   - reads through a helper of another package that are deliberate inside
//     it (a List whose items it deletes or updates, a Get that guards its
//     write), or whose result the caller feeds to a write or double-checks
//     against its cache (the rules above, applied at the call); reads in a
//     helper of a package the caller's code does not name (a method of a
//     value it only receives from a third package), through an interface
//     method, or through a clientset the helper makes itself (what they
//     read is not carried across); reads reached only from event
//     handlers that are methods of the package's own types
//     (OnAdd/OnUpdate/OnDelete), from controller-runtime's map functions,
//     or from loops on a time.Ticker: the per-event path starts at the
//     roots named above;
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
