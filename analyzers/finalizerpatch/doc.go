// Package finalizerpatch defines an Analyzer that reports finalizers
// changed and sent in a JSON merge patch without the optimistic lock.
//
// # Analyzer finalizerpatch
//
// finalizerpatch: report finalizers changed and sent with client.MergeFrom without the optimistic lock, whose merge patch replaces the whole list
//
// controller-runtime's client.MergeFrom(base) (and MergeFromWithOptions
// without options) computes a JSON merge patch (RFC 7386,
// types.MergePatchType) from the base to the object handed to Patch
// (mergeFromPatch.Data in sigs.k8s.io/controller-runtime/pkg/client/patch.go).
// A merge patch cannot change part of a list: when the finalizers differ,
// it holds the object's whole new list, and the API server replaces the
// stored list with it. Unless client.MergeFromWithOptimisticLock{} is
// given, the patch carries no resourceVersion, so the server applies it to
// whatever the object is now. A finalizer another controller added after
// this one read the object (from its cache, often seconds old) is not in
// the list sent, and is gone: that controller's cleanup is skipped when the
// object is deleted (kubermatic issue 6759: the OpenStack provider's
// finalizers disappeared; tigera/operator PR 4492: the whisker and goldmane
// controllers overwrote each other's finalizer on the Installation;
// karpenter PR 1658 locked its NodeClaim finalizer patch). A finalizer
// removed the same way can also bring back one that another controller
// removed, which the API server refuses on an object being deleted
// (cluster-api's two MachineSet controllers retry on that Invalid error).
// With the optimistic lock the patch holds the base's resourceVersion and
// fails with a Conflict instead.
//
// For each client.MergeFrom(base), or MergeFromWithOptions(base, ...)
// whose options are listed at the call and include no
// MergeFromWithOptimisticLock, the analyzer finds the Patch calls that send
// the patch (a method named Patch taking a client.Patch: client.Client's,
// a wrapper or fake of that shape) for an object obj, where base and obj
// are one object's two states: base is obj.DeepCopy() (or
// DeepCopyObject(), also through a type parameter's DeepCopy), or obj is
// base.DeepCopy(). It reports the MergeFrom
// when, on a path from that copy to the Patch, obj's finalizers change:
//
//   - controllerutil.AddFinalizer or RemoveFinalizer, SetFinalizers (of
//     metav1.Object, so also through client.Object, of ObjectMeta, of
//     Unstructured) called on obj;
//   - a store to obj.Finalizers (obj.ObjectMeta.Finalizers), or to one of
//     its elements;
//   - a call of a function of the package, or of an exported function of
//     another package of the module (a kuberneteshelper.AddFinalizer), that
//     does one of these to the parameter it is handed, to any depth;
//   - a call of a func-valued parameter on obj (an updateCluster(ctx,
//     cluster, modify) that copies, runs modify and patches) when some call
//     of that function in the package hands it a function or func literal
//     that changes the finalizers of its argument.
//
// The analyzer looks at each function (and function literal) on its own;
// the copy, the change and the Patch are in the same function.
//
// # Wrong
//
//	patch := client.MergeFrom(app.DeepCopy())
//	controllerutil.AddFinalizer(app, appFinalizer)
//	return r.Patch(ctx, app, patch) // replaces the whole finalizers list
//
// # Right
//
//	patch := client.MergeFromWithOptions(app.DeepCopy(), client.MergeFromWithOptimisticLock{})
//	controllerutil.AddFinalizer(app, appFinalizer)
//	return r.Patch(ctx, app, patch) // a Conflict if app changed since it was read
//
// # Fix
//
// Add the optimistic lock: the suggested fix rewrites
// `client.MergeFrom(base)` to `client.MergeFromWithOptions(base,
// client.MergeFromWithOptimisticLock{})`, and adds the lock after the
// options of a MergeFromWithOptions call, with the name the file gives
// controller-runtime's client package. The patch then fails with a
// Conflict error when the object changed since the base was read (the
// lock needs the base's resourceVersion: a base copied from an object read
// from the API server has one). Return that error from Reconcile:
// controller-runtime requeues the request on an error, and the next
// reconcile reads the current object, finalizers included, and patches
// again. An Update of the object, which always sends its resourceVersion,
// is right too.
//
// # Suppress
//
//	patch := client.MergeFrom(app.DeepCopy()) //ctrllint:ignore finalizerpatch no other controller sets finalizers on App objects
//
// A reason is required; see docs/README.md for file-wide suppression.
//
// # Not reported
//
//   - patches with the optimistic lock, and MergeFromWithOptions whose
//     options are an interface value or a slice spread at the call
//     (opts...): it may hold the lock (kubermatic's clusterUpdater adds it
//     when the finalizers changed);
//   - client.StrategicMergeFrom: ObjectMeta.Finalizers is
//     patchStrategy:"merge", so a strategic merge patch names only the
//     finalizers added, and those removed in a $deleteFromPrimitiveList
//     directive, and the server merges them into the current list
//     (strategicpatch.CreateTwoWayMergePatch). It loses a concurrent
//     addition only when the last finalizer goes and the field is left out
//     of the object, which the patch then sets to null (gardener PR 4696
//     adds with strategic merge patches for that reason, and removes with
//     the lock); and custom resources do not accept strategic merge
//     patches at all;
//   - a patch of the status subresource (Status().Patch,
//     SubResource(...).Patch): the API server's status strategies take
//     the finalizers from the stored object
//     (metav1.ResetObjectMetaForStatus);
//   - Update, which sends the resourceVersion; client.Apply and
//     server-side apply, where the finalizers list is a set merged by
//     field ownership; client.Merge, which sends the whole object and its
//     resourceVersion;
//   - MergeFrom patches that change no finalizers (labels, annotations,
//     which are maps and merged key by key, spec fields), finalizers
//     changed before the base is copied (the patch holds no list), and a
//     base that is not a DeepCopy of the patched object or the other way
//     round in the same function (a base read separately, an object built
//     in the code);
//   - controllerutil.CreateOrPatch: it patches with a MergeFrom of its
//     own, so a mutate function that adds a finalizer sends the whole list
//     too, but the call takes no patch option; add the finalizer with a
//     patch of its own;
//   - client.RawPatch and patches computed from two documents
//     (jsonpatch.CreateMergePatch, as kubernetes-csi's external-attacher
//     did until PR 707, which moved to a JSON patch): what they hold is
//     not traced;
//   - changes the analyzer cannot see: through an interface method other
//     than the setters above (a reconciler interface's ReconcileResource),
//     a func value other than a parameter of the function, a function of
//     another module, a closure called in place, or through another
//     variable that aliases the object;
//   - a copy taken in one function and patched in another, a closure
//     among them (a deferred func literal that patches on return), a
//     deferred Patch call, and a patch handed to a helper rather than to a
//     Patch method;
//   - code in _test.go files: tests patch fake clients, where no other
//     controller races.
package finalizerpatch

import _ "embed"

// DocSource is this file: the single source of the analyzer's documentation.
//
//go:embed doc.go
var DocSource string
