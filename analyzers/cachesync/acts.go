package cachesync

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/internal/crash"
)

// maxReachDepth bounds how many package calls and launches separate a
// root from the function whose cache read decides a write (Run ->
// periodicGC -> go func -> gc).
const maxReachDepth = 4

// checkActs reports, in each function that nothing in the package calls,
// the calls and starts that reach a write decided by a cache read's "not
// there" answer (absenceAct) on a path that passes no cache-sync wait
// whose result is checked. The worker loops are checkWorkers' to report.
func (c *checker) checkActs(referenced map[*ssa.Function]bool, api map[*types.TypeName]bool, owners owners) {
	for _, fn := range c.funcs {
		if referenced[fn] {
			continue
		}
		c.checkActsRoot(fn, api, owners)
	}
}

func (c *checker) checkActsRoot(fn *ssa.Function, api map[*types.TypeName]bool, owners owners) {
	defer crash.At(c.pass.Fset, fn.Pos())
	if !c.guardOf(fn).waits && (api[recvNamed(fn)] || !owners.owns(fn)) {
		return // the caller is to wait first
	}
	// Only start-up code (it waits, checks HasSynced or starts informers)
	// is followed into plain calls; from any other root only what it
	// launches is: an exported sync method another package calls after
	// its own wait is no start-up code.
	startup := c.mentionsSync(fn)
	ignored := c.ignoredWaitIn(fn)
	if startup {
		if a, ok := c.absenceAct(fn); ok {
			c.reportAct(a.read, "", a, ignored)
			return
		}
	}
	reported := false
	c.checkedGuardOf(fn).each(fn, func(instr ssa.Instruction) {
		if reported {
			return
		}
		targets, launched := c.reachedBy(instr)
		var (
			target, at *ssa.Function
			a          act
			ok         bool
		)
		for _, t := range targets {
			if at, a, ok = c.reachAct(t, maxReachDepth, map[*ssa.Function]bool{fn: true}, !startup && !launched); ok {
				target = t
				break
			}
		}
		if !ok {
			return
		}
		via := label(target)
		if call, ok := instr.(ssa.CallInstruction); ok && isLeaderElectionRun(call.Common()) {
			via = "the OnStartedLeading callback " + via
		}
		what := via
		switch {
		case at != target:
			what = fmt.Sprintf("%s, reached through %s,", label(at), via)
		case launched:
			what = via + ", started here,"
		}
		c.reportAct(instr, what, a, ignored)
		reported = true // one report per root: the fix is one wait
	})
}

// reachedBy returns the package functions a call runs, in the caller's
// goroutine or launched (a go statement, wait.Until, the OnStartedLeading
// callbacks the caller sets for the leader election it runs), except
// worker loops (checkWorkers reports those).
func (c *checker) reachedBy(instr ssa.Instruction) (targets []*ssa.Function, launched bool) {
	call, ok := instr.(ssa.CallInstruction)
	if !ok {
		return nil, false
	}
	if t := c.launched(call); t != nil {
		if c.workerLoop(t, maxLoopDepth, map[*ssa.Function]bool{}) != nil {
			return nil, false
		}
		return []*ssa.Function{t}, true
	}
	if isLeaderElectionRun(call.Common()) {
		return c.leaderCallbacks(instr.Parent()), true
	}
	if h := c.plainCallee(instr); h != nil {
		return []*ssa.Function{h}, false
	}
	return nil, false
}

// reachAct looks for an absence act in fn, before fn's own checked waits,
// and in the functions it calls or launches there; while needLaunch, only
// past a launch.
func (c *checker) reachAct(fn *ssa.Function, depth int, seen map[*ssa.Function]bool, needLaunch bool) (*ssa.Function, act, bool) {
	if depth < 0 || seen[fn] || c.inTest(fn) {
		return nil, act{}, false
	}
	seen[fn] = true
	if !needLaunch {
		if a, ok := c.absenceAct(fn); ok {
			return fn, a, true
		}
	}
	var (
		at    *ssa.Function
		found act
		ok    bool
	)
	c.checkedGuardOf(fn).each(fn, func(instr ssa.Instruction) {
		if ok {
			return
		}
		targets, launched := c.reachedBy(instr)
		for _, t := range targets {
			if at, found, ok = c.reachAct(t, depth-1, seen, needLaunch && !launched); ok {
				return
			}
		}
	})
	return at, found, ok
}

// unguarded returns a predicate for the instructions of fn that no
// checked cache-sync wait of fn precedes.
func (c *checker) unguarded(fn *ssa.Function) func(ssa.Instruction) bool {
	set := make(map[ssa.Instruction]bool)
	c.checkedGuardOf(fn).each(fn, func(instr ssa.Instruction) { set[instr] = true })
	return func(instr ssa.Instruction) bool { return set[instr] }
}

// ignoredWaitIn returns a wait whose result fn, or a package function fn
// calls, drops, on fn's paths that pass no checked wait.
func (c *checker) ignoredWaitIn(fn *ssa.Function) ssa.Instruction {
	var found ssa.Instruction
	c.checkedGuardOf(fn).each(fn, func(instr ssa.Instruction) {
		if found != nil {
			return
		}
		if c.isIgnoredWait(instr) {
			found = instr
			return
		}
		if h := c.plainCallee(instr); h != nil && !c.inTest(h) {
			c.checkedGuardOf(h).each(h, func(inner ssa.Instruction) {
				if found == nil && c.isIgnoredWait(inner) {
					found = inner
				}
			})
		}
	})
	return found
}

// reportAct reports an absence act reached from a root: at the read when
// it is in the root (what is ""), else at the call or start that reaches
// it.
func (c *checker) reportAct(at ssa.Instruction, what string, a act, ignored ssa.Instruction) {
	subject := fmt.Sprintf("a delete or update (line %d) is decided by what this informer cache read does not find", c.line(a.write))
	if what != "" {
		subject = fmt.Sprintf("%s deletes or updates what an informer cache read (line %d) does not find", what, c.line(a.read))
	}
	var msg string
	if ignored != nil {
		msg = fmt.Sprintf("%s, after a cache-sync wait whose result is ignored (line %d): when the wait gives up the caches are partial, objects that exist look deleted and are acted on; return unless the caches synced (if !cache.WaitForCacheSync(...) { return }, or check every value of the factory's WaitForCacheSync map)",
			subject, c.line(ignored))
	} else {
		msg = subject + ", before the caches have synced: an unsynced lister misses objects that exist, so they look deleted and are acted on; wait for the caches (cache.WaitForNamedCacheSyncWithContext or the factory's WaitForCacheSync) first and return if that fails"
	}
	c.pass.Report(analysis.Diagnostic{Pos: at.Pos(), Message: msg})
}
