// Package patchbase defines an Analyzer that reports patches whose base is
// the object being changed: the patch is empty and the change is never sent.
//
// # Analyzer patchbase
//
// patchbase: report patches whose base is the object they patch, changed after the base was taken, so the patch is empty
//
// controller-runtime's client.MergeFrom(obj), MergeFromWithOptions and
// StrategicMergeFrom keep the pointer they are given as the patch's base;
// nothing is serialised until the patch is sent (mergeFromPatch.Data in
// sigs.k8s.io/controller-runtime/pkg/client/patch.go marshals the base and
// the object handed to Patch, then diffs them). A base taken from the object
// itself, followed by changes to that object and a Patch of it, diffs the
// object against itself: the patch is "{}" (with an optimistic lock, only
// the resourceVersion), the API call succeeds, and the change is silently
// never sent. A finalizer removed that way is never removed (the object
// stays terminating); a status condition set that way is never seen.
//
// The same happens with client-go's patch helpers when both documents are
// marshalled after the change: strategicpatch.CreateTwoWayMergePatch(old,
// new, ...) and json-patch's CreateMergePatch(old, new) of two
// json.Marshal(obj) with no change between them return "{}".
//
// The analyzer looks at each function (and function literal) on its own.
// For a MergeFrom, MergeFromWithOptions or StrategicMergeFrom call it finds
// where the patch it returns is sent together with its base object: a
// method named Patch that takes a client.Patch (client.Client's, the
// status and subresource writers', a narrow interface or wrapper of the
// same shape), the patch's own Data (which computes the same document),
// or a Patch in a closure deferred right after the MergeFrom, which sends
// it on return. It reports the MergeFrom when, on a path from it to the
// send that does not take the base again, the object is changed:
//
//   - a store into the object or into memory reached from it (a field, a
//     slice element or a map of a field: `obj.Spec.Replicas = ...`,
//     `obj.Labels[k] = v`, `obj.Status.Conditions[i].Status = ...`);
//   - a setter of metav1.Object, ObjectMeta, TypeMeta or Unstructured
//     (SetLabels, SetAnnotations, SetFinalizers, SetOwnerReferences, ...,
//     also through client.Object), metav1.SetMetaDataLabel and
//     SetMetaDataAnnotation, meta.SetStatusCondition and
//     RemoveStatusCondition, controllerutil.AddFinalizer, RemoveFinalizer,
//     SetControllerReference, SetOwnerReference and their Remove
//     counterparts, and unstructured.SetNestedField and its kin;
//   - a call of a function of the package that does one of these to the
//     parameter it is handed (a setDefaults(obj) or removeLabel(pod, k)),
//     to any depth within the package.
//
// The base and the object are the same when they are the same pointer (or
// an interface holding it), seen through conversions to client.Object and
// back, through a variable that closures capture but only read, and
// through a closure's free variables. For a patch of the status
// subresource (Status().Patch, SubResource(...).Patch) only changes to the
// object's Status field count: the API server takes nothing else from
// that patch, so metadata changed and sent with an Update is not lost.
//
// For CreateTwoWayMergePatch (and its UsingLookupPatchMeta form) and
// json-patch's CreateMergePatch (evanphx/json-patch v4, v5 and the gopkg.in
// path) it reports the call when both documents are json.Marshal (or
// apimachinery's util/json.Marshal) of the same object in the function,
// the original is marshalled before the modified one with nothing between
// them that changes the object or is handed it, and the object is changed
// (as above) somewhere before the original is marshalled.
//
// It also reports a snapshot taken with
// runtime.DefaultUnstructuredConverter.ToUnstructured and kept in a field
// of a struct of the package (a patch helper's "before") when the object
// converted may be an *unstructured.Unstructured: an interface value
// (runtime.Object, client.Object) or that pointer type, not a DeepCopy of
// it on any path, in a function that never asks whether it holds an
// Unstructured. For typed objects the converter copies by reflection, but
// for an Unstructured it returns the object's own map, so the snapshot
// changes with the object and the later comparison finds nothing to patch
// (cluster-api's patch.NewHelper until v0.2.4, commit ea238975bc).
//
// # Wrong
//
//	patch := client.MergeFrom(dep)
//	dep.Spec.Replicas = ptr.To(int32(3))
//	return r.Patch(ctx, dep, patch) // sends {}
//
// # Right
//
//	patch := client.MergeFrom(dep.DeepCopy())
//	dep.Spec.Replicas = ptr.To(int32(3))
//	return r.Patch(ctx, dep, patch)
//
// # Fix
//
// Take the base from a deep copy made before the change:
// client.MergeFrom(obj.DeepCopy()), or `orig := obj.DeepCopy()` first and
// client.MergeFrom(orig) at the Patch. The suggested fix rewrites the
// argument, `MergeFrom(obj)` to `MergeFrom(obj.DeepCopy())` and
// `MergeFrom(&obj)` to `MergeFrom(obj.DeepCopy())`, when the argument is a
// variable or a field and its type has the generated DeepCopy returning its
// own pointer type (a client.Object variable has none: no fix is offered;
// `obj.DeepCopyObject().(client.Object)` is the copy there). The copy is
// taken where the MergeFrom is, which precedes the change, so the patch
// then holds exactly the changes made between the two.
//
// For client-go style patches, marshal the original before changing the
// object (or marshal a DeepCopy taken before the change); no fix is
// suggested, the statement has to move.
//
// # Suppress
//
//	patch := client.MergeFrom(obj) //ctrllint:ignore patchbase the patch only carries the optimistic lock on purpose
//
// A reason is required; see docs/README.md for file-wide suppression.
//
// # Not reported
//
//   - MergeFrom(obj.DeepCopy()), a base copied with `orig := obj.DeepCopy()`
//     (or DeepCopyObject), and any base that is not the object handed to
//     Patch: changes made to a copy that is then patched against the
//     original are what MergeFrom is for (including a variable that points
//     at the original when the base is taken and at a copy when it is
//     patched);
//   - MergeFrom(obj) with no change to obj between it and the Patch (a
//     MergeFrom inside the Patch call), and changes made only before the
//     MergeFrom: the patch is empty too, but whether a change was meant for
//     it cannot be told from the code;
//   - a base changed after the Patch, including around a loop whose next
//     iteration takes a new base, and changes on paths that do not reach
//     the Patch;
//   - a status-subresource patch after changes outside Status only (they
//     are not meant for it);
//   - changes the analyzer cannot see: through a function of another
//     package, even of the same module (cluster-api's conditions.Set,
//     percona-server-mysql-operator's k8s.RemoveLabel), through a func value
//     or an interface method other than the setters above, in a closure,
//     a Get or json.Unmarshal into the object, a label map taken with
//     GetLabels and written without SetLabels, or through another variable
//     that aliases the object by a field;
//   - a patch handed to a helper rather than to a Patch method, a Patch in
//     a closure other than one deferred in the MergeFrom's block, and a base
//     or patch kept in a variable that is assigned twice or that a closure
//     writes;
//   - two-document patches (CreateTwoWayMergePatch, CreateMergePatch) whose
//     documents come from different objects, from a DeepCopy, from anything
//     but json.Marshal in the function, or between whose marshals the
//     object is handed to any call (it may change it); ones with no change
//     to the object before the original is marshalled; and
//     CreateThreeWayMergePatch, whose documents play other roles;
//   - ToUnstructured results that are not kept in a field of the
//     package's own structs (a converted "after" compared at once, an
//     unstructured.Unstructured{Object: m} built from it), conversions of
//     typed objects, and functions that test for runtime.Unstructured or
//     *unstructured.Unstructured (they copy it themselves);
//   - code in _test.go files: tests patch fake clients and sometimes build
//     empty patches on purpose to check what the client does with them.
package patchbase

import _ "embed"

// DocSource is this file: the single source of the analyzer's documentation.
//
//go:embed doc.go
var DocSource string
