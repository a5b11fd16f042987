package flow

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Succs returns the values made from v in one step under p: the forward
// counterpart of Preds. A store of v into a cell (a captured variable
// assigned once, Cells) goes on to the cell's loads, and a binding of v
// to a closure (FreeVars) to the closure's free variable.
func Succs(v ssa.Value, p Policy) []ssa.Value {
	refs := v.Referrers()
	if refs == nil {
		return nil
	}
	var out []ssa.Value
	for _, ref := range *refs {
		switch r := ref.(type) {
		case *ssa.Store:
			if p&Cells == 0 || r.Val != v {
				continue
			}
			if alloc, ok := r.Addr.(*ssa.Alloc); ok {
				out = append(out, cellLoads(alloc, v)...)
			}
		case *ssa.MakeClosure:
			if p&FreeVars == 0 {
				continue
			}
			fn, ok := r.Fn.(*ssa.Function)
			if !ok {
				continue
			}
			for i, b := range r.Bindings {
				if b == v && i < len(fn.FreeVars) && Binding(fn.FreeVars[i]) == v {
					out = append(out, fn.FreeVars[i])
				}
			}
		case ssa.Value:
			if slices.Contains(Preds(r, p&^(Cells|FreeVars)), v) {
				out = append(out, r)
			}
		}
	}
	return out
}

// cellLoads returns the loads of alloc, in its function and in the
// closures capturing it, when alloc is a cell holding v.
func cellLoads(alloc *ssa.Alloc, v ssa.Value) []ssa.Value {
	var loads []ssa.Value
	add := func(refs *[]ssa.Instruction) bool {
		for _, ref := range *refs {
			if u, ok := ref.(*ssa.UnOp); ok && u.Op == token.MUL {
				loads = append(loads, u)
			}
		}
		return len(loads) > 0
	}
	add(alloc.Referrers())
	if len(loads) == 0 || Cell(loads[0].(*ssa.UnOp)) != v {
		return nil
	}
	for _, ref := range *alloc.Referrers() {
		mc, ok := ref.(*ssa.MakeClosure)
		if !ok {
			continue
		}
		fn, ok := mc.Fn.(*ssa.Function)
		if !ok {
			continue
		}
		for i, b := range mc.Bindings {
			if b == alloc && i < len(fn.FreeVars) {
				add(fn.FreeVars[i].Referrers())
			}
		}
	}
	return loads
}

// Values returns v and every value made from it under p, each once, in
// the order first reached: the forward counterpart of Origins. ok is false
// when the walk was cut short (MaxSteps).
func Values(v ssa.Value, p Policy) (values []ssa.Value, ok bool) {
	seen := map[ssa.Value]bool{v: true}
	work := []ssa.Value{v}
	for steps := 0; len(work) > 0; steps++ {
		if steps == MaxSteps {
			return values, false
		}
		x := work[0]
		work = work[1:]
		values = append(values, x)
		for _, s := range Succs(x, p) {
			if !seen[s] {
				seen[s] = true
				work = append(work, s)
			}
		}
	}
	return values, true
}

// Uses calls visit with every instruction that uses v or a value made
// from it under p (Values), until visit returns false. It reports whether
// every use was visited: false when visit stopped it or the walk was cut
// short.
func Uses(v ssa.Value, p Policy, visit func(use ssa.Instruction, of ssa.Value) bool) bool {
	values, ok := Values(v, p)
	for _, x := range values {
		refs := x.Referrers()
		if refs == nil {
			continue
		}
		for _, ref := range *refs {
			if !visit(ref, x) {
				return false
			}
		}
	}
	return ok
}

// Result returns the Extract of element i of a tuple-valued v (a call with
// several results, a comma-ok lookup or receive), nil when no instruction
// extracts it: a call whose results are all ignored. (SSA extracts an
// element assigned to _ too.) An analyzer follows an object's Get or a
// queue's key from here. The Extract is returned as a Value, nil when
// there is none, so that it can stand where a missing result is a nil
// Value.
func Result(v ssa.Value, i int) ssa.Value {
	refs := v.Referrers()
	if refs == nil {
		return nil
	}
	for _, ref := range *refs {
		if x, ok := ref.(*ssa.Extract); ok && x.Tuple == v && x.Index == i {
			return x
		}
	}
	return nil
}
