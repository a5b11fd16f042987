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
//     original are what MergeFrom is for;
//   - MergeFrom(obj) with no change to obj between it and the Patch (a
//     MergeFrom inside the Patch call), and changes made only before the
//     MergeFrom: the patch is empty too, but whether a change was meant for
//     it cannot be told from the code;
//   - a base changed after the Patch, including around a loop whose next
//     iteration takes a new base;
//   - changes the analyzer cannot see: through a function of another
//     package (cluster-api's conditions.Set), through a func value or an
//     interface method, in a closure, a Get or json.Unmarshal into the
//     object, or through another variable that aliases it by a field;
//     changes through the package's own functions handed the object are
//     seen (a setDefaults(obj) that stores into it);
//   - a patch handed to a helper rather than to a Patch method, and a base
//     or patch kept in a variable that a closure captures;
//   - two-document patches (CreateTwoWayMergePatch, CreateMergePatch) whose
//     documents come from different objects, from a DeepCopy, from anything
//     but json.Marshal in the function, or between whose marshals the
//     object is handed to any call (it may change it); and ones with no
//     change to the object before the original is marshalled;
//   - code in _test.go files: tests patch fake clients and sometimes build
//     empty patches on purpose to check what the client does with them.
package patchbase

import _ "embed"

// DocSource is this file: the single source of the analyzer's documentation.
//
//go:embed doc.go
var DocSource string
