package flow

import (
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// Solve runs step on every instruction of fns, in block order, round
// after round until a round in which no step reports a change: the fixed
// point of a monotone analysis whose facts step keeps itself (what is
// tainted, which parameter is handed a key). It reports whether the fixed
// point was reached within rounds; an analysis that was cut short must
// take its facts as incomplete.
func Solve(fns []*ssa.Function, rounds int, step func(ssa.Instruction) bool) bool {
	for range rounds {
		changed := false
		for _, fn := range fns {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					if step(instr) {
						changed = true
					}
				}
			}
		}
		if !changed {
			return true
		}
	}
	return false
}

// Slice returns the forward slice of seeds in fn: the seeds, every value
// computed from one of them (an operand is in the slice), and the local
// variable (Alloc) a value of the slice is stored into, as a whole: a
// store into one field taints the variable. It is coarser than Values (a
// call with a derived argument is derived), for questions of the form "may
// this value depend on that one".
func Slice(fn *ssa.Function, seeds []ssa.Value) map[ssa.Value]bool {
	in := make(map[ssa.Value]bool, len(seeds))
	for _, s := range seeds {
		in[s] = true
	}
	// Every round but the last adds a value, so one more round than there
	// are instructions always reaches the fixed point.
	n := 1
	for _, b := range fn.Blocks {
		n += len(b.Instrs)
	}
	var ops []*ssa.Value
	Solve([]*ssa.Function{fn}, n, func(instr ssa.Instruction) bool {
		if st, ok := instr.(*ssa.Store); ok {
			if root := ssax.LocalRoot(st.Addr); in[st.Val] && root != nil && !in[root] {
				in[root] = true
				return true
			}
			return false
		}
		v, ok := instr.(ssa.Value)
		if !ok || in[v] {
			return false
		}
		ops = instr.Operands(ops[:0])
		for _, op := range ops {
			if op != nil && *op != nil && in[*op] {
				in[v] = true
				return true
			}
		}
		return false
	})
	return in
}

// A Forward is a forward dataflow problem over one function's blocks, with
// facts of type F: what holds on entry to each block, from what holds on
// entry to the function (Entry), what a block does (Transfer), what a
// branch proves on each of its edges (Edge) and how the facts of two paths
// into one block merge (Join). Facts only grow under Join, so the solution
// is the least fixed point, reached by a worklist.
type Forward[F any] struct {
	Entry F
	// Copy returns a copy of facts that Transfer and Edge may change.
	Copy func(F) F
	// Transfer applies block b's instructions to in, a copy it may change,
	// and returns the facts at its end.
	Transfer func(b *ssa.BasicBlock, in F) F
	// Edge narrows (or extends) the facts out at the end of b for its i-th
	// successor: a comparison's branch, the φs of the successor. Nil
	// passes them unchanged.
	Edge func(b *ssa.BasicBlock, i int, out F) F
	// Join adds from to into, reporting whether into grew: F is a
	// reference type (a map, a pointer), changed in place.
	Join func(into, from F) bool
}

// Solve returns the facts on entry to each block reachable from the
// entry. A block the entry does not reach has none.
func (p Forward[F]) Solve(fn *ssa.Function) map[*ssa.BasicBlock]F {
	in := make(map[*ssa.BasicBlock]F)
	if len(fn.Blocks) == 0 {
		return in
	}
	in[fn.Blocks[0]] = p.Entry
	work := []*ssa.BasicBlock{fn.Blocks[0]}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		end := p.Transfer(b, p.Copy(in[b]))
		for i, s := range b.Succs {
			out := p.Copy(end)
			if p.Edge != nil {
				out = p.Edge(b, i, out)
			}
			old, seen := in[s]
			if !seen {
				in[s] = out
				work = append(work, s)
			} else if p.Join(old, out) {
				work = append(work, s)
			}
		}
	}
	return in
}
