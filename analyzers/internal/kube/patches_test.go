package kube_test

import (
	"go/types"
	"testing"

	"github.com/ctrllint/ctrllint/analyzers/internal/fixture"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// TestPatches checks the patch knowledge against the real packages of both
// fixture modules (controller-runtime v0.25 and v0.18).
func TestPatches(t *testing.T) {
	for _, module := range []string{"current", "legacy"} {
		t.Run(module, func(t *testing.T) {
			pkgs := fixture.Types(t, module, kube.CRClientPkg, kube.StrategicPatchPkg, kube.ControllerUtilPkg, kube.MetaPkg, kube.MetaV1Pkg)
			fn := func(path, name string) *types.Func {
				f, ok := pkgs[path].Scope().Lookup(name).(*types.Func)
				if !ok {
					t.Fatalf("%s.%s is not a function", path, name)
				}
				return f
			}
			method := func(path, typ, name string) *types.Func {
				obj, _, _ := types.LookupFieldOrMethod(pkgs[path].Scope().Lookup(typ).Type(), true, pkgs[path], name)
				m, ok := obj.(*types.Func)
				if !ok {
					t.Fatalf("%s.%s has no method %s", path, typ, name)
				}
				return m
			}
			for _, name := range []string{"MergeFrom", "MergeFromWithOptions", "StrategicMergeFrom"} {
				if !kube.IsMergeFromFunc(fn(kube.CRClientPkg, name)) {
					t.Errorf("client.%s is not recognised as a MergeFrom", name)
				}
			}
			for name, json := range map[string]bool{"MergeFrom": true, "MergeFromWithOptions": true, "StrategicMergeFrom": false, "RawPatch": false} {
				if kube.IsJSONMergeFromFunc(fn(kube.CRClientPkg, name)) != json {
					t.Errorf("IsJSONMergeFromFunc(client.%s) = %v", name, !json)
				}
			}
			lock := pkgs[kube.CRClientPkg].Scope().Lookup("MergeFromWithOptimisticLock").Type()
			if !kube.IsOptimisticLock(lock) || !kube.IsOptimisticLock(types.NewPointer(lock)) {
				t.Errorf("client.MergeFromWithOptimisticLock not recognised as the optimistic lock")
			}
			if kube.IsOptimisticLock(pkgs[kube.CRClientPkg].Scope().Lookup("MergeFromOptions").Type()) {
				t.Errorf("client.MergeFromOptions taken for the optimistic lock")
			}
			if kube.IsMergeFromFunc(fn(kube.CRClientPkg, "RawPatch")) {
				t.Errorf("client.RawPatch taken for a MergeFrom")
			}
			if !kube.IsTwoWayPatchFunc(fn(kube.StrategicPatchPkg, "CreateTwoWayMergePatch")) {
				t.Errorf("strategicpatch.CreateTwoWayMergePatch not recognised")
			}
			if kube.IsTwoWayPatchFunc(fn(kube.StrategicPatchPkg, "CreateThreeWayMergePatch")) {
				t.Errorf("strategicpatch.CreateThreeWayMergePatch taken for a two-way patch")
			}
			for _, typ := range []string{"Client", "Writer", "SubResourceWriter"} {
				if !kube.IsPatchSender(method(kube.CRClientPkg, typ, "Patch")) {
					t.Errorf("client.%s's Patch is not a patch sender", typ)
				}
			}
			if kube.IsPatchSender(method(kube.CRClientPkg, "Client", "Update")) {
				t.Errorf("client.Client's Update taken for a patch sender")
			}
			for _, tc := range []struct {
				f   *types.Func
				arg int
			}{
				{fn(kube.ControllerUtilPkg, "AddFinalizer"), 0},
				{fn(kube.ControllerUtilPkg, "SetControllerReference"), 1},
				{fn(kube.MetaPkg, "SetStatusCondition"), 0},
				{fn(kube.MetaV1Pkg, "SetMetaDataLabel"), 0},
				{method(kube.MetaV1Pkg, "ObjectMeta", "SetLabels"), 0},
				{method(kube.MetaV1Pkg, "Object", "SetFinalizers"), 0},
			} {
				if s, ok := kube.SetterOf(tc.f); !ok || s.Arg != tc.arg {
					t.Errorf("SetterOf(%s) = %+v, %v; want argument %d", tc.f.FullName(), s, ok, tc.arg)
				}
			}
			for _, f := range []*types.Func{
				fn(kube.ControllerUtilPkg, "ContainsFinalizer"),
				method(kube.MetaV1Pkg, "ObjectMeta", "GetLabels"),
				fn(kube.MetaPkg, "FindStatusCondition"),
			} {
				if _, ok := kube.SetterOf(f); ok {
					t.Errorf("SetterOf(%s): a reader taken for a change", f.FullName())
				}
			}
		})
	}
}
