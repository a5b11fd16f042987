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
func (a *checker) quietTestHelper(fn *ssa.Function) bool {
	if a.named == nil {
		a.named = nameSites(a.funcs)
	}
	return a.named.quietHelper(fn, a.pass.Fset, make(map[*ssa.Function]bool))
}

// named maps a function to the instructions of the package's source
// functions that name it: a package-level function has no referrers in
// SSA, and asking every checked test function to scan the whole package
// made this search quadratic in the size of a test package.
type named map[*ssa.Function][]site

type site struct {
	caller *ssa.Function
	instr  ssa.Instruction
}

func nameSites(funcs []*ssa.Function) named {
	n := make(named)
	var ops []*ssa.Value
	for _, caller := range funcs {
		for _, b := range caller.Blocks {
			for _, instr := range b.Instrs {
				ops = instr.Operands(ops[:0])
				for _, op := range ops {
					if fn, ok := (*op).(*ssa.Function); ok {
						n[fn] = append(n[fn], site{caller, instr})
					}
				}
			}
		}
	}
	return n
}

func (n named) quietHelper(fn *ssa.Function, fset *token.FileSet, visiting map[*ssa.Function]bool) bool {
	if visiting[fn] || !strings.HasSuffix(fset.Position(fn.Pos()).Filename, "_test.go") {
		return false
	}
	visiting[fn] = true
	sites := n[fn]
	for _, s := range sites {
		call, ok := s.instr.(ssa.CallInstruction)
		if !ok || call.Common().Value != fn {
			return false // used as a value: who calls it is unknown
		}
		quiet := ssax.InTest(s.caller) && !runsInformers(s.caller) || n.quietHelper(s.caller, fset, visiting)
		if !quiet {
			return false
		}
	}
	return len(sites) > 0
}
