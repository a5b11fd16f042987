package cachesync

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// readsCaches reports whether a worker reads informer caches: whether it,
// or a package function it reaches (calls, closures, method values, func
// fields such as sample-controller's syncHandler), uses a lister, informer
// or informer factory: a field holding one, or a method call on one. A
// worker that only drains a queue into the API server needs no sync.
func (c *checker) readsCaches(worker *ssa.Function) bool {
	if r, ok := c.reads[worker]; ok {
		return r
	}
	seen := map[*ssa.Function]bool{worker: true}
	work := []*ssa.Function{worker}
	found := false
	for len(work) > 0 && !found {
		fn := work[len(work)-1]
		work = work[:len(work)-1]
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if c.readsCache(instr) {
					found = true
				}
				var ops []*ssa.Value
				for _, op := range instr.Operands(ops) {
					if op == nil || *op == nil {
						continue
					}
					var targets []*ssa.Function
					if f := c.local(*op); f != nil {
						targets = append(targets, f)
					}
					if f := ssax.LoadedField(*op); f != nil {
						targets = append(targets, c.fieldFuncs[f]...)
					}
					for _, t := range targets {
						if !seen[t] {
							seen[t] = true
							work = append(work, t)
						}
					}
				}
			}
		}
	}
	c.reads[worker] = found
	return found
}

// readsCache reports whether instr uses an informer cache.
func (c *checker) readsCache(instr ssa.Instruction) bool {
	switch x := instr.(type) {
	case *ssa.FieldAddr:
		return c.cacheField(ssax.FieldOfAddr(x))
	case *ssa.Field:
		st, ok := x.X.Type().Underlying().(*types.Struct)
		return ok && x.Field < st.NumFields() && c.cacheField(st.Field(x.Field))
	case ssa.CallInstruction:
		fn, recv, _ := callee(x.Common())
		if fn == nil || recv == nil {
			return false
		}
		t := recv.Type()
		if !isCacheType(t) {
			return false
		}
		if ctor, ok := recv.(*ssa.Call); ok && isStoreConstructor(ssax.Callee(ctor.Common())) {
			return false // a store of the worker's own
		}
		if f := ssax.LoadedField(recv); f != nil {
			return c.cacheField(f)
		}
		return true
	}
	return false
}

// cacheField reports whether a struct field holds an informer cache: a
// lister, informer, store or factory, except a store every assignment of
// which builds a store of the package's own (cache.NewStore).
func (c *checker) cacheField(f *types.Var) bool {
	if f == nil || !isCacheType(f.Type()) {
		return false
	}
	own, ok := c.ownStores[f]
	return !ok || !own
}

func isCacheType(t types.Type) bool {
	return kube.IsLister(t) || kube.IsInformer(t) || kube.IsInformerFactory(t)
}

// scanFields records, over the package, which func-typed fields hold which
// package functions, and which store fields only ever hold stores the
// package builds itself.
func (c *checker) scanFields() {
	for f, vals := range ssax.StoredFuncs(c.funcs) {
		for _, v := range vals {
			if target := c.local(v); target != nil {
				c.fieldFuncs[f] = append(c.fieldFuncs[f], target)
			}
		}
	}
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				if f := ssax.FieldOfAddr(st.Addr); f != nil && isCacheType(f.Type()) {
					own := isOwnStore(st.Val)
					if prev, seen := c.ownStores[f]; seen {
						own = own && prev
					}
					c.ownStores[f] = own
				}
			}
		}
	}
}

// isOwnStore reports whether v is a store built by a cache constructor,
// looking through interface conversions.
func isOwnStore(v ssa.Value) bool {
	call, ok := flow.Origin(v, flow.Conversions).(*ssa.Call)
	return ok && isStoreConstructor(ssax.Callee(call.Common()))
}
