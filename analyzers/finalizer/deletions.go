package finalizer

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
)

// A site is a static call of a function of the package.
type site struct {
	caller *ssa.Function
	call   *ssa.Call
}

// dominates reports whether every path to b goes through the deletion
// branch: b is dominated by the branch's block, and that block is entered
// only from the check (or is a helper's entry).
func (d *deletion) dominates(b *ssa.BasicBlock) bool {
	if len(d.block.Preds) > 1 {
		return false // entered from elsewhere too (a || condition)
	}
	return d.block.Dominates(b)
}

// deletions finds, for each function, the branches on which an object is
// known to be being deleted: its own checks, and, for an unexported
// function of the package called only from such branches with the object
// as an argument (a reconcileDelete helper), its whole body for that
// parameter. Helpers are followed to any depth.
func deletions(pkg *ssa.Package, funcs []*ssa.Function) map[*ssa.Function][]deletion {
	out := make(map[*ssa.Function][]deletion)
	sites := make(map[*ssa.Function][]site)
	escapes := make(map[*ssa.Function]bool)
	invoked := make(map[string]bool)
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok && call.Common().IsInvoke() {
					invoked[call.Common().Method.Name()] = true
				}
				var ops []*ssa.Value
				for i, op := range instr.Operands(ops[:0]) {
					g, ok := (*op).(*ssa.Function)
					if !ok {
						continue
					}
					if g.Synthetic != "" {
						// A bound method value (f := r.reconcileDelete) or a
						// method expression: the method runs from wherever f goes.
						if m, ok := g.Object().(*types.Func); ok {
							if real := pkg.Prog.FuncValue(m); real != nil {
								escapes[real] = true
							}
						}
						continue
					}
					if g.Pkg != pkg {
						continue
					}
					if call, ok := instr.(*ssa.Call); ok && i == 0 && !call.Call.IsInvoke() {
						sites[g] = append(sites[g], site{fn, call})
						continue
					}
					escapes[g] = true // a func value, a go or defer statement: called from anywhere
				}
			}
			if ifi, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok {
				if o, ifTrue := deletionCheck(ifi.Cond); o != nil {
					succ := b.Succs[1]
					if ifTrue {
						succ = b.Succs[0]
					}
					out[fn] = append(out[fn], deletion{obj: o, check: ifi, block: succ})
				}
			}
		}
	}
	helper := func(g *ssa.Function) bool {
		return len(sites[g]) > 0 && !escapes[g] && g.Parent() == nil && len(g.Blocks) > 0 &&
			!ast.IsExported(g.Name()) && !invoked[g.Name()]
	}
	// A helper's parameter is deleted once every call site is on a
	// deletion branch, which may be a parameter's deletion found in an
	// earlier round: each round that changes adds a parameter, so one
	// more round than there are parameters reaches the fixed point.
	done := make(map[*ssa.Parameter]bool)
	rounds := 1
	for _, fn := range funcs {
		rounds += len(fn.Params)
	}
	flow.Solve(funcs, rounds, func(instr ssa.Instruction) bool {
		call, ok := instr.(*ssa.Call)
		if !ok {
			return false
		}
		g := call.Call.StaticCallee()
		if g == nil || !helper(g) {
			return false
		}
		changed := false
		for i, p := range g.Params {
			if done[p] {
				continue
			}
			if check := deletedAtEverySite(sites[g], i, out); check != nil {
				done[p] = true
				out[g] = append(out[g], deletion{obj: p, check: check, block: g.Blocks[0]})
				changed = true
			}
		}
		return changed
	})
	return out
}

// deletedAtEverySite returns the check that shows argument i being
// deleted at the first call site, when every call site is on a deletion
// branch of the object it passes; nil otherwise.
func deletedAtEverySite(sites []site, i int, dels map[*ssa.Function][]deletion) *ssa.If {
	var first *ssa.If
	for _, s := range sites {
		if i >= len(s.call.Call.Args) {
			return nil
		}
		arg := kubessa.MetaObject(s.call.Call.Args[i])
		var found *ssa.If
		for j := range dels[s.caller] {
			d := &dels[s.caller][j]
			if d.obj == arg && d.dominates(s.call.Block()) {
				found = d.check
				break
			}
		}
		if found == nil {
			return nil
		}
		if first == nil {
			first = found
		}
	}
	return first
}
