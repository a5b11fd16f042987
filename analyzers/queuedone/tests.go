package queuedone

import (
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/keyflow"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// takenByTest reports whether it is a test taking a key to assert on it
// (key, _ := c.queue.Get(); if key != want { t.Errorf(...) }): the Get is
// in test code, its unmarked paths end at returns, and the test does not
// drain a queue. The key then stays in processing in a queue that nothing
// works on and the test drops; had the test meant to take it twice, it
// would hang and fail. A test's own worker loop, taking keys from the same
// queue round after round, loses the keys it leaks silently: checked.
func takenByTest(a *keyflow.Analysis, it *keyflow.Item) bool {
	if !ssax.InTest(it.Fn) || drains(it.Fn) {
		return false
	}
	for _, l := range a.Leaks(it, settles) {
		if l.Return == nil && !freshEachRound(it) && !collectsOnly(it) {
			return false // back to the Get on the same queue: a worker loop
		}
	}
	return true
}

// drains reports whether fn calls ShutDownWithDrain, which waits for the
// keys in processing.
func drains(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok {
				if _, method, _, ok := keyflow.QueueOp(call.Common()); ok && method == "ShutDownWithDrain" {
					return true
				}
			}
		}
	}
	return false
}

// freshEachRound reports whether the queue Get is called on is built anew
// on every round of the loop around the Get: a table test that makes a
// controller per case (for _, tc := range cases { c := newController(...);
// ...; key, _ := c.queue.Get() }) takes one key from each.
func freshEachRound(it *keyflow.Item) bool {
	// The queue the receiver is reached from: through conversions, field
	// selections and loads, not through a φ (checked below).
	v := flow.Origin(ssax.Receiver(it.Get.Common()), flow.Conversions|flow.Fields|flow.Loads)
	root, ok := v.(ssa.Instruction)
	if !ok || root.Parent() != it.Fn {
		return false
	}
	if _, ok := root.(*ssa.Phi); ok {
		return false // carried from round to round
	}
	get, made := it.Get.Block(), root.Block()
	reaches := func(from, to *ssa.BasicBlock) bool {
		return ssax.Reaches(from.Succs, func(b *ssa.BasicBlock) bool { return b == to })
	}
	return reaches(get, made) && reaches(made, get)
}

// collectsOnly reports whether the loop around it's Get in test code only
// takes keys and collects them for the test to compare (for { key, done :=
// queue.Get(); if done { break }; got = append(got, key) }, cert-manager's
// ingress-shim and selfsigned tests): nothing in the loop queues a key
// again, so a key left in processing loses nothing, and the queue is the
// test's to drop. A loop that also queues keys, syncs them or calls
// anything else is a worker loop: checked.
func collectsOnly(it *keyflow.Item) bool {
	if !ssax.InTest(it.Fn) {
		return false
	}
	get := it.Get.Block()
	for _, b := range it.Fn.Blocks {
		inLoop := b == get || ssax.Reaches(get.Succs, func(x *ssa.BasicBlock) bool { return x == b }) &&
			ssax.Reaches(b.Succs, func(x *ssa.BasicBlock) bool { return x == get })
		if !inLoop {
			continue
		}
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if _, ok := instr.(*ssa.Go); ok {
				return false
			}
			if !collecting(call.Common()) {
				return false
			}
		}
	}
	return true
}

// collecting reports whether a call only takes keys, appends them, or
// asserts on them.
func collecting(common *ssa.CallCommon) bool {
	if b, ok := common.Value.(*ssa.Builtin); ok {
		return b.Name() == "append" || b.Name() == "len"
	}
	if _, method, _, ok := keyflow.QueueOp(common); ok {
		return method == "Get" || method == "Len" || method == "ShuttingDown"
	}
	fn := ssax.Callee(common)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	switch path := fn.Pkg().Path(); {
	case path == "testing", path == "fmt", path == "reflect",
		strings.HasPrefix(path, "github.com/stretchr/testify/"), strings.HasPrefix(path, "github.com/google/go-cmp/"):
		return true
	}
	return false
}
