package cachemutation

import (
	"go/token"
	"strings"

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

// quietTestHelper reports whether fn is a helper of the package's tests
// (declared in a _test.go file, not handed the test) that only test code
// starting no informers calls, directly or through other such helpers:
// kubernetes' daemon tests mark the pods of a store they filled ready
// with markPodsReady(manager.podStore), a helper of their own. It
// arranges state as the test would itself. A helper a test that runs
// informers calls, or one used as a value, is checked.
func quietTestHelper(fn *ssa.Function, funcs []*ssa.Function, fset *token.FileSet) bool {
	return quietHelper(fn, funcs, fset, make(map[*ssa.Function]bool))
}

func quietHelper(fn *ssa.Function, funcs []*ssa.Function, fset *token.FileSet, visiting map[*ssa.Function]bool) bool {
	if visiting[fn] || !strings.HasSuffix(fset.Position(fn.Pos()).Filename, "_test.go") {
		return false
	}
	visiting[fn] = true
	callers := 0
	for _, caller := range funcs {
		for _, b := range caller.Blocks {
			for _, instr := range b.Instrs {
				for _, op := range instr.Operands(nil) {
					if *op != fn {
						continue
					}
					call, ok := instr.(ssa.CallInstruction)
					if !ok || call.Common().Value != fn {
						return false // used as a value: who calls it is unknown
					}
					callers++
					quiet := ssax.InTest(caller) && !runsInformers(caller) || quietHelper(caller, funcs, fset, visiting)
					if !quiet {
						return false
					}
				}
			}
		}
	}
	return callers > 0
}
