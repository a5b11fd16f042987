// Package rbacmarkers defines an Analyzer that reports +kubebuilder:rbac
// markers out of step with the calls the code makes.
//
// # Analyzer rbacmarkers
//
// rbacmarkers: report API calls no +kubebuilder:rbac marker grants, and rbac markers controller-gen never reads
//
// A kubebuilder or operator-sdk project does not write its ClusterRole:
// controller-gen generates it (config/rbac/role.yaml) from the
// +kubebuilder:rbac markers in the code. A call the markers do not grant
// is refused by the API server once the controller runs in a cluster
// ("jobs.batch is forbidden: User ... cannot list resource jobs"), though
// every test against envtest or a cluster-admin kubeconfig passed. A read
// through the manager's client is served by an informer, which lists and
// watches: without those verbs the informer retries forever and the read
// blocks until its context ends. And controller-gen reads rbac markers
// only at package level: a marker in a func's doc comment (no blank line
// between the markers and "// Reconcile ..."), in a type's doc comment, in
// a function body or in a _test.go file is silently dropped, and the role
// lacks all it grants (VictoriaMetrics/operator#2543: every marker of the
// operator sat directly above its Reconcile funcs).
//
// The analyzer reads the markers as controller-tools does
// (pkg/markers/collect.go: which comment groups of a file are package
// markers; pkg/rbac/parser.go: groups, resources with /subresource,
// resourceNames, verbs, urls, namespace; lists a;b or {a,b}; core for the
// core group), and reports:
//
//   - markers controller-gen does not read, one finding for those of one
//     comment group, where they are: in the doc comment of a func, method
//     or type, var or const declaration; in a function body, a struct, a
//     var block; an end-of-line comment; in a _test.go file;
//   - in a package that has markers controller-gen reads, a call of the
//     manager's clients that no grant covers. The grants are the markers
//     of the package, then those of every other package of the module
//     (controller-gen usually runs on the whole module, paths="./...",
//     and writes one role), then the rules of the Roles and ClusterRoles
//     written by hand in the module's YAML (kueue's
//     manager_secrets_role.yaml, a Helm chart's role), but the role
//     controller-gen generates (its roleName in the Makefile,
//     manager-role by default); the other packages and the YAML are read
//     from disk, only when the package's own markers leave a call
//     ungranted.
//
// The calls and what they need:
//
//   - controller-runtime's Create, Update, Patch, Delete and DeleteAllOf
//     (create, update, patch, delete, deletecollection),
//     Status().Update and Patch and SubResource("name") writes (update or
//     patch on resource/status or resource/name), of an object of a
//     concrete type;
//   - Get and List: through the manager's cached client they read from
//     its cache, whose informer needs list and watch; through the API
//     reader they need get or list; through a client.Reader the analyzer
//     cannot place, or when the manager's setup may read around the cache
//     (DisableFor, ClientDisableCacheFor, a NewClient or client.New beside
//     NewManager), only what both ways would need is asked: a Get is
//     reported when neither get nor list and watch is granted, a List
//     without list;
//   - controllerutil.CreateOrUpdate and CreateOrPatch: the read, create,
//     and update or patch;
//   - watches that start an informer (builder For, Owns and Watches,
//     source.Kind and GetInformer on the manager's cache): list and
//     watch;
//   - the calls of the controller's typed clientset (get, list, watch,
//     create, update, patch, delete, deletecollection, UpdateStatus and
//     ApplyStatus on status, Apply);
//   - SetControllerReference (controllerutil's or ctrl's) and
//     metav1.NewControllerRef: they set blockOwnerDeletion on the
//     reference to the owner, and a cluster running the
//     OwnerReferencesPermissionEnforcement admission plugin (OpenShift
//     does) then refuses to create or update the object without update on
//     the owner's resource/finalizers (kueue#1485, lws#249), the marker
//     kubebuilder scaffolds for every kind. -rbacmarkers.finalizers=false
//     turns this off for controllers that never run on such clusters.
//
// The manager's clients are those it hands out, by their shape: a
// reconciler's embedded client.Client, a field holding a controller-runtime
// client or a typed clientset, mgr.GetClient() and mgr.GetAPIReader(). A
// client in a local variable or a parameter may be any cluster's
// (cluster-api reads and deletes the Nodes of workload clusters through
// clients its ClusterCache builds), and so may a field named for another
// cluster (RemoteClient, GuestClient, HubClient): their calls are left
// alone.
//
// A grant covers a call as the RBAC authorizer matches it: the group or
// "*"; the resource, resource/subresource, "*" or "*/subresource"; the
// verb or "*". The resource of a type is its group (the GroupName
// constant of its package, as in k8s.io/api; else the package's
// +groupName marker; else the Group of its GroupVersion) and the plural of
// its kind: for k8s.io/api apimachinery's guess
// (meta.UnsafeGuessKindToResource), right for every built-in kind; for a
// custom kind its +kubebuilder:resource:path, else any regular English
// plural of the kind, as controller-gen names the CRD.
// -rbacmarkers.resources names the others: Kind.group=plural pairs
// separated by commas (Person.example.com=people).
//
// # Wrong
//
//	// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get;list;watch;create
//
//	func (r *CronJobReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
//		...
//		if err := r.Delete(ctx, job, client.PropagationPolicy(metav1.DeletePropagationBackground)); err != nil { // no marker grants delete
//
//	// +kubebuilder:rbac:groups=core,resources=secrets,verbs=get
//	...
//	err := r.Get(ctx, key, &secret) // from the cache: its informer lists and watches secrets
//
//	// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;create;update
//	// Reconcile moves the cluster towards the spec.
//	func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // the markers are its doc comment
//
// # Right
//
//	// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get;list;watch;create;delete
//	// +kubebuilder:rbac:groups=core,resources=secrets,verbs=get;list;watch
//	// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;create;update
//
//	// Reconcile moves the cluster towards the spec.
//	func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
//
// # Fix
//
// Add the verbs the message names to the markers, then run make
// manifests; or read a kind the controller must not watch cluster-wide
// through the API reader. Put markers in a comment block of their own,
// separated by a blank line from the doc comment below.
//
// With -fix, a missing permission gets its marker, after the last marker
// controller-gen reads in the call's file (else in its package): every
// finding of that place gets the same edit, which adds what all of them
// lack. Markers that open the doc comment of a declaration are
// separated from the rest by a blank line; markers further down a doc
// comment are moved above it. Markers elsewhere are left to you.
//
// # Suppress
//
//	if err := r.Create(ctx, &quota); err != nil { //ctrllint:ignore rbacmarkers granted by the aggregated ClusterRole the platform binds to every operator
//
// A reason is required; see docs/README.md for file-wide suppression.
//
// # Not reported
//
//   - the calls of a package without markers controller-gen reads: a
//     project without markers manages RBAC by hand, and a package whose
//     calls are granted by markers elsewhere (helpers called from the
//     controller package, markers in main.go) is not checked, since the
//     analyzer cannot tell which role binds its callers;
//   - calls through a client in a local variable or parameter, or in a
//     field named for another cluster (above), and through helpers that
//     take the client; calls on objects of interface type (client.Object
//     in a helper), unstructured and metadata-only objects; server-side
//     Apply of an apply configuration; typed clients' other methods
//     (GetLogs, Bind, Evict, the scale subresource); event recorders,
//     leader election, client-go informer factories;
//   - what a role outside the module grants (an aggregated ClusterRole, a
//     chart in another repository), and which ServiceAccount the module's
//     hand-written roles are bound to: any of their rules counts;
//   - markers controller-gen reads but is not run on (a paths= argument
//     that leaves the package out): the Makefile is not read for that;
//   - a marker controller-gen cannot parse (an unknown argument, no
//     verbs): controller-gen fails loudly on it; and a comment that is
//     not a marker at all (// kubebuilder:rbac without the +);
//   - a marker's namespace (a Role in that namespace, not the
//     ClusterRole) and resourceNames: the analyzer does not know the
//     namespace or name a call reaches, and takes them to grant;
//   - in a kubebuilder v1 project (its go.mod requires controller-runtime
//     or controller-tools v0.1, or its Gopkg.lock pins controller-tools
//     v0.1), markers in doc comments: that controller-gen read every
//     marker, and every marker counts there;
//   - finalizers: adding or removing them is an update of the object, and
//     resource/finalizers is checked only by the admission plugin above,
//     for blockOwnerDeletion; SetOwnerReference, which does not set it,
//     SetControllerReference with options, and owner references built
//     by hand or in apply configurations (WithBlockOwnerDeletion);
//   - calls in _test.go files: tests use fake clients or envtest's
//     administrator.
package rbacmarkers

import _ "embed"

// DocSource is this file: the single source of the analyzer's documentation.
//
//go:embed doc.go
var DocSource string
