// Package ownerkind defines an Analyzer that reports owner references whose
// kind or group is not their owner's.
//
// # Analyzer ownerkind
//
// ownerkind: report owner references whose kind or group is not their owner's
//
// The garbage collector finds an owner by the apiVersion and kind of the
// reference: it maps them to a resource and gets the object of that name
// there, then compares UIDs. A reference that names another kind than its
// owner's (a StatefulSet owner with the Deployment controllerKind copied
// from another controller, a sibling kind's GVK, the resource name "pods"
// for the kind Pod, an apiVersion without the group) points at an object
// that does not exist: the garbage collector deletes the child as an
// orphan, at once or after a restart of kube-controller-manager, while its
// owner lives on; and when no such kind is served it cannot resolve the
// reference and never collects the child when the owner goes.
// controller-runtime's EnqueueRequestForOwner, which matches owners by
// group and kind, also never sees the child's events.
//
// The analyzer decides from types and constants only. Where an owner
// reference is built — metav1.NewControllerRef(owner, gvk), a
// metav1.OwnerReference literal whose UID is the owner's (owner.UID,
// owner.GetUID()), client-go's apply configuration
// metav1ac.OwnerReference().WithAPIVersion(...).WithKind(...).WithUID(...)
// — it reports when:
//
//   - the owner's static type is a concrete API type: a struct embedding
//     metav1.ObjectMeta, of k8s.io/api (or the extension API servers') and
//     embedding metav1.TypeMeta, whose group is its package's GroupName and
//     whose kind is its name; or
//     of a custom API package of the module, whose group is its
//     GroupVersion or SchemeGroupVersion variable (kubebuilder's
//     groupversion_info.go, code-generator's register.go) and whose kind is
//     the one it is registered under (SchemeBuilder.Register(&Foo{}) beside
//     the type, scheme.AddKnownTypes(SchemeGroupVersion, &Foo{}) beside the
//     group version, AddKnownTypeWithName, cluster-api's init appending
//     &Foo{} to the objectTypes its addKnownTypes registers);
//   - and the kind, or the group, named is a constant that differs: string
//     constants, SchemeGroupVersion.WithKind("X"), schema.GroupVersionKind
//     and GroupVersion literals, schema.FromAPIVersionAndKind, gv.String(),
//     gvk.Kind, local variables given a value once, package-level variables
//     the package assigns only in their declaration (kubernetes' var
//     controllerKind = apps.SchemeGroupVersion.WithKind("ReplicaSet")), and
//     variables of an imported API package read from their declaration
//     (metering-operator's ReportQueryGVK = SchemeGroupVersion.WithKind(...);
//     what that package's own code assigns them later is not looked at).
//
// The report is on the kind that is wrong (the Kind field, the WithKind
// argument), else on the apiVersion, else on NewControllerRef.
//
// A function of the package that builds the reference from its parameters
// (an owner of interface type, a GroupVersionKind or kind string: kubernetes'
// addControllerRef(refs, owner metav1.Object, gvk), metering-operator's
// createPrestoTableCR(obj, gvk, ...)) is judged at each call, with the
// arguments' types and constants; the report is on the call.
//
// # Wrong
//
//	// copied from the Deployment controller
//	var controllerKind = apps.SchemeGroupVersion.WithKind("Deployment")
//
//	func newPod(set *apps.StatefulSet) *v1.Pod {
//		return &v1.Pod{ObjectMeta: metav1.ObjectMeta{
//			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(set, controllerKind)},
//		}}
//	}
//
//	controllerGVK = corev1.SchemeGroupVersion.WithKind("pods") // the resource, not the kind
//
//	op.createPrestoTableCR(dataSource, v1alpha1.ReportQueryGVK, ...) // a ReportDataSource owner
//
// # Right
//
//	var controllerKind = apps.SchemeGroupVersion.WithKind("StatefulSet")
//
//	gvk, err := apiutil.GVKForObject(owner, r.Scheme) // or controllerutil.SetControllerReference
//
// # Fix
//
// Name the owner's kind and group: its package's
// SchemeGroupVersion.WithKind with the Go type's name, or ask the scheme
// (apiutil.GVKForObject, controllerutil.SetControllerReference). With
// -fix, a kind written as a string literal in the reference itself
// (Kind: "Deployment", WithKind("Deployment") inline) whose group is right
// is replaced by the owner's kind; a kind from a variable, a constant or a
// helper's argument is left to you, since other references may use it.
//
// # Suppress
//
//	ref := metav1.NewControllerRef(rs, rcKind) //ctrllint:ignore ownerkind the ReplicaSet is a converted ReplicationController
//
// A reason is required; see docs/README.md for file-wide suppression.
//
// # Not reported
//
//   - a GVK from the scheme (apiutil.GVKForObject,
//     controllerutil.SetControllerReference and SetOwnerReference), from the
//     object (u.GroupVersionKind() of an unstructured or typed object), from
//     a struct field (kubernetes' replication manager runs the ReplicaSet
//     controller on converted ReplicationControllers with a
//     ReplicationController kind in rsc.GroupVersionKind), a parameter, or a
//     variable given values more than once;
//   - an owner of interface or unstructured type (client.Object,
//     metav1.Object) outside a helper's call, a type not embedding
//     ObjectMeta, a template (PodTemplateSpec embeds ObjectMeta but no
//     TypeMeta: no kind), and a custom type whose package has no group version
//     variable or whose registration is not beside its type or its group
//     version;
//   - a reference whose UID and name come from different objects, or that
//     names no owner's UID;
//   - another version of the owner's group and kind (apps/v1beta2 for an
//     apps/v1 StatefulSet): the garbage collector finds the same object
//     through any served version (kubernetes PR #92743 keeps children that
//     point at a non-preferred served version);
//   - the groups that serve the same kinds from the same storage
//     (extensions and apps, networking.k8s.io, policy; core and
//     events.k8s.io);
//   - the group, when the owner's package takes it from a constant of a
//     package the analysed one does not import directly and that is not
//     beside it in its module (cert-manager's Group:
//     certmanager.GroupName, in the parent directory of the version
//     package, is read from its source): only the kind is compared;
//   - variables of a package the analysed one does not import directly,
//     and helpers of other packages (kubernetes' history.NewControllerRevision
//     is judged in its own package, where its owner is an interface);
//   - everything in _test.go files: tests build references of other kinds
//     on purpose (adoption and orphaning cases).
package ownerkind

import _ "embed"

// DocSource is this file: the single source of the analyzer's documentation.
//
//go:embed doc.go
var DocSource string
