package cachemutation

import (
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
)

// reaching joins what the stores to the cell c that reach instr stored.
// It resolves a load from a captured variable, so that
// `pod = pod.DeepCopy()` in a retry closure ends the taint of pod as it
// does for variables SSA keeps in registers.
//
// Walking back from instr: a store to the variable decides that path; the
// allocation itself means the zero value; the entry of a closure means
// what the variable held where the closure was made, or what other
// closures store; a call, while closures capture the variable, may run one
// that stores into it.
func (f *unit) reaching(instr ssa.Instruction, c *ssa.Alloc) taint {
	fn := instr.Parent()
	var t taint
	writes, complete := flow.Reaching(instr, func(in ssa.Instruction) bool {
		switch in := in.(type) {
		case *ssa.Store:
			return f.cellOf(in.Addr) == c
		case *ssa.Alloc:
			return in == c
		case ssa.CallInstruction:
			if f.cells[c].captured {
				t = t.join(f.storedOutside(c, fn))
			}
		}
		return false
	})
	for _, w := range writes {
		if st, ok := w.(*ssa.Store); ok {
			t = t.join(f.taintOf(st.Val))
		}
	}
	if !complete && c.Parent() != fn {
		t = t.join(f.atEntry(c, fn))
	}
	return t
}

// atEntry is what the captured variable c may hold when the closure fn
// starts: what reaches the places fn is made, and what closures other
// than fn store.
func (f *unit) atEntry(c *ssa.Alloc, fn *ssa.Function) taint {
	var t taint
	for _, st := range f.cells[c].stores {
		if p := st.Parent(); p != fn && p != c.Parent() {
			t = t.join(f.taintOf(st.Val))
		}
	}
	for _, ref := range *fn.Referrers() {
		if mc, ok := ref.(*ssa.MakeClosure); ok {
			t = t.join(f.reaching(mc, c))
		}
	}
	return t
}

// storedOutside joins what functions of the unit other than fn store into
// the variable.
func (f *unit) storedOutside(c *ssa.Alloc, fn *ssa.Function) taint {
	var t taint
	for _, st := range f.cells[c].stores {
		if st.Parent() != fn {
			t = t.join(f.taintOf(st.Val))
		}
	}
	return t
}
