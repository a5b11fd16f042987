// Package sharedowner defines an Analyzer that reports owner references
// that make the garbage collector delete shared objects, or that it treats
// as absent.
//
// # Analyzer sharedowner
//
// sharedowner: report owner references on shared, cross-namespace or cluster-scoped children
//
// An owner reference ties a child's life to its owner's: when the owner is
// deleted, the garbage collector deletes the child (foreground or background
// cascading deletion), unless other owners remain. The Kubernetes
// documentation ("Owners and dependents",
// https://kubernetes.io/docs/concepts/overview/working-with-objects/owners-dependents/)
// spells out what happens when a reference does not fit:
//
//   - "Cross-namespace owner references are disallowed by design.
//     Namespaced dependents can specify cluster-scoped or namespaced owners.
//     A namespaced owner must exist in the same namespace as the dependent.
//     If it does not, the owner reference is treated as absent, and the
//     dependent is subject to deletion once all owners are verified absent."
//   - "Cluster-scoped dependents can only specify cluster-scoped owners. In
//     v1.20+, if a cluster-scoped dependent specifies a namespaced kind as an
//     owner, it is treated as having an unresolvable owner reference, and is
//     not able to be garbage collected."
//   - In both cases the garbage collector reports a warning event with reason
//     OwnerRefInvalidNamespace on the dependent.
//
// And an object that several owners share is deleted as soon as the owner
// holding its controller reference goes (or, with plain owner references,
// when the last one goes) — taking with it what every other owner relied on.
//
// Where an owner or controller reference is set — metav1.NewControllerRef,
// a metav1.OwnerReference literal, SetOwnerReferences, an append to
// OwnerReferences, controller-runtime's controllerutil.SetControllerReference
// and SetOwnerReference — the analyzer follows the child within the function
// (its literal's ObjectMeta, later field stores and setters) and reports:
//
//   - a child whose name is a constant (a literal, a const, a package-level
//     string): every owner claims the same object;
//   - a child with a controller reference whose name is built, with
//     constants only, from the name of another object its owner references
//     (a LocalObjectReference or other *Ref/*Reference field, a key
//     selector, an IngressTLS's secretName, or a spec string the function
//     reads an object by), directly or through a variable or an object read
//     by that name: every owner that references the same object claims the
//     same child, the second one's Create fails or it takes the child over,
//     and deleting the first deletes it for all;
//   - a child placed in another namespace than its namespaced owner's (a
//     constant namespace, or another object's namespace);
//   - a cluster-scoped child (Namespace, Node, PersistentVolume, ClusterRole,
//     ClusterRoleBinding, StorageClass, CustomResourceDefinition, webhook
//     configurations, PriorityClass, ..., and custom types marked
//     +kubebuilder:resource:scope=Cluster) of a namespaced owner;
//   - the dropped error of SetControllerReference or SetOwnerReference, which
//     is how controller-runtime reports an object already controlled by
//     another owner, or an invalid cross-namespace or cluster-scoped reference;
//   - a controller reference set on an existing object (read from a lister
//     or a client Get) without checking who controls it: it may be shared.
//
// The reference may come from a local variable given it once (ownerRef :=
// metav1.NewControllerRef(eps, gvk)), or from a helper of the package or of
// a package of the module it calls: a function that returns an owner reference
// (or a slice holding one) to one of its parameters on every path that
// returns one (ownerRef := util.GetFooOwnerRef(foo), or asOwner(&foo.ObjectMeta)
// from the owner's metadata), that sets one naming a parameter on another
// (util.SetOwner(child, foo)), or that sets the reference it is handed
// (addOwnerRefToObject(child, ref)). The owner is then the argument the
// helper was given. A helper that checks who controls
// the child (metav1.GetControllerOf) gives a plain reference, for the
// checks that ask. Helpers of other packages are summarised when their
// package is analysed, by what they do themselves.
//
// # Wrong
//
//	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
//		Name:            "proxy-config", // every Proxy owns the same ConfigMap
//		Namespace:       "kube-system",  // not the owner's namespace
//		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(proxy, gvk)},
//	}}
//
//	controllerutil.SetControllerReference(proxy, cm, r.Scheme) // error dropped
//
//	ca := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
//		Name:      proxy.Spec.CARef.Name + "-ca", // every Proxy of that CA owns it
//		Namespace: proxy.Namespace,
//	}}
//
//	ownerRef := util.GetProxyOwnerRef(proxy) // a reference to the namespaced Proxy
//	role := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{
//		Name:            proxy.Namespace + "-" + proxy.Name,
//		OwnerReferences: []metav1.OwnerReference{*ownerRef}, // never collected
//	}}
//
// # Right
//
//	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
//		Name:      proxy.Name + "-config",
//		Namespace: proxy.Namespace,
//	}}
//	if err := controllerutil.SetControllerReference(proxy, cm, r.Scheme); err != nil {
//		return ctrl.Result{}, err
//	}
//
//	ca := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
//		Name:      proxy.Name + "-" + proxy.Spec.CARef.Name + "-ca",
//		Namespace: proxy.Namespace,
//	}}
//
// # Fix
//
// Name children after their owner (owner.Name + "-suffix", or GenerateName;
// a copy of a referenced object after both, owner.Name + "-" + ref.Name),
// create them in the owner's namespace, and check the error of
// SetControllerReference. For an object that is shared on purpose, or lives
// elsewhere (a cluster-scoped object, another namespace), do not use an
// owner reference: clean it up with a finalizer on the owner, or label it and
// garbage-collect it yourself. Before taking control of an existing object,
// check metav1.GetControllerOf (or adopt through a controller-ref manager).
//
// # Suppress
//
//	Name: "cluster-config", //ctrllint:ignore sharedowner the owner is a singleton named "cluster"
//
// A reason is required; see docs/README.md for file-wide suppression.
//
// # Not reported
//
//   - children named after their owner (owner.Name + "-x",
//     fmt.Sprintf("%s-x", owner.Name)), with GenerateName, or with a name
//     computed at run time;
//   - children named after a referenced object and the owner together
//     (owner.Name + "-" + ref.Name), or with any part this function cannot
//     trace (a parameter, a call other than fmt.Sprintf): it may be the
//     owner's;
//   - a child named exactly after a spec string the function reads an
//     object by (cert-manager's Secret named spec.secretName, read to see
//     whether it exists): the child is that object, the owner's own output;
//     a spec string no object is read by (it may be the owner's output name);
//   - children named after another object with a plain owner reference (the
//     garbage collector keeps a shared object until its last owner goes), or
//     in a function that checks who controls the object
//     (metav1.IsControlledBy: cert-manager's ingress-shim leaves another
//     Ingress's Certificate alone);
//   - children in their owner's namespace, in a namespace held in a plain
//     variable or a request (req.Namespace), or with no namespace;
//   - namespaced children of cluster-scoped owners (allowed);
//   - a child of fixed name that a Namespace owns inside itself (Namespace:
//     ns.Name): each Namespace has its own;
//   - owners and children of unknown scope (interfaces, unstructured objects,
//     custom types without kubebuilder markers);
//   - owner references that name no owner variable (an OwnerReference
//     literal of constants), and everything in _test.go files: that is test
//     data, not a controller creating children;
//   - references from a helper that returns, on some path, one that names
//     no parameter of its own (metav1.GetControllerOf(obj), a field of its
//     parameter, another helper's result), or from a variable given a
//     reference more than once;
//   - a reference a helper hands to another call before setting it (it
//     may be filtered out: cluster-api's RemoveOwnerRef);
//   - helpers that set the reference through controller-runtime's setters
//     (checked in the helper's own body), or through a returned closure (a
//     functional option);
//   - adoption through a controller-ref manager or after checking
//     metav1.GetControllerOf / IsControlledBy, and controller-runtime's
//     SetControllerReference with its error checked (it refuses an object
//     controlled by someone else).
package sharedowner

import _ "embed"

// DocSource is this file: the single source of the analyzer's documentation.
//
//go:embed doc.go
var DocSource string
