package statusupdate

import (
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// position of an instruction within its function.
type position struct {
	block *ssa.BasicBlock
	index int
	sub   int // order within the instruction (see event.sub)
}

func positionOf(instr ssa.Instruction) position {
	b := instr.Block()
	for i, in := range b.Instrs {
		if in == instr {
			return position{b, i, 0}
		}
	}
	return position{b, -1, 0}
}

// reaches reports whether the instruction at to can run after the one at
// from, on a path that does not pass through kill (the definition of the
// object: a path through it is about the next object, the next iteration
// of a loop). sameOK accepts from == to.
func reaches(from, to position, kill ssa.Instruction, sameOK bool) bool {
	if from.block == to.block {
		switch {
		case from.index < to.index, from.index == to.index && from.sub < to.sub:
			return true
		case sameOK && from.index == to.index:
			return true
		}
	}
	var kp position
	if kill != nil {
		kp = positionOf(kill)
	}
	return ssax.Walk(from.block.Succs, false, func(b *ssa.BasicBlock) ssax.Step {
		if b == to.block {
			if kp.block != b || kp.index > to.index {
				return ssax.Stop
			}
			return ssax.Prune
		}
		if kp.block == b {
			return ssax.Prune // the object is defined anew
		}
		return ssax.Expand
	})
}

// definition is the instruction that defines an ident's root value, or
// nil (a parameter, a free variable, a global).
func definition(id ident) ssa.Instruction {
	if instr, ok := id.root.(ssa.Instruction); ok {
		return instr
	}
	return nil
}
