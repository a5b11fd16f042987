package keyflow

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// walker searches the paths of one function for an unsettled key.
type walker struct {
	a        *Analysis
	rule     Rule
	item     *Item
	onHelper func(seed)
}

// end is where an unsettled path ends: a return, or (ret nil) the Get again.
type end struct{ ret *ssa.Return }

// walk explores the paths from instruction start of block b and returns
// the ends reached without settling keys. Each block is explored once: a
// return reached by any unsettled path is one finding.
func (w *walker) walk(fn *ssa.Function, keys map[ssa.Value]bool, b *ssa.BasicBlock, start int) []end {
	var ends []end
	seen := make(map[*ssa.BasicBlock]bool)
	loopedBack := false
	type cursor struct {
		b *ssa.BasicBlock
		i int
	}
	work := []cursor{{b, start}}
	if start == 0 {
		seen[b] = true
	}
	for len(work) > 0 {
		c := work[len(work)-1]
		work = work[:len(work)-1]
		settled := false
		for _, instr := range c.b.Instrs[c.i:] {
			if fn == w.item.Fn && instr == w.item.Get {
				if !loopedBack {
					ends = append(ends, end{})
					loopedBack = true
				}
				settled = true
				break
			}
			if w.settles(instr, keys) {
				settled = true
				break
			}
			switch instr := instr.(type) {
			case *ssa.Return:
				ends = append(ends, end{ret: instr})
				settled = true
			case *ssa.Panic:
				settled = true // panics are out of scope
			}
			if settled {
				break
			}
		}
		if settled {
			continue
		}
		for i, s := range c.b.Succs {
			if w.shutdownEdge(fn, c.b, i) || w.badKeyEdge(c.b, i, keys) || seen[s] {
				continue
			}
			seen[s] = true
			work = append(work, cursor{s, 0})
		}
	}
	return ends
}

// shutdownEdge reports whether edge i of b is taken when Get reported a
// shut-down queue: there is no key to settle on it.
func (w *walker) shutdownEdge(fn *ssa.Function, b *ssa.BasicBlock, i int) bool {
	if fn != w.item.Fn || w.item.Shutdown == nil || len(b.Instrs) == 0 {
		return false
	}
	iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	cond := iff.Cond
	if u, ok := cond.(*ssa.UnOp); ok && u.Op == token.NOT {
		cond, i = u.X, 1-i
	}
	return cond == w.item.Shutdown && i == 0
}

// badKeyEdge reports whether edge i of b is the failure edge of a comma-ok
// type assertion on the key, when the rule counts it as settling.
func (w *walker) badKeyEdge(b *ssa.BasicBlock, i int, keys map[ssa.Value]bool) bool {
	if !w.rule.BadKeySettles || len(b.Instrs) == 0 {
		return false
	}
	iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	cond := iff.Cond
	if u, ok := cond.(*ssa.UnOp); ok && u.Op == token.NOT {
		cond, i = u.X, 1-i
	}
	ext, ok := cond.(*ssa.Extract)
	if !ok || ext.Index != 1 {
		return false
	}
	ta, ok := ext.Tuple.(*ssa.TypeAssert)
	return ok && keys[ta.X] && i == 1
}

// settles reports whether instr settles the key: a rule method of a queue
// applied to it (called or deferred), a package helper that applies one on
// some path (it is then checked on its own), or code we cannot see that is
// handed both the key and a queue.
func (w *walker) settles(instr ssa.Instruction, keys map[ssa.Value]bool) bool {
	call, ok := instr.(ssa.CallInstruction)
	if !ok {
		return false
	}
	common := call.Common()
	if _, method, args, ok := QueueOp(common); ok {
		return w.rule.Methods[method] && len(args) > 0 && keys[args[0]]
	}
	seeds := w.a.seedsOf(common, keys)
	settled := false
	for _, s := range seeds {
		if w.a.touchesKey(s, w.rule, ruleName(w.rule)) {
			w.onHelper(s)
			settled = true
		}
	}
	if settled || len(seeds) > 0 {
		return settled
	}
	if w.a.isLocal(common) {
		return false
	}
	// Another package's function, an interface method or a func value:
	// if it is given the queue as well as the key, it may settle it.
	hasKey, hasQueue := false, false
	for _, arg := range common.Args {
		if keys[arg] {
			hasKey = true
		}
		if _, isQueue := kube.QueueOf(arg.Type()); isQueue {
			hasQueue = true
		}
	}
	if common.IsInvoke() {
		if _, isQueue := kube.QueueOf(common.Value.Type()); isQueue {
			hasQueue = true
		}
	}
	return hasKey && hasQueue
}

// isLocal reports whether a call statically invokes a function of the package.
func (a *Analysis) isLocal(common *ssa.CallCommon) bool {
	fn := common.StaticCallee()
	return fn != nil && fn.Pkg == a.pkg
}

func ruleName(r Rule) string {
	name := ""
	for _, m := range []string{"Done", "Forget", "AddRateLimited", "AddAfter", "Add"} {
		if r.Methods[m] {
			name += m + ","
		}
	}
	return name
}
