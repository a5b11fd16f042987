package patchbase

import (
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// runtimePkg holds runtime.DefaultUnstructuredConverter.
const runtimePkg = "k8s.io/apimachinery/pkg/runtime"

// A snapshot taken with runtime.DefaultUnstructuredConverter.ToUnstructured
// is a copy for a typed object (the converter walks it by reflection) but
// not for an *unstructured.Unstructured: ToUnstructured returns the
// object's own map (UnstructuredContent, in apimachinery v0.17 as in
// v0.37). A patch helper that keeps
// such a snapshot as its "before" compares the object with itself and sends
// nothing; cluster-api's patch.NewHelper did until v0.2.4 (commit
// ea238975bc), which deep-copies an Unstructured first.

// unstructuredSnapshot reports a ToUnstructured call whose result is kept
// in a field of a struct of the package (the base of a later comparison) when its argument may
// be an *unstructured.Unstructured: an interface value or that pointer
// type, not a DeepCopy of it on any path, in a function that never asks
// whether it holds an Unstructured.
func (c *checker) unstructuredSnapshot(fn *ssa.Function, call *ssa.Call) {
	args := call.Common().Args
	if len(args) == 0 {
		return
	}
	obj := args[len(args)-1]
	if mi, ok := obj.(*ssa.MakeInterface); ok {
		obj = mi.X // the type the caller had, before ToUnstructured's interface{}
	}
	if !mayBeUnstructured(obj.Type()) || copiedOnSomePath(obj, map[ssa.Value]bool{}) || assertsUnstructured(fn) {
		return
	}
	snap := flow.Result(call, 0)
	if snap == nil {
		return
	}
	for _, ref := range *snap.Referrers() {
		st, ok := ref.(*ssa.Store)
		if !ok || st.Val != snap {
			continue
		}
		// A field of the package's own state (a patch helper's before),
		// not unstructured.Unstructured{Object: m}, which only converts.
		if f := ssax.FieldOfAddr(st.Addr); f == nil || f.Pkg() != c.pass.Pkg {
			continue
		}
		c.pass.Report(analysis.Diagnostic{
			Pos:     call.Pos(),
			Message: "the snapshot ToUnstructured returns is kept as a base, but for an *unstructured.Unstructured it is the object's own map, not a copy: later changes to the object change the base too and the comparison finds nothing to patch; DeepCopyObject an Unstructured before taking the snapshot",
		})
		return
	}
}

// isToUnstructured recognises runtime.DefaultUnstructuredConverter.ToUnstructured.
func isToUnstructured(fn *types.Func) bool {
	return fn != nil && fn.Name() == "ToUnstructured" && fn.Pkg() != nil && fn.Pkg().Path() == runtimePkg &&
		fn.Type().(*types.Signature).Recv() != nil
}

// mayBeUnstructured: an interface (runtime.Object, client.Object,
// interface{}) or *unstructured.Unstructured.
func mayBeUnstructured(t types.Type) bool {
	if types.IsInterface(t) {
		return true
	}
	return kube.Is(t, kube.UnstructuredPkg, "Unstructured")
}

// copiedOnSomePath reports whether v is, on some path, a DeepCopy: the
// fixed helper's `if _, ok := obj.(runtime.Unstructured); ok { obj =
// obj.DeepCopyObject() }` makes a phi of the object and its copy.
func copiedOnSomePath(v ssa.Value, seen map[ssa.Value]bool) bool {
	if seen[v] {
		return false
	}
	seen[v] = true
	switch x := v.(type) {
	case *ssa.Call:
		_, ok := kubessa.DeepCopyOf(x)
		return ok
	case *ssa.Phi:
		for _, e := range x.Edges {
			if copiedOnSomePath(e, seen) {
				return true
			}
		}
	case *ssa.MakeInterface:
		return copiedOnSomePath(x.X, seen)
	case *ssa.ChangeInterface:
		return copiedOnSomePath(x.X, seen)
	case *ssa.TypeAssert:
		return copiedOnSomePath(x.X, seen)
	}
	return false
}

// assertsUnstructured reports whether fn asks whether a value is an
// Unstructured (runtime.Unstructured or *unstructured.Unstructured): it
// handles that case itself.
func assertsUnstructured(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			ta, ok := instr.(*ssa.TypeAssert)
			if !ok {
				continue
			}
			if kube.Is(ta.AssertedType, runtimePkg, "Unstructured") || kube.Is(ta.AssertedType, kube.UnstructuredPkg, "Unstructured") {
				return true
			}
		}
	}
	return false
}
