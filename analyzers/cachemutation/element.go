package cachemutation

import (
	"slices"

	"golang.org/x/tools/go/ssa"
)

// storedElement resolves a load of a slice element that the same block
// has just stored: after pods[i] = p.DeepCopy(), pods[i] is the copy,
// whatever else the slice holds (kubernetes' job controller,
// getPodsForJob: pods[i] = p.DeepCopy(); pods[i].Finalizers = ...).
// Walking back from the load, a store to the same element (the same
// slice and index values) decides; a store to another element of the
// slice, or a call, might change it, and the load keeps what the slice
// holds.
func (f *unit) storedElement(load *ssa.UnOp) (taint, bool) {
	addr, ok := load.X.(*ssa.IndexAddr)
	if !ok {
		return taint{}, false
	}
	instrs := load.Block().Instrs
	for i := slices.Index(instrs, ssa.Instruction(load)) - 1; i >= 0; i-- {
		switch in := instrs[i].(type) {
		case *ssa.Store:
			other, ok := in.Addr.(*ssa.IndexAddr)
			if !ok || other.X != addr.X {
				continue // another variable or field
			}
			if other.Index != addr.Index {
				return taint{}, false // maybe the same element
			}
			return f.taintOf(in.Val), true
		case ssa.CallInstruction:
			if _, ok := in.Common().Value.(*ssa.Builtin); !ok {
				return taint{}, false
			}
		}
	}
	return taint{}, false
}
