package cachesync

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// instrs is a set of instructions in a stable order.
type instrs struct {
	order []ssa.Instruction
	set   map[ssa.Instruction]bool
}

// reachableAfter returns the instructions that can run after instr in its
// function: the rest of its block and every block reachable from it
// (instr's own block again, whole, when a loop leads back to it).
func reachableAfter(instr ssa.Instruction) instrs {
	out := instrs{set: make(map[ssa.Instruction]bool)}
	add := func(i ssa.Instruction) {
		if !out.set[i] {
			out.set[i] = true
			out.order = append(out.order, i)
		}
	}
	b := instr.Block()
	past := false
	for _, i := range b.Instrs {
		if past {
			add(i)
		}
		past = past || i == instr
	}
	ssax.Reaches(b.Succs, func(s *ssa.BasicBlock) bool {
		for _, i := range s.Instrs {
			add(i)
		}
		return false // visit them all
	})
	return out
}

// factoryKey identifies a factory within a function: the struct field or
// package variable it is loaded from, or else the value itself (a
// parameter, a local).
func factoryKey(v ssa.Value) any {
	v = flow.Origin(v, flow.Conversions)
	if f := ssax.FieldOf(v); f != nil {
		return f
	}
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		if g, ok := load.X.(*ssa.Global); ok {
			return g
		}
	}
	return v
}

func sameFactory(v ssa.Value, key any) bool { return factoryKey(v) == key }

// derived reports whether v is the factory key or a handle asked of it:
// the group and version accessors and the per-resource informers
// (factory.Core().V1().Pods()).
func derived(v ssa.Value, key any) bool {
	for range 8 {
		v = flow.Origin(v, flow.Conversions)
		if sameFactory(v, key) {
			return true
		}
		call, ok := v.(*ssa.Call)
		if !ok {
			return false
		}
		t := call.Type()
		if !isFactoryAccessor(t) && !isResourceInformer(t) {
			return false
		}
		_, recv, _ := callee(call.Common())
		if recv == nil {
			return false
		}
		v = recv
	}
	return false
}

// chainKey is the factory a handle chain starts from (the receiver of
// Core() in factory.Core().V1().Pods()), as a factory key.
func chainKey(v ssa.Value) any {
	for range 8 {
		v = flow.Origin(v, flow.Conversions)
		call, ok := v.(*ssa.Call)
		if !ok || !(isFactoryAccessor(call.Type()) || isResourceInformer(call.Type())) {
			break
		}
		_, recv, _ := callee(call.Common())
		if recv == nil {
			break
		}
		v = recv
	}
	return factoryKey(v)
}

// factoryName spells the factory for a message.
func factoryName(key any) string {
	switch k := key.(type) {
	case *types.Var:
		return "the factory in field " + k.Name()
	case *ssa.Parameter:
		return k.Name()
	case *ssa.Global:
		return k.Name()
	}
	return "the informer factory"
}
