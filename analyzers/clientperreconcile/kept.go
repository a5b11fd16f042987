package clientperreconcile

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// kept reports whether the client a builder call returns is built once and
// kept: stored in a field or package variable under a nil check of it (the
// lazily built client), put in a map, a sync.Map or a cache keyed by
// target, or returned to callers that do so. A client stored without a
// check is built again on every event: not kept.
func (c *checker) kept(fn *ssa.Function, v ssa.Value, depth int) bool {
	if depth > maxDepth {
		return false
	}
	if call, ok := v.(*ssa.Call); ok && call.Call.Signature().Results().Len() > 1 {
		client := flow.Result(call, 0)
		return client != nil && c.kept(fn, client, depth)
	}
	// Its conversions and φs are the same client: what keeps one keeps it.
	found := false
	flow.Uses(v, flow.Conversions|flow.Phis, func(use ssa.Instruction, of ssa.Value) bool {
		found = c.keeps(fn, use, of, depth)
		return !found
	})
	return found
}

// keeps reports whether one use of v keeps it: see kept.
func (c *checker) keeps(fn *ssa.Function, use ssa.Instruction, v ssa.Value, depth int) bool {
	switch r := use.(type) {
	case *ssa.Store:
		if r.Val != v {
			return false
		}
		if local := localStruct(r.Addr); local != nil {
			return c.kept(fn, local, depth+1) // held in a local struct: kept if the struct is
		}
		return isFieldPath(r.Addr) && guarded(r)
	case *ssa.MapUpdate:
		return r.Value == v // a client per key: a cache
	case *ssa.Call:
		return storesInCache(&r.Call, v) || c.keptThrough(r, v, depth)
	case *ssa.Return:
		return c.keptByCallers(fn, r, v, depth)
	}
	return false
}

// keptThrough: what a call makes of the built value is kept. A method of
// the value whose result is kept (r.informers[gvr] =
// factory.ForResource(gvr).Informer()) keeps what it came from; so does a
// function of the package that keeps the parameter it is handed.
func (c *checker) keptThrough(call *ssa.Call, v ssa.Value, depth int) bool {
	common := &call.Call
	onValue := common.IsInvoke() && common.Value == v ||
		!common.IsInvoke() && common.Signature().Recv() != nil && len(common.Args) > 0 && common.Args[0] == v
	if onValue && handsOut(call.Type()) && c.kept(call.Parent(), call, depth+1) {
		return true
	}
	callee := common.StaticCallee()
	if callee == nil || callee.Pkg != call.Parent().Pkg || callee.Blocks == nil {
		return false
	}
	for i, a := range common.Args {
		if a == v && i < len(callee.Params) && c.kept(callee, callee.Params[i], depth+1) {
			return true
		}
	}
	return false
}

// handsOut reports whether t is what a client or factory hands out and a
// controller keeps: an informer, a lister, a client of a group, resource
// or namespace, or a generic informer (ForResource's).
func handsOut(t types.Type) bool {
	if kube.IsInformer(t) || kube.IsLister(t) || isBuiltClient(t) || kube.IsTypedResourceClient(t) || kube.IsDynamicResourceClient(t) {
		return true
	}
	return kube.HasMethods(t, "Informer", "Lister") // informers.GenericInformer
}

// localStruct returns the local allocation a store writes a field of
// (wc := workloadClient{client: cs}), or nil.
func localStruct(addr ssa.Value) *ssa.Alloc {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	a, _ := fa.X.(*ssa.Alloc)
	return a
}

// keptByCallers: a helper that returns the client keeps it when its
// callers do. A helper nobody in the package calls by name (a func value,
// another package) is not judged: taken as kept.
func (c *checker) keptByCallers(fn *ssa.Function, ret *ssa.Return, v ssa.Value, depth int) bool {
	i := -1
	for j, r := range ret.Results {
		if r == v {
			i = j
		}
	}
	calls := c.callers[fn]
	if i < 0 || len(calls) == 0 {
		return true
	}
	for _, call := range calls {
		value := call.Value()
		if value == nil {
			continue // go or defer: the result is dropped
		}
		if len(ret.Results) == 1 {
			if c.kept(call.Parent(), value, depth+1) {
				return true
			}
			continue
		}
		if r := flow.Result(value, i); r != nil && c.kept(call.Parent(), r, depth+1) {
			return true
		}
	}
	return false
}

// storesInCache reports whether a call puts v in a concurrent map or a
// cache: sync.Map's Store, LoadOrStore, Swap and CompareAndSwap, and the
// Add, Set or Put of a cache type.
func storesInCache(common *ssa.CallCommon, v ssa.Value) bool {
	callee := ssax.Callee(common)
	if callee == nil || callee.Type().(*types.Signature).Recv() == nil {
		return false
	}
	passed := false
	for _, a := range common.Args {
		if flow.Origin(a, flow.Conversions) == v || a == v {
			passed = true
		}
	}
	if !passed {
		return false
	}
	switch callee.Name() {
	case "Store", "LoadOrStore", "Swap", "CompareAndSwap", "Add", "Set", "Put", "SetDefault":
		return true
	}
	return false
}

// guarded reports whether a store to a field or package variable runs
// only after a nil check of the same field or variable: `if r.cs == nil`
// (or `!= nil` with an early return) dominates it.
func guarded(st *ssa.Store) bool {
	target := addrKey(st.Addr)
	if target == nil {
		return false
	}
	for b := st.Block(); b != nil; b = b.Idom() {
		if len(b.Instrs) == 0 {
			continue
		}
		ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok || b == st.Block() {
			continue
		}
		if nilCheckOf(ifInstr.Cond, target) || lookupCheck(ifInstr.Cond) {
			return true
		}
	}
	return false
}

// lookupCheck reports whether cond tests whether a map holds a key
// (`if _, ok := r.started[gvr]; !ok`): what the map records was built
// before, and the store is what records it.
func lookupCheck(cond ssa.Value) bool {
	if not, ok := cond.(*ssa.UnOp); ok && not.Op == token.NOT {
		cond = not.X
	}
	ex, ok := cond.(*ssa.Extract)
	if !ok || ex.Index != 1 {
		return false
	}
	l, ok := ex.Tuple.(*ssa.Lookup)
	return ok && l.CommaOk
}

// addrKey identifies what an address points to: the field (any
// controller's) or the package variable.
func addrKey(addr ssa.Value) types.Object {
	switch a := addr.(type) {
	case *ssa.FieldAddr:
		return ssax.FieldOfAddr(a)
	case *ssa.Global:
		return a.Object()
	}
	return nil
}

// nilCheckOf reports whether cond compares a load of target with nil.
func nilCheckOf(cond ssa.Value, target types.Object) bool {
	bin, ok := cond.(*ssa.BinOp)
	if !ok || (bin.Op != token.EQL && bin.Op != token.NEQ) {
		return false
	}
	for _, pair := range [][2]ssa.Value{{bin.X, bin.Y}, {bin.Y, bin.X}} {
		k, ok := pair[1].(*ssa.Const)
		if !ok || !k.IsNil() {
			continue
		}
		load, ok := flow.Origin(pair[0], flow.Conversions).(*ssa.UnOp)
		if ok && load.Op == token.MUL && addrKey(load.X) == target {
			return true
		}
	}
	return false
}
