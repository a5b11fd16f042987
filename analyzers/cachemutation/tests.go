package cachemutation

import (
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// runsInformers reports whether test code fn (with its closures) starts
// informers (a factory's Start, an informer's Run) or goroutines (a
// controller's workers). Until it does, the listers and indexers it reads
// are stores the test fills itself (GetIndexer().Add) as a stand-in for
// the API server: no watch replaces their objects, no controller reads
// them concurrently, and a test that writes to them arranges its next
// step. Once informers run, their objects are a live cache shared with
// the controller under test (and the mutation detector) again.
func runsInformers(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch in := instr.(type) {
			case *ssa.Go:
				return true
			case ssa.CallInstruction:
				recv, _ := receiverAndArgs(in.Common())
				if kube.StartsInformers(ssax.Callee(in.Common()), typeOf(recv)) {
					return true
				}
			}
		}
	}
	for _, anon := range fn.AnonFuncs {
		if runsInformers(anon) {
			return true
		}
	}
	return false
}
