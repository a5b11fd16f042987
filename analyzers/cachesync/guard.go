package cachesync

import (
	"go/constant"
	"go/types"

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

// guardOf computes (once) the guard of a function, in which every wait
// counts, checked or not (a worker started after a wait whose result is
// ignored is started after the caches synced, or on a closed stop
// channel).
func (c *checker) guardOf(fn *ssa.Function) *guard {
	return c.guardWith(fn, c.guards, c.isWait)
}

// checkedGuardOf computes (once) the guard of a function in which only
// waits whose result is looked at count: code after a wait whose failure
// is ignored runs on partial caches when the wait gives up.
func (c *checker) checkedGuardOf(fn *ssa.Function) *guard {
	return c.guardWith(fn, c.checkedGuards, c.isCheckedWait)
}

func (c *checker) guardWith(fn *ssa.Function, memo map[*ssa.Function]*guard, isWait func(ssa.Instruction) bool) *guard {
	if g, ok := memo[fn]; ok {
		return g
	}
	memo[fn] = &guard{limit: map[*ssa.BasicBlock]int{}} // a recursive call waits for nothing
	first := make(map[*ssa.BasicBlock]int, len(fn.Blocks))
	waits := false
	for _, b := range fn.Blocks {
		first[b] = len(b.Instrs)
		for i, instr := range b.Instrs {
			if isWait(instr) {
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
	memo[fn] = g
	return g
}

// isWait reports whether instr waits for informer caches, or checks that
// they have synced: a client-go, factory or controller-runtime cache
// wait; a HasSynced call or a call of an InformerSynced value (a
// hand-written polling loop, or an early return while unsynced); a call
// given a closure that checks HasSynced (wait.PollUntil(..., synced));
// another package's helper that is handed sync checks and returns a bool;
// or a package function that waits on every path that returns success.
func (c *checker) isWait(instr ssa.Instruction) bool {
	call, ok := instr.(*ssa.Call)
	if !ok {
		return false
	}
	common := call.Common()
	fn, recv, args := callee(common)
	switch {
	case kube.WaitsForCacheSync(fn, recvType(recv)), isHasSynced(fn):
		return true
	case fn == nil && isSyncCheck(common.Value.Type()):
		return true // podsSynced()
	case fn != nil && fn.Name() == "Done" && recv != nil && isSyncCheck(recv.Type()):
		return true // <-checker.Done()
	}
	if local := c.local(common.Value); local != nil {
		return c.alwaysWaits(local)
	}
	for _, arg := range args {
		if f := c.local(arg); f != nil && c.checksSync(f) {
			return true
		}
	}
	return fn != nil && fn.Pkg() != c.pkg.Pkg && takesSyncChecks(fn)
}

// checksSync reports whether a function (a poll condition) checks that
// caches have synced.
func (c *checker) checksSync(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			f, recv, _ := callee(call.Common())
			if kube.WaitsForCacheSync(f, recvType(recv)) || isHasSynced(f) || f == nil && isSyncCheck(call.Common().Value.Type()) {
				return true
			}
		}
	}
	return false
}

// isCheckedWait reports whether instr is a wait (isWait) whose result the
// caller looks at: a wait helper of the package that waits on every path
// to success, checked, or any other wait whose result is used. A wait
// whose bool or map of results is dropped lets the code after it run on
// partial caches when it gives up.
func (c *checker) isCheckedWait(instr ssa.Instruction) bool {
	call, ok := instr.(*ssa.Call)
	if !ok {
		return false
	}
	if local := c.local(call.Common().Value); local != nil {
		return c.alwaysWaitsChecked(local) && resultUsed(call)
	}
	return c.isWait(instr) && resultUsed(call)
}

// isIgnoredWait reports whether instr waits for the caches and drops the
// result that says whether they synced.
func (c *checker) isIgnoredWait(instr ssa.Instruction) bool {
	call, ok := instr.(*ssa.Call)
	return ok && !resultUsed(call) && c.isWait(instr)
}

// resultUsed reports whether a call's result is looked at; a call with no
// result has nothing to look at.
func resultUsed(call *ssa.Call) bool {
	if t, ok := call.Type().(*types.Tuple); ok && t.Len() == 0 {
		return true
	}
	refs := call.Referrers()
	return refs != nil && len(*refs) > 0
}

// alwaysWaits reports whether every path of fn to a return of success
// passes a cache-sync wait (a waitForCaches helper). A return of a
// non-nil error or of false is a failure, which callers check.
func (c *checker) alwaysWaits(fn *ssa.Function) bool {
	return c.alwaysWaitsWith(fn, c.guardOf)
}

// alwaysWaitsChecked is alwaysWaits counting only checked waits.
func (c *checker) alwaysWaitsChecked(fn *ssa.Function) bool {
	return c.alwaysWaitsWith(fn, c.checkedGuardOf)
}

func (c *checker) alwaysWaitsWith(fn *ssa.Function, guardOf func(*ssa.Function) *guard) bool {
	if c.inTest(fn) {
		return false
	}
	g := guardOf(fn)
	if !g.waits {
		return false
	}
	waits := true
	g.each(fn, func(instr ssa.Instruction) {
		if ret, ok := instr.(*ssa.Return); ok && !failure(ret) {
			waits = false
		}
	})
	return waits
}

// failure reports whether a return reports failure: an error result that
// is not the constant nil, or a constant false bool result.
func failure(ret *ssa.Return) bool {
	for _, r := range ret.Results {
		t := r.Type()
		k, isConst := r.(*ssa.Const)
		switch {
		case types.Identical(t, errorType):
			if !isConst || !k.IsNil() {
				return true
			}
		case isBool(t):
			if isConst && k.Value != nil && k.Value.Kind() == constant.Bool && !constant.BoolVal(k.Value) {
				return true
			}
		}
	}
	return false
}

var errorType = types.Universe.Lookup("error").Type()

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}
