package cachesync

import (
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// A guard says which instructions of a function can run before any wait
// for informer caches: those reachable from the entry on a path that
// passes no wait.
type guard struct {
	// limit holds, for each block reachable without a wait, the index of
	// its first wait (len(Instrs) when it has none): the instructions
	// before it are unguarded.
	limit map[*ssa.BasicBlock]int
	waits bool // the function waits somewhere
}

// unguarded reports whether instr can run before any cache-sync wait.
func (g *guard) unguarded(instr ssa.Instruction) bool {
	b := instr.Block()
	limit, ok := g.limit[b]
	if !ok {
		return false
	}
	for i := 0; i < limit; i++ {
		if b.Instrs[i] == instr {
			return true
		}
	}
	return false
}

// each calls f for every unguarded instruction, in block order.
func (g *guard) each(fn *ssa.Function, f func(ssa.Instruction)) {
	for _, b := range fn.Blocks {
		limit, ok := g.limit[b]
		if !ok {
			continue
		}
		for _, instr := range b.Instrs[:limit] {
			f(instr)
		}
	}
}

// guardOf computes (once) the guard of a function.
func (c *checker) guardOf(fn *ssa.Function) *guard {
	if g, ok := c.guards[fn]; ok {
		return g
	}
	c.guards[fn] = &guard{limit: map[*ssa.BasicBlock]int{}} // a recursive call waits for nothing
	first := make(map[*ssa.BasicBlock]int, len(fn.Blocks))
	waits := false
	for _, b := range fn.Blocks {
		first[b] = len(b.Instrs)
		for i, instr := range b.Instrs {
			if c.isWait(instr) {
				first[b] = i
				waits = true
				break
			}
		}
	}
	g := &guard{limit: map[*ssa.BasicBlock]int{}, waits: waits}
	if len(fn.Blocks) > 0 {
		work := []*ssa.BasicBlock{fn.Blocks[0]}
		g.limit[fn.Blocks[0]] = first[fn.Blocks[0]]
		for len(work) > 0 {
			b := work[len(work)-1]
			work = work[:len(work)-1]
			if first[b] < len(b.Instrs) {
				continue // every path through b waits
			}
			for _, s := range b.Succs {
				if _, seen := g.limit[s]; !seen {
					g.limit[s] = first[s]
					work = append(work, s)
				}
			}
		}
	}
	c.guards[fn] = g
	return g
}

// isWait reports whether instr waits for informer caches: a client-go,
// factory or controller-runtime cache wait, another package's helper that
// is handed sync checks and returns a bool, or a package function that
// waits on every path to its returns.
func (c *checker) isWait(instr ssa.Instruction) bool {
	call, ok := instr.(*ssa.Call)
	if !ok {
		return false
	}
	fn, recv, _ := callee(call.Common())
	if kube.IsCacheSyncWait(fn, recvType(recv)) {
		return true
	}
	if local := c.local(call.Common().Value); local != nil {
		return c.alwaysWaits(local)
	}
	return fn != nil && fn.Pkg() != c.pkg.Pkg && kube.TakesSyncChecks(fn)
}

// alwaysWaits reports whether every path of fn to a return passes a
// cache-sync wait (a waitForCaches helper).
func (c *checker) alwaysWaits(fn *ssa.Function) bool {
	if c.inTest(fn) {
		return false
	}
	g := c.guardOf(fn)
	if !g.waits {
		return false
	}
	waits := true
	g.each(fn, func(instr ssa.Instruction) {
		if _, ok := instr.(*ssa.Return); ok {
			waits = false
		}
	})
	return waits
}
