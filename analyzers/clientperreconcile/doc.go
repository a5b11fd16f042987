// Package clientperreconcile defines an Analyzer that reports clients,
// informer factories and caches built from a controller's own config on a
// path that runs once per event.
//
// # Analyzer clientperreconcile
//
// clientperreconcile: report clients and informers built from the controller's own config on every event
//
// A client built from a *rest.Config is not a handle on a shared
// connection: kubernetes.NewForConfig, dynamic.NewForConfig,
// rest.RESTClientFor, controller-runtime's client.New and their kin each
// build an HTTP client of their own (rest.HTTPClientFor: a transport, its
// TLS handshakes and connections) and a token-bucket rate limiter of their
// own (the QPS and Burst of the config; the ...AndClient variants share the
// HTTP client they are handed, not the rate limiter). Built in Reconcile, a sync handler,
// an event handler or a periodic pass, that happens as often as events
// arrive: the connections pile up until the garbage collector closes them
// (client-go warns "constructing many client instances from the same exec
// auth config can cause performance problems during cert rotation and can
// exhaust available network connections"), and since every client starts
// with a full bucket, the controller's QPS limit no longer limits anything:
// a burst of events becomes a burst of requests at the API server. An
// informer factory (informers.NewSharedInformerFactory, the dynamic and
// metadata ones, a generated clientset's) built per event is worse: once
// started, its informers list every object of the resource in the cluster
// and open new watches, per event, and nothing stops them; a
// controller-runtime cache, cluster or manager (cache.New, cluster.New,
// manager.New, ctrl.NewManager) builds a client and informers of its own.
//
// The analyzer finds the per-event path as the other analyzers do
// (analyzers/internal/eventpath): work-queue workers and what they call,
// controller-runtime Reconcile methods, knative's ReconcileKind and kin,
// functions handed to wait.Until and its kin, and the functions stored in
// client-go's event-handler structs, followed through the package's
// helpers, method values, closures and func-typed fields. On it, it reports
// a call of a client builder:
//
//   - clients: a NewForConfig, NewForConfigOrDie or NewForConfigAndClient
//     of any package that returns a clientset (client-go's, a generated
//     one), a typed group client, the dynamic or metadata client;
//     discovery.NewDiscoveryClientForConfig and its kin; rest.RESTClientFor,
//     rest.UnversionedRESTClientFor, rest.HTTPClientFor;
//     controller-runtime's client.New and client.NewWithWatch. Recognised
//     by what they take and return, so generated clientsets are known
//     without a list;
//   - informer factories: a New... function of any package returning a
//     shared informer factory;
//   - controller-runtime's cache.New, cluster.New, manager.New and
//     ctrl.NewManager;
//
// when the config (or client) it is handed is the controller's own, the
// same on every event: a field of the controller or a package variable
// (also through a parameter that every call in the package passes one to,
// and through closures), rest.InClusterConfig(), ctrl.GetConfigOrDie(),
// ctrl.GetConfig(), a manager's GetConfig(), a rest.CopyConfig of one of
// those or a local copy of it with only client settings changed (QPS,
// Burst, UserAgent, Timeout, content types, API path), or a client built
// from one. And when the client is not kept: built in a sync.Once, stored
// in a field or package variable under a nil check of it or under a check
// that a map holds the key, put in a map, a sync.Map or a cache, or an
// informer or client taken from it kept so (also by the callers of the
// helper that returns it, and by a helper of the package it is handed to),
// it is built once.
//
// The message names the builder and the path that reaches it, from the
// root: "kubernetes.NewForConfig in (*ExecReconciler).Reconcile →
// (*ExecReconciler).execInPod builds a new client on every reconcile".
//
// # Wrong
//
//	func (r *PodExecReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
//		cs, err := kubernetes.NewForConfig(r.RestConfig) // a transport and a rate limiter per reconcile
//		if err != nil {
//			return ctrl.Result{}, err
//		}
//		return ctrl.Result{}, r.exec(ctx, cs, req)
//	}
//
// # Right
//
//	func (r *PodExecReconciler) SetupWithManager(mgr ctrl.Manager) (err error) {
//		if r.Clientset, err = kubernetes.NewForConfig(mgr.GetConfig()); err != nil {
//			return err
//		}
//		return ctrl.NewControllerManagedBy(mgr).For(&corev1.Pod{}).Complete(r)
//	}
//
//	func (r *PodExecReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
//		return ctrl.Result{}, r.exec(ctx, r.Clientset, req)
//	}
//
// # Fix
//
// Build the client once where the controller is built (main, New...,
// SetupWithManager) and keep it in the controller; with controller-runtime,
// use the manager's client, or mgr.GetAPIReader() to read around the cache.
// To build lazily, guard the build with a nil check of the field (under a
// lock) or a sync.Once. Read through the informer factory the controller
// starts at start-up instead of building one per event. A client for
// another QPS limit is still built once, from rest.CopyConfig, at start-up.
// No fix is suggested: where the client should live is the author's call.
//
// # Suppress
//
//	cs, err := kubernetes.NewForConfig(r.cfg) //ctrllint:ignore clientperreconcile runs once per CR creation, rarely
//
// A reason is required; see docs/README.md for file-wide suppression.
//
// # Not reported
//
//   - clients built from a config of their own: a kubeconfig read from a
//     Secret (clientcmd.RESTConfigFromKubeConfig), a config looked up by
//     cluster, a copy whose Host, credentials, TLS settings or impersonated
//     user are changed. A client per target cluster or user is a
//     multi-cluster or multi-tenant design, not the bug: the fix there is a
//     cache of clients by target (cluster-api replaced its client per
//     reconcile from the kubeconfig Secret, remote.NewClusterClient, with the
//     ClusterCacheTracker and then ClusterCache, which keep one client and
//     cache per workload cluster), and whether a controller needs one cannot
//     be told from its code;
//   - a config that comes from a parameter of a function nobody in the
//     package calls by name, from another package's function, or from a
//     local struct: unknown, so silent;
//   - a client built once: in main, New..., SetupWithManager, Start, or
//     anywhere off the per-event path; in a sync.Once (Do, OnceFunc,
//     OnceValue, OnceValues); stored in a field or package variable under a
//     nil check of it or a map-lookup check (also where the check is in the
//     caller that stores it), put in a map or a sync.Map, or in a cache's
//     Add, Set or Put; a factory whose informer is kept in a map (informers
//     started per resource type a controller learns of at run time). A
//     client stored in a field with no check is built again every time:
//     reported;
//   - a helper that returns the client to callers the package does not
//     call it from by name (its callers may keep it);
//   - test code: functions in _test.go files and functions handed a
//     *testing.T (or B, F, TB), and per-event roots declared there, since
//     a test's reconciler builds clients of its envtest or fake cluster on
//     purpose;
//   - transports and mappers built per event (rest.TransportFor,
//     apiutil.NewDynamicRESTMapper): not in the list yet;
//   - helpers of other packages that build a client inside: each package is
//     analysed on its own;
//   - code that runs per request but not per event: admission webhook
//     handlers, HTTP handlers, a manager.Runnable's Start. They are no
//     roots of the per-event path (a webhook that builds a clientset per
//     request has the same cost; spinnaker-operator's account validating
//     webhook was reviewed for it, PR 75);
//   - a value of the controller's type made on the path
//     (`tmp := &Reconciler{cfg: remote}`): it is not the controller, and
//     its fields are not the controller's own.
package clientperreconcile

import _ "embed"

// DocSource is this file: the single source of the analyzer's documentation.
//
//go:embed doc.go
var DocSource string
