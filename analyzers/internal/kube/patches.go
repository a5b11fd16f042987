package kube

import (
	"go/types"
)

// Packages that compute patches from two serialised objects.
const (
	StrategicPatchPkg = "k8s.io/apimachinery/pkg/util/strategicpatch"
	// JSONPatchPkgs are evanphx/json-patch's import paths: v4 under its
	// own path (client-go's dependency before v0.32) and at gopkg.in, and
	// v5 (controller-runtime's).
	jsonPatchV4   = "github.com/evanphx/json-patch"
	jsonPatchV4In = "gopkg.in/evanphx/json-patch.v4"
	jsonPatchV5   = "github.com/evanphx/json-patch/v5"
)

// IsMergeFromFunc reports whether fn is one of controller-runtime's patch
// constructors that keep the object they are given as the patch's base
// and serialise it only when the patch's Data is called, that is when the
// patch is sent (client/patch.go, mergeFromPatch.Data): MergeFrom,
// MergeFromWithOptions and StrategicMergeFrom. Their first argument is
// the base.
func IsMergeFromFunc(fn *types.Func) bool {
	return IsFunc(fn, CRClientPkg, "MergeFrom") || IsFunc(fn, CRClientPkg, "MergeFromWithOptions") ||
		IsFunc(fn, CRClientPkg, "StrategicMergeFrom")
}

// IsJSONMergeFromFunc reports whether fn is one of the IsMergeFromFunc
// constructors whose patch is a JSON merge patch (RFC 7386,
// types.MergePatchType): MergeFrom and MergeFromWithOptions. Such a patch
// replaces a list it holds as a whole (metadata.finalizers among them),
// and carries metadata.resourceVersion only with the optimistic lock
// (IsOptimisticLock). StrategicMergeFrom is not one: its patch merges the
// lists whose Go field says patchStrategy:"merge".
func IsJSONMergeFromFunc(fn *types.Func) bool {
	return IsFunc(fn, CRClientPkg, "MergeFrom") || IsFunc(fn, CRClientPkg, "MergeFromWithOptions")
}

// IsOptimisticLock reports whether t is client.MergeFromWithOptimisticLock
// (or a pointer to it), the MergeFromOption that puts the base's
// resourceVersion into the patch, so that the API server refuses it with a
// Conflict when the object changed since the base was read.
func IsOptimisticLock(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	return Is(t, CRClientPkg, "MergeFromWithOptimisticLock")
}

// IsTwoWayPatchFunc reports whether fn computes a patch from an original
// and a modified document, its first two arguments ([]byte):
// strategicpatch.CreateTwoWayMergePatch (and its UsingLookupPatchMeta
// form) and json-patch's CreateMergePatch. Equal documents give the empty
// patch "{}".
func IsTwoWayPatchFunc(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	switch path := fn.Pkg().Path(); path {
	case StrategicPatchPkg:
		return IsFunc(fn, path, "CreateTwoWayMergePatch") || IsFunc(fn, path, "CreateTwoWayMergePatchUsingLookupPatchMeta")
	case jsonPatchV4, jsonPatchV4In, jsonPatchV5:
		return IsFunc(fn, path, "CreateMergePatch")
	}
	return false
}

// IsPatchSender reports whether fn is a method that sends a patch: a
// method named Patch whose parameters include a controller-runtime
// client.Patch (client.Client's and client.Writer's Patch, the status and
// subresource writers' Patch, and wrappers and fakes with their shape).
func IsPatchSender(fn *types.Func) bool {
	if fn == nil || fn.Name() != "Patch" {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return false
	}
	for i := range sig.Params().Len() {
		if Is(sig.Params().At(i).Type(), CRClientPkg, "Patch") {
			return true
		}
	}
	return false
}
