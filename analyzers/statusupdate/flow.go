package statusupdate

import "golang.org/x/tools/go/ssa"

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
	seen := make(map[*ssa.BasicBlock]bool)
	work := append([]*ssa.BasicBlock(nil), from.block.Succs...)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		if b == to.block {
			if kp.block != b || kp.index > to.index {
				return true
			}
			continue
		}
		if kp.block == b {
			continue // the object is defined anew
		}
		work = append(work, b.Succs...)
	}
	return false
}

// definition is the instruction that defines an ident's root value, or
// nil (a parameter, a free variable, a global).
func definition(id ident) ssa.Instruction {
	if instr, ok := id.root.(ssa.Instruction); ok {
		return instr
	}
	return nil
}
