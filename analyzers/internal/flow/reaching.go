package flow

import (
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// Reaching returns the latest instructions before at, on the paths to at
// within its function, that write tells are writes: for a variable SSA
// keeps in memory (one a closure captures), its stores and its Alloc (the
// zero value), the reaching definitions of a load of it. A path coming
// back through a loop to a block already searched adds nothing. complete
// is false when a path from the function's entry has no write: what at
// reads there was written elsewhere (by a caller, or a closure's maker),
// and writes are those of the other paths.
//
// write is asked of the instructions on the way back from at, latest
// first, each once, until it says yes on that path: a caller may note
// what lies between a write and at (a call that may run a closure
// storing into the variable).
//
// Cell answers for a variable assigned once before every load; Reaching
// answers for one assigned on several paths, or reassigned.
func Reaching(at ssa.Instruction, write func(ssa.Instruction) bool) (writes []ssa.Instruction, complete bool) {
	last := func(instrs []ssa.Instruction) bool {
		for i := len(instrs) - 1; i >= 0; i-- {
			if write(instrs[i]) {
				writes = append(writes, instrs[i])
				return true
			}
		}
		return false
	}
	b := at.Block()
	if last(b.Instrs[:slices.Index(b.Instrs, at)]) {
		return writes, true
	}
	// at's own block is searched again from its end when a loop leads
	// back to it.
	complete = len(b.Preds) > 0
	ssax.Walk(b.Preds, true, func(p *ssa.BasicBlock) ssax.Step {
		switch {
		case last(p.Instrs):
			return ssax.Prune
		case len(p.Preds) == 0:
			complete = false
			return ssax.Prune
		}
		return ssax.Expand
	})
	return writes, complete
}
