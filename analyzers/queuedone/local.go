package queuedone

import (
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/keyflow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// privateQueue reports whether it's queue is one its own function builds
// and keeps to itself: it is not stored, passed, returned, captured or
// drained. A key left in processing there is waited on by nobody — the
// shape of a test that takes one item to assert on it — while any of
// those uses can put a worker, or ShutDownWithDrain, behind the queue.
func privateQueue(it *keyflow.Item) bool {
	common := it.Get.Common()
	recv := common.Value
	if !common.IsInvoke() {
		recv = common.Args[0]
	}
	origin, ok := flow.Origin(recv, flow.Conversions).(*ssa.Call)
	if !ok || origin.Parent() != it.Fn || !isQueueConstructor(origin.Common()) {
		return false
	}
	// Its conversions and φs are the same queue; any other use but a
	// queue method on it may let it escape.
	return flow.Uses(origin, flow.Conversions|flow.Phis, func(use ssa.Instruction, of ssa.Value) bool {
		switch r := use.(type) {
		case *ssa.DebugRef, *ssa.ChangeInterface, *ssa.MakeInterface, *ssa.ChangeType, *ssa.Phi:
			return true // followed by Uses
		case ssa.CallInstruction:
			return onlyReceiver(r.Common(), of)
		}
		return false // stored, returned, compared, captured: it may escape
	})
}

// onlyReceiver reports whether the call is a queue method other than
// ShutDownWithDrain, and v appears in it as the receiver only.
func onlyReceiver(common *ssa.CallCommon, v ssa.Value) bool {
	_, method, args, ok := keyflow.QueueOp(common)
	if !ok || method == "ShutDownWithDrain" {
		return false
	}
	if common.IsInvoke() && common.Value != v {
		return false
	}
	for _, a := range args {
		if a == v {
			return false
		}
	}
	return true
}

func isQueueConstructor(common *ssa.CallCommon) bool {
	fn := ssax.Callee(common)
	if fn == nil || fn.Pkg() == nil || common.IsInvoke() {
		return false
	}
	if p := fn.Pkg().Path(); p != kube.WorkqueuePkg && p != kube.CRPriorityPkg {
		return false
	}
	sig := fn.Signature()
	if sig.Recv() != nil || sig.Results().Len() != 1 {
		return false
	}
	_, ok := kube.QueueOf(sig.Results().At(0).Type())
	return ok
}
