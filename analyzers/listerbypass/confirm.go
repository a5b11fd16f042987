package listerbypass

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// Fresh reads that confirm what the cache cannot: that an object is really
// gone, or that the live object still warrants a write. A cache lags the API
// server, so acting on its "not found" deletes what was just created, and
// acting on a stale copy evicts, deletes or provisions twice. Kubernetes'
// own controllers confirm with a live read before such writes; these are
// not bypasses.
//
//   - an existence probe: `_, err := client.Get(...)` with the error tested
//     by apierrors.IsNotFound — the object itself is not wanted;
//   - a guard: a branch on what the read returned decides whether a write
//     of the same resource (Create, Update, Patch, Delete, ...) follows, in
//     the function or a package helper it calls;
//   - a confirmed absence: the read's failure branch goes on to a write
//     instead of returning — the error is the answer, not a failure.
func confirms(fn *ssa.Function, r read) bool {
	obj, err := readResults(r)
	if err == nil {
		return false
	}
	return existenceProbe(fn, r, obj, err) || guardsWrite(fn, r, obj, err) || confirmsAbsence(fn, err)
}

// readResults returns the values a read yields: the object (nil when the
// code drops it) and the error.
func readResults(r read) (obj, err ssa.Value) {
	v, ok := r.call.(ssa.Value)
	if !ok {
		return nil, nil
	}
	if r.kind == apiRead {
		// controller-runtime: Get(ctx, key, obj) error fills obj in place.
		args := r.call.Common().Args
		if i := objectArgIndex(r); i < len(args) {
			if mi, ok := args[i].(*ssa.MakeInterface); ok {
				obj = mi.X
			}
		}
		return obj, v
	}
	if x := flow.Result(v, 0); x != nil && len(*x.Referrers()) > 0 {
		obj = x
	}
	return obj, flow.Result(v, 1)
}

func existenceProbe(fn *ssa.Function, r read, obj, err ssa.Value) bool {
	if r.method != "Get" || r.kind == apiRead || obj != nil {
		return false
	}
	derived := flow.Slice(fn, []ssa.Value{err})
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || !isNotFoundTest(call.Common()) {
				continue
			}
			for _, a := range call.Common().Args {
				if derived[a] {
					return true
				}
			}
		}
	}
	return false
}

func isNotFoundTest(c *ssa.CallCommon) bool {
	fn := ssax.Callee(c)
	return fn != nil && kube.IsFunc(fn, kube.APIErrorsPkg, "IsNotFound")
}

// guardsWrite reports whether a branch on the read's results is followed by
// a write of the read's resource.
func guardsWrite(fn *ssa.Function, r read, obj, err ssa.Value) bool {
	return guards(fn, r, obj, err, func(c *ssa.CallCommon) bool { return writeKey(c) == r.key })
}

// guardsCreate reports whether a branch on a List's results is followed
// by a Create of the listed resource: the List confirms the object is
// absent (kubernetes' bootstrap signer looks for its ConfigMap that way),
// and a lagging cache would create it twice.
//
// The guard may be the caller's: a helper that lists and returns what it
// found, whose result decides the Create (cluster-api's topology
// controller since v1.5 double-checks its MachineDeployments with
// getCurrentMachineDeployments before creating one).
func guardsCreate(fn *ssa.Function, r read, callers map[*ssa.Function][]*ssa.Function) bool {
	obj, err := readResults(r)
	if err == nil {
		return false
	}
	kind := strings.ToLower(r.kindOf())
	creates := func(c *ssa.CallCommon) bool {
		if c.IsInvoke() {
			return c.Method.Name() == "Create" && writeKey(c) == r.key
		}
		// A package helper named for creating the kind
		// (createMachineDeployment): it may create through a patch
		// helper's server-side apply, which names no Create.
		callee := c.StaticCallee()
		name := ""
		if callee != nil && callee.Pkg == fn.Pkg {
			name = strings.ToLower(callee.Name())
		}
		return strings.HasPrefix(name, "create") && strings.Contains(name, kind)
	}
	if guards(fn, r, obj, err, creates) {
		return true
	}
	if fn.Signature.Results().Len() == 0 {
		return false
	}
	for _, caller := range callers[fn] {
		for _, b := range caller.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok || call.Common().StaticCallee() != fn {
					continue
				}
				// What it returns, not its error: a failure returns
				// before any Create.
				for _, res := range returned(call) {
					if guards(caller, r, nil, res, creates) {
						return true
					}
				}
			}
		}
	}
	return false
}

