// Package cachescope defines an Analyzer that reports cached reads and
// cache options that make a controller-runtime manager's cache hold every
// Secret, ConfigMap or Pod of the cluster.
//
// # Analyzer cachescope
//
// cachescope: report cached reads, empty ByObject entries and selecting predicates that leave a manager's cache holding every Secret, ConfigMap or Pod of the cluster
//
// A controller-runtime manager's client reads from the manager's cache,
// and the cache keeps one informer per kind: a Get or List of a kind no
// controller watches silently starts one, which lists and watches every
// object of that kind in every namespace the cache covers, holds them in
// memory for the life of the process, and needs the list and watch rights
// on all of them (without them the informer never syncs, and the read
// blocks). For Secrets, ConfigMaps and Pods, the most numerous and largest
// objects of a cluster, that is how operators are OOM-killed at start on
// big clusters while using a handful of them (k8ssandra-operator#1752,
// kubeflow/spark-operator#2878, securesign/secure-sign-operator#1755,
// kubernetes-sigs/mcp-lifecycle-operator#299), and how a heap dump comes to
// hold every Secret of the cluster.
//
// The cache options decide what the informer holds: cache.Options'
// DefaultNamespaces and ByObject (a Label or Field selector, Namespaces)
// limit it, client.CacheOptions' DisableFor sends a kind's reads to the API
// server. The manager is usually built in main, from options there, and
// the reconcilers read in other packages: each package of the analysed
// modules exports what it reads and watches (a package fact), and the
// package that calls ctrl.NewManager (manager.New) once reports with what
// the packages it reaches say. It reports:
//
//   - a Get or List of a Secret, ConfigMap or Pod (a typed object or list),
//     or a controllerutil.CreateOrUpdate or CreateOrPatch of one (which Gets
//     it first), through the manager's client (mgr.GetClient(), a struct field the
//     manager's package sets from it, such as a reconciler's embedded
//     client.Client, or a helper's parameter given one of these), when no
//     controller of the packages it reaches watches the kind with its
//     content (For, Owns, Watches, source.Kind, GetInformer, IndexField;
//     WatchesMetadata and builder.OnlyMetadata keep metadata only, and a
//     typed read starts a second, full informer; a watch of unstructured
//     objects has an informer of its own too), and the manager's
//     options neither limit the cache to namespaces on every path nor
//     restrict the kind (a ByObject entry with a selector, namespaces or a
//     transform; DisableFor): at the read when it is in the manager's
//     package, once per kind at the NewManager call otherwise, naming the
//     first read. When DefaultNamespaces is filled only on some paths (a
//     WATCH_NAMESPACE that may be empty, the cluster-wide mode), the
//     finding says so;
//   - a ByObject entry of a Secret, ConfigMap or Pod whose value is empty
//     (&corev1.ConfigMap{}: {}): it filters nothing beyond the cache's
//     defaults, and reads as if it did;
//   - a watch of a Secret, ConfigMap or Pod (For, Owns, Watches, with
//     builder.WithPredicates or the controller's WithEventFilter, or
//     source.Kind's own predicates) whose predicates select the objects
//     by their labels, name or namespace, as if that kept the others out
//     of the cache: a predicate filters the events the informer hands on,
//     and the informer still lists, watches and holds every object of the
//     kind (controller-runtime#3552; the review of Kong's
//     gateway-operator#1250). Such predicates are
//     predicate.LabelSelectorPredicate, and a filter given to
//     predicate.NewPredicateFuncs (NewTypedPredicateFuncs) that reads
//     nothing of its object but its labels, name and namespace (directly,
//     or of the typed object it asserts it is, as kubernetes-sigs/lws's
//     Pod controller does), alone or under predicate.And. It is reported when no other watch of the
//     packages keeps the kind without such a predicate (that watch wants
//     every object), and the options do not restrict the kind's informer
//     (a ByObject entry; DisableFor sends reads to the API server and
//     leaves the informer as it is), where the manager's reads are
//     reported. A namespace predicate under namespaces given on some runs
//     only is left alone.
//
// # Wrong
//
//	mgr, err := ctrl.NewManager(cfg, ctrl.Options{Scheme: scheme}) // reported: the Secret read below
//
//	func (r *BackupReconciler) getSecret(ctx context.Context, key types.NamespacedName) (*corev1.Secret, error) {
//		secret := &corev1.Secret{}
//		return secret, r.Get(ctx, key, secret) // r embeds mgr.GetClient(); no controller watches Secrets
//	}
//
// # Right
//
//	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
//		Scheme: scheme,
//		Client: client.Options{Cache: &client.CacheOptions{
//			DisableFor: []client.Object{&corev1.Secret{}}, // read live
//		}},
//	})
//
// or give the reconciler mgr.GetAPIReader() for its one-off reads, or
// restrict the cache to what the controller needs:
//
//	Cache: cache.Options{ByObject: map[client.Object]cache.ByObject{
//		&corev1.Secret{}: {Label: labels.SelectorFromSet(labels.Set{"app.kubernetes.io/managed-by": "my-operator"})},
//	}},
//
// # Fix
//
// For a kind read now and then (a credentials Secret the custom resource
// names, the Pods of a failing Deployment), read through
// mgr.GetAPIReader() (a client.Reader field of the reconciler) or list it
// in client.CacheOptions.DisableFor: each read goes to the API server, and
// the rights needed are get (and list), not watch. For a kind read on
// every reconcile, keep it cached but restrict the informer: a ByObject
// entry with a Label selector on the objects the operator creates and
// labels, a Field selector, or DefaultNamespaces. A selector hides the
// objects it leaves out from every cached read, so objects the user
// names (not labelled by the operator) need the API reader. No fix is
// suggested: which of these fits is the author's choice.
//
// # Suppress
//
//	mgr, err := ctrl.NewManager(cfg, opts) //ctrllint:ignore cachescope the operator runs namespaced only; the Helm chart always sets WATCH_NAMESPACE
//
// A reason is required; see docs/README.md for file-wide suppression.
//
// # Not reported
//
//   - kinds other than Secret, ConfigMap and Pod: an informer of every
//     Namespace, Node or of the operator's own kinds is cheap, or is what
//     the controller needs;
//   - predicates whose test is not followed here: predicate.Funcs and
//     types of the package implementing Predicate (each event has its own
//     test), predicate.Or and Not, a filter reading anything else of its
//     object (annotations, spec, an owner reference) or handing it to a
//     function of another package, and the predicates given to a
//     Controller's Watch with a source.Kind struct (before v0.15), whose
//     watches count as wanting every object;
//   - packages that build no manager, or more than one (which manager a
//     reconciler is given is not known), or build it in a function of
//     another package, and managers whose options are not followed: a
//     parameter, a value built in another package, an address handed to
//     a function, NewCache, NewClient, a custom reader, any Default label,
//     field selector or transform, ReaderFailOnMissingInformer (reads of
//     unwatched kinds then fail instead of starting an informer), a
//     ByObject map built in another package or holding an entry for a
//     kind not known here;
//   - a ByObject entry put in on some runs only (behind a flag, as
//     SAP's sap-btp-service-operator's EnableLimitedCache): it counts as
//     restricting its kind, since the analysis cannot tell which runs
//     users make;
//   - caches limited to namespaces on every path (a namespace value that
//     is not a literal, such as a flag, counts as one);
//   - reads through a client the manager's package does not set from
//     mgr.GetClient() (mgr.GetAPIReader(), client.New, a wrapper such as
//     client.WithFieldOwner, another cluster's client, a client kept in a
//     map or a cache of clients), through helpers of other packages that
//     take the client as a parameter, or of objects the analysis cannot
//     type (a client.Object parameter, unstructured.Unstructured,
//     PartialObjectMetadata, which are cached apart);
//   - any read when a watch of the packages names a kind not known here
//     (it may be the kind read), and kinds watched only by packages the
//     manager's package does not reach by name (a controller registered
//     from an init function of a blank import);
//   - code in _test.go files.
package cachescope

import _ "embed"

//go:embed doc.go
var DocSource string
