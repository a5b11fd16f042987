package forget

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/keyflow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// statelessQueue reports whether every rate-limiting queue the package
// stores in the field the item's Get reads from is built with a rate
// limiter of the package whose Forget does nothing (kubernetes' HPA
// controller uses a fixed-interval limiter): such a limiter keeps no
// per-key state, so there is nothing to leak.
func statelessQueue(funcs []*ssa.Function, it *keyflow.Item) bool {
	field := ssax.LoadedField(it.Get.Common().Value)
	if field == nil {
		return false
	}
	return statelessField(funcs, field, 0)
}

// statelessField reports whether every queue stored in field is built with
// a stateless limiter: directly, or through a wrapper of the package that
// embeds such a queue and keeps its Forget (a test's spy queue that records
// Add calls, as kubernetes' HPA tests have).
func statelessField(funcs []*ssa.Function, field *types.Var, depth int) bool {
	if depth > 2 {
		return false
	}
	found := false
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok || ssax.FieldOfAddr(st.Addr) != field {
					continue
				}
				if inner := embeddedQueue(st.Val); inner != nil {
					if !statelessField(funcs, inner, depth+1) {
						return false
					}
					found = true
					continue
				}
				call, ok := st.Val.(*ssa.Call)
				if !ok || !kube.IsRateLimitingQueueConstructor(ssax.Callee(call.Common())) || len(call.Call.Args) == 0 {
					return false // set from somewhere we cannot follow
				}
				if !statelessLimiter(call.Call.Args[0], 0) {
					return false
				}
				found = true
			}
		}
	}
	return found
}

// embeddedQueue returns the embedded queue field of a wrapper that v (a
// queue interface value) holds: a struct type of the package that embeds a
// work queue and does not declare Forget itself; nil otherwise.
func embeddedQueue(v ssa.Value) *types.Var {
	mi, ok := v.(*ssa.MakeInterface)
	if !ok {
		return nil
	}
	t := mi.X.Type()
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || mi.Parent().Pkg == nil || named.Obj().Pkg() != mi.Parent().Pkg.Pkg {
		return nil
	}
	for i := range named.NumMethods() {
		if named.Method(i).Name() == "Forget" {
			return nil // its own Forget: we do not know what it keeps
		}
	}
	st, ok := named.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	for i := range st.NumFields() {
		if f := st.Field(i); f.Embedded() {
			if _, isQueue := kube.QueueOf(f.Type()); isQueue {
				return f
			}
		}
	}
	return nil
}

// statelessLimiter reports whether v, a rate limiter, is a value of a
// package type whose Forget method has an empty body, looking through the
// package's constructor functions.
func statelessLimiter(v ssa.Value, depth int) bool {
	if depth > 3 {
		return false
	}
	switch v := v.(type) {
	case *ssa.MakeInterface:
		return emptyForget(v.Parent().Prog, v.X.Type())
	case *ssa.Call:
		fn := v.Call.StaticCallee()
		if fn == nil || fn.Blocks == nil {
			return false // another package's limiter: assume it remembers keys
		}
		for _, b := range fn.Blocks {
			ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
			if !ok {
				continue
			}
			if len(ret.Results) != 1 || !statelessLimiter(ret.Results[0], depth+1) {
				return false
			}
		}
		return true
	case *ssa.Alloc:
		return emptyForget(v.Parent().Prog, v.Type())
	}
	return false
}

// emptyForget reports whether t's Forget method, declared in source, does
// nothing.
func emptyForget(prog *ssa.Program, t types.Type) bool {
	if prog == nil {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Forget")
	m, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	fn := prog.FuncValue(m)
	if fn == nil || len(fn.Blocks) != 1 {
		return false
	}
	for _, instr := range fn.Blocks[0].Instrs {
		if _, ok := instr.(*ssa.Return); !ok {
			return false
		}
	}
	return true
}