// returned is what a call returns besides a trailing error.
func returned(call *ssa.Call) []ssa.Value {
	res := call.Common().Signature().Results()
	n := res.Len()
	if n > 0 && types.Identical(res.At(n-1).Type(), types.Universe.Lookup("error").Type()) {
		n--
	}
	if res.Len() == 1 {
		if n == 1 {
			return []ssa.Value{call}
		}
		return nil
	}
	var out []ssa.Value
	for i := range n {
		if x := flow.Result(call, i); x != nil {
			out = append(out, x)
		}
	}
	return out
}

// guards reports whether a branch on the read's results reaches a write
// that matches.
func guards(fn *ssa.Function, r read, obj, err ssa.Value, sameResource func(*ssa.CallCommon) bool) bool {
	seeds := []ssa.Value{err}
	if obj != nil {
		seeds = append(seeds, obj)
	}
	derived := flow.Slice(fn, seeds)
	for _, b := range fn.Blocks {
		if iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok && derived[iff.Cond] {
			if reachesWrite(b.Succs, sameResource, fn.Pkg) {
				return true
			}
		}
	}
	return false
}

// confirmsAbsence reports whether the read's failure branch (err != nil,
// IsNotFound(err)) reaches a client write.
func confirmsAbsence(fn *ssa.Function, err ssa.Value) bool {
	anyWrite := func(c *ssa.CallCommon) bool { return writeKey(c) != "" }
	for _, b := range fn.Blocks {
		iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		if failed := failureSucc(iff, err); failed != nil && reachesWrite([]*ssa.BasicBlock{failed}, anyWrite, fn.Pkg) {
			return true
		}
	}
	return false
}

// failureSucc is the successor of iff taken when err is a failure, or nil
// when iff does not test err.
func failureSucc(iff *ssa.If, err ssa.Value) *ssa.BasicBlock {
	succ := iff.Block().Succs
	cond, negated := iff.Cond, false
	for {
		u, ok := cond.(*ssa.UnOp)
		if !ok || u.Op != token.NOT {
			break
		}
		cond, negated = u.X, !negated
	}
	pick := func(i int) *ssa.BasicBlock {
		if negated {
			i = 1 - i
		}
		return succ[i]
	}
	switch c := cond.(type) {
	case *ssa.BinOp:
		isErr := func(v ssa.Value) bool { return v == err }
		isNil := func(v ssa.Value) bool { k, ok := v.(*ssa.Const); return ok && k.IsNil() }
		if !(isErr(c.X) && isNil(c.Y) || isErr(c.Y) && isNil(c.X)) {
			return nil
		}
		switch c.Op {
		case token.NEQ:
			return pick(0)
		case token.EQL:
			return pick(1)
		}
	case *ssa.Call:
		if isNotFoundTest(c.Common()) && len(c.Common().Args) == 1 && c.Common().Args[0] == err {
			return pick(0)
		}
	}
	return nil
}

// reachesWrite reports whether a client write that matches is reachable
// from the blocks, in them or in a package helper called there.
func reachesWrite(from []*ssa.BasicBlock, match func(*ssa.CallCommon) bool, pkg *ssa.Package) bool {
	helpers := map[*ssa.Function]bool{}
	return ssax.Reaches(from, func(b *ssa.BasicBlock) bool {
		for _, instr := range b.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok && writesIn(call.Common(), match, pkg, 0, helpers) {
				return true
			}
		}
		return false
	})
}

// writesIn reports whether the call is a matching write, or calls a package
// helper containing one (three calls deep).
func writesIn(c *ssa.CallCommon, match func(*ssa.CallCommon) bool, pkg *ssa.Package, depth int, seen map[*ssa.Function]bool) bool {
	if match(c) {
		return true
	}
	callee := c.StaticCallee()
	if callee == nil || callee.Pkg != pkg || callee.Blocks == nil || depth >= 3 || seen[callee] {
		return false
	}
	seen[callee] = true
	for _, b := range callee.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok && writesIn(call.Common(), match, pkg, depth+1, seen) {
				return true
			}
		}
	}
	return false
}

// writeKey is the resource a client write changes ("" when c is no write,
// "?" when the resource is unknown).
func writeKey(c *ssa.CallCommon) string {
	if !c.IsInvoke() || !kube.IsWriteMethod(c.Method.Name()) {
		return ""
	}
	switch t := c.Value.Type(); {
	case kube.IsTypedResourceClient(t):
		if obj := kube.ObjectOf(t); obj != nil {
			return kube.ObjectKey(obj)
		}
	case kube.IsDynamicResourceClient(t):
		if k := gvrKey(resourceArg(c.Value)); k != "" {
			return k
		}
	default:
		// controller-runtime's writers: Create/Update/Patch/Delete(ctx, obj, ...).
		if len(c.Args) >= 2 {
			if obj := objectArg(c.Args[1]); obj != nil {
				return kube.ObjectKey(obj)
			}
		}
		return ""
	}
	return "?"
}
