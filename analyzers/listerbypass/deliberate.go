package listerbypass

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// deliberate reports whether a read is a deliberate fresh read, which real
// controllers make on purpose and a linter must leave alone:
//
//   - read-modify-write: what the read returns flows into a write through
//     a client in the same function (Update, UpdateStatus, Patch, Delete
//     with preconditions...), with or without retry.RetryOnConflict around
//     it — a stale copy would only conflict;
//   - a double-check: the same function also reads that resource from its
//     cache (a lister, or an untyped store or mutation cache that may hold
//     it), so the live read is a fallback on a cache miss or a confirmation
//     the cache cannot give — or a caller does, itself or through a helper
//     next to the read's function (kubernetes' pvcprotection: askInformer,
//     then askAPIServer);
//   - a confirmation (confirm.go).
//
// A List is deliberate only as a double-check or as a guard of a Create
// (confirming the object is absent); one whose items feed or decide
// another write is not, since a write of a listed object needs no
// fresher copy than the cache's (a Delete by name, an Update that
// conflicts and is retried), and upstream replaced such Lists with a
// lister (kubernetes' API Priority and Fairness ensurer, issue 101667;
// k8s.io/cloud-provider's node controller, PR 115521).
func deliberate(fn *ssa.Function, r read, callers map[*ssa.Function][]*ssa.Function) bool {
	if r.method == "List" {
		return readsCacheToo(fn, r) || callerReadsCache(fn, r, callers) || guardsCreate(fn, r, callers)
	}
	return feedsWrite(fn, r) || readsCacheToo(fn, r) || callerReadsCache(fn, r, callers) || confirms(fn, r)
}

// callersOf maps each function of the package to the package functions that
// call it statically.
func callersOf(fns []*ssa.Function) map[*ssa.Function][]*ssa.Function {
	callers := make(map[*ssa.Function][]*ssa.Function)
	for _, fn := range fns {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok {
					if callee := call.Common().StaticCallee(); callee != nil && callee.Pkg == fn.Pkg {
						callers[callee] = append(callers[callee], fn)
					}
				}
			}
		}
	}
	return callers
}

// callerReadsCache reports whether a caller of fn reads the read's resource
// from its cache, directly or in another package helper it calls. A test
// is no such caller: it fills an informer's store to set up the controller
// it tests (podInformer.Informer().GetStore().Add(pod), then
// gcc.gcOrphaned(pods)), which makes the controller's own read no
// fallback.
func callerReadsCache(fn *ssa.Function, r read, callers map[*ssa.Function][]*ssa.Function) bool {
	for _, caller := range callers[fn] {
		if ssax.InTest(caller) {
			continue
		}
		if readsCacheToo(caller, r) {
			return true
		}
		for _, b := range caller.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if sib := call.Common().StaticCallee(); sib != nil && sib != fn && sib.Pkg == fn.Pkg && readsCacheToo(sib, r) {
					return true
				}
			}
		}
	}
	return false
}

// feedsWrite reports whether a value computed from the read's result is
// an argument of a client write in fn, or of a package helper that writes
// it (followed a few calls deep).
func feedsWrite(fn *ssa.Function, r read) bool {
	res, ok := r.call.(ssa.Value)
	if !ok {
		return false
	}
	seeds := []ssa.Value{res}
	if r.kind == apiRead {
		// controller-runtime fills the object argument in place.
		if mi, ok := r.call.Common().Args[objectArgIndex(r)].(*ssa.MakeInterface); ok {
			seeds = append(seeds, mi.X)
		}
	}
	return writes(fn, seeds, 0, make(map[*ssa.Function]bool))
}

// writes reports whether values computed from seeds reach a client write
// in fn or in the package helpers they are passed to.
func writes(fn *ssa.Function, seeds []ssa.Value, depth int, seen map[*ssa.Function]bool) bool {
	derived := flow.Slice(fn, seeds)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			common := call.Common()
			if common.IsInvoke() && kube.IsWriteMethod(common.Method.Name()) {
				for _, arg := range common.Args {
					if derived[arg] {
						return true
					}
				}
				continue
			}
			callee := common.StaticCallee()
			if callee != nil && callee.Pkg != fn.Pkg && writesThrough(common, derived) {
				return true
			}
			if callee == nil || callee.Pkg != fn.Pkg || callee.Blocks == nil || depth >= 3 || seen[callee] {
				continue
			}
			var params []ssa.Value
			for i, arg := range common.Args {
				if derived[arg] && i < len(callee.Params) {
					params = append(params, callee.Params[i])
				}
			}
			if len(params) > 0 {
				seen[callee] = true
				if writes(callee, params, depth+1, seen) {
					return true
				}
			}
		}
	}
	return false
}

// writesThrough reports whether a call to another package's function
// hands it a derived value to write: the function is named for a write
// (PatchVolumeSnapshotContent, UpdateStatus...) or is given a client too
// (external-snapshotter's utils.PatchVolumeSnapshotContent(obj, patches,
// clientset, "status")).
func writesThrough(common *ssa.CallCommon, derived map[ssa.Value]bool) bool {
	passes, client := false, false
	for _, arg := range common.Args {
		passes = passes || derived[arg]
		t := arg.Type()
		client = client || kube.IsClientset(t) || kube.IsTypedResourceClient(t) || kube.IsCRReader(t)
	}
	if !passes {
		return false
	}
	name := common.StaticCallee().Name()
	for _, verb := range []string{"Patch", "Update", "Create", "Delete", "Apply"} {
		if strings.HasPrefix(name, verb) {
			return true
		}
	}
	return client
}

// readsCacheToo reports whether fn also reads the read's resource through
// a lister or informer, or hands one to a function that does
// (nodeutil.PodsFromLister(c.podLister, node)).
func readsCacheToo(fn *ssa.Function, r read) bool {
	if r.kind == dynamicRead {
		return false
	}
	caches := func(t types.Type) bool {
		if !kube.IsLister(t) && !kube.IsInformer(t) {
			return false
		}
		obj := kube.ObjectOf(t)
		return obj == nil || kube.ObjectKey(obj) == r.key // the same resource, or an untyped store that may hold it
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			common := call.Common()
			if common.IsInvoke() {
				if caches(common.Value.Type()) {
					return true
				}
				continue
			}
			if common.StaticCallee() == nil {
				continue
			}
			for _, arg := range common.Args {
				if caches(arg.Type()) {
					return true
				}
			}
		}
	}
	return false
}

func objectArgIndex(r read) int {
	if r.method == "List" {
		return 1
	}
	return 2
}
