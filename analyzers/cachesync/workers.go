package cachesync

import (
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/keyflow"
)

// maxLoopDepth bounds how many package calls separate a launched function
// from the work-queue Get that makes it a worker loop (runWorker ->
// processNextWorkItem -> Get is two).
const maxLoopDepth = 4

// A start is a worker start that can run before any cache-sync wait.
type start struct {
	at     ssa.Instruction // where, in the function it was found in
	launch ssa.Instruction // the go statement or launcher call that starts the worker
	worker *ssa.Function   // the worker loop it starts
	getter *ssa.Function   // the function that takes items from the queue
}

// startsOf returns the worker starts of fn that no cache-sync wait of fn
// precedes: go statements and launcher calls (wait.Until*, WaitGroup.Go,
// ...) of a worker loop whose items are processed against the caches, or
// of a function that itself starts one before waiting, and calls of
// package helpers that do.
func (c *checker) startsOf(fn *ssa.Function) []start {
	if s, ok := c.starts[fn]; ok {
		return s
	}
	c.starts[fn] = nil // recursion starts nothing
	var out []start
	c.guardOf(fn).each(fn, func(instr ssa.Instruction) {
		call, ok := instr.(ssa.CallInstruction)
		if !ok {
			return
		}
		if target := c.launched(call); target != nil {
			if getter := c.workerLoop(target, maxLoopDepth, map[*ssa.Function]bool{}); getter != nil {
				if c.readsCaches(target) {
					out = append(out, start{at: instr, launch: instr, worker: target, getter: getter})
				}
				return
			}
			for _, s := range c.startsOf(target) {
				out = append(out, start{at: instr, launch: s.launch, worker: s.worker, getter: s.getter})
			}
			return
		}
		if h := c.plainCallee(instr); h != nil {
			for _, s := range c.startsOf(h) {
				out = append(out, start{at: instr, launch: s.launch, worker: s.worker, getter: s.getter})
			}
		}
	})
	c.starts[fn] = out
	return out
}

// workerLoop reports whether fn takes items from a work queue, itself or
// through package calls (at most depth deep), before any cache-sync wait:
// it returns the function with the Get, or nil.
func (c *checker) workerLoop(fn *ssa.Function, depth int, seen map[*ssa.Function]bool) *ssa.Function {
	if depth < 0 || seen[fn] {
		return nil
	}
	seen[fn] = true
	var found *ssa.Function
	c.guardOf(fn).each(fn, func(instr ssa.Instruction) {
		if found != nil {
			return
		}
		if call, ok := instr.(*ssa.Call); ok {
			if _, method, _, ok := keyflow.QueueOp(call.Common()); ok && method == "Get" {
				found = fn
				return
			}
		}
		if h := c.plainCallee(instr); h != nil {
			found = c.workerLoop(h, depth-1, seen)
		}
	})
	return found
}
