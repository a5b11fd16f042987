package ssax

import (
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Index is the position of an instruction in its block.
func Index(instr ssa.Instruction) int { return slices.Index(instr.Block().Instrs, instr) }

// Path reports whether control can go from just after instruction from to
// just before instruction to, in the same function, without executing
// avoid (nil: avoid nothing). An instruction reaches itself only around a
// loop. patchbase asks it of a patch's base and its Patch, finalizerpatch
// of an object's copy and its Patch.
func Path(from, to, avoid ssa.Instruction) bool {
	fb, fi := from.Block(), Index(from)
	tb, ti := to.Block(), Index(to)
	ab, ai := (*ssa.BasicBlock)(nil), -1
	if avoid != nil {
		ab, ai = avoid.Block(), Index(avoid)
	}
	// blocked reports whether avoid lies in b between instructions lo
	// (exclusive) and hi (exclusive).
	blocked := func(b *ssa.BasicBlock, lo, hi int) bool {
		return b == ab && lo < ai && ai < hi
	}
	if fb == tb && fi < ti {
		return !blocked(fb, fi, ti)
	}
	if blocked(fb, fi, len(fb.Instrs)) {
		return false
	}
	return Walk(fb.Succs, false, func(b *ssa.BasicBlock) Step {
		switch {
		case b == tb && !blocked(b, -1, ti):
			return Stop
		case blocked(b, -1, len(b.Instrs)):
			return Prune
		}
		return Expand
	})
}

// Between returns the instructions of fn that lie on some path from from
// to to that does not execute avoid again (Path), in block order.
func Between(fn *ssa.Function, from, to, avoid ssa.Instruction) []ssa.Instruction {
	var out []ssa.Instruction
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if instr == from || instr == to || instr == avoid {
				continue
			}
			if Path(from, instr, avoid) && Path(instr, to, avoid) {
				out = append(out, instr)
			}
		}
	}
	return out
}
