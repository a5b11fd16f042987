// Package flow is ctrllint's one value-flow layer on SSA: where a value
// comes from (backward) and where it goes (forward), through the steps a
// named Policy allows.
//
// Analyzers ask the same questions of SSA values: is this the object the
// cache returned, the client the controller built, the key the queue
// handed out. The answers differ only in which steps keep "the same
// value": a conversion to client.Object keeps an object's identity, a
// field load keeps the memory it is reached from, a numeric conversion
// keeps neither. Each difference an analyzer needs is a Policy here, not
// a copy of the walk, so that the walks agree on what they share (a
// closure made twice, a captured variable assigned twice) and say by name
// where they differ.
//
// Three rules hold for every trace:
//
//   - A closure's free variable stands for what its closures bind to it
//     (Bindings); a closure made twice binds two values, and a trace that
//     wants one value (Binding) gets none unless both are the same.
//   - A load of a captured variable stands for the value stored into it
//     only when that value is the same at every load (Cell): assigned
//     once, never written or handed on through its address.
//   - Walks stop at a cycle (a loop's φ) and at MaxSteps: a longer chain
//     of copies than that is not code a controller contains, and an
//     answer cut short is the conservative one (no origin).
package flow

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// A Policy is a set of steps a trace may take from a value to the values
// it is made from (backward) or to the values made from it (forward).
type Policy uint16

const (
	// Conversions: MakeInterface, ChangeInterface and ChangeType, the same
	// value under another type. Never Convert: a numeric or string
	// conversion makes a new value.
	Conversions Policy = 1 << iota
	// Asserts: x.(T) without comma-ok, the value asserted on. A
	// comma-ok assertion yields a zero value when it fails, so it is
	// not the same value.
	Asserts
	// Phis: every value a φ merges.
	Phis
	// Cells: a load of a captured variable to the value stored into it
	// (Cell).
	Cells
	// FreeVars: a closure's free variable to what its closures bind to it
	// (Bindings).
	FreeVars
	// Fields: x.f and &x.f to the struct (or its address) they select from.
	Fields
	// Elements: x[i], &x[i], x[a:b] and m[k] to the array, slice, string
	// or map they index.
	Elements
	// Loads: *p to p.
	Loads
	// Extracts: a tuple's element to the call or operation making the
	// tuple.
	Extracts
)

// The policies the analyzers share.
const (
	// Same follows what keeps a value's identity: the same pointer,
	// interface or func value under another type, in a closure or a
	// captured variable.
	Same = Conversions | Asserts | Cells | FreeVars
	// Within follows what is reached from a value: its fields and
	// elements, what its pointers point to, besides what Same follows.
	Within = Same | Fields | Elements | Loads
)

// MaxSteps bounds the values one trace visits. Chains of copies in real
// controllers are a few steps long; the bound keeps a pathological
// function (generated code with thousands of φs) from costing more than
// the rest of its package.
const MaxSteps = 256

// Preds returns the values v is made from in one step under p; none for a
// value p does not look through (a parameter, a call, a constant).
func Preds(v ssa.Value, p Policy) []ssa.Value {
	switch x := v.(type) {
	case *ssa.MakeInterface:
		if p&Conversions != 0 {
			return []ssa.Value{x.X}
		}
	case *ssa.ChangeInterface:
		if p&Conversions != 0 {
			return []ssa.Value{x.X}
		}
	case *ssa.ChangeType:
		if p&Conversions != 0 {
			return []ssa.Value{x.X}
		}
	case *ssa.TypeAssert:
		if p&Asserts != 0 && !x.CommaOk {
			return []ssa.Value{x.X}
		}
	case *ssa.Phi:
		if p&Phis != 0 {
			return x.Edges
		}
	case *ssa.FreeVar:
		if p&FreeVars != 0 {
			return Bindings(x)
		}
	case *ssa.UnOp:
		if x.Op != token.MUL {
			break
		}
		if p&Cells != 0 {
			if stored := Cell(x); stored != nil {
				return []ssa.Value{stored}
			}
		}
		if p&Loads != 0 {
			return []ssa.Value{x.X}
		}
	case *ssa.FieldAddr:
		if p&Fields != 0 {
			return []ssa.Value{x.X}
		}
	case *ssa.Field:
		if p&Fields != 0 {
			return []ssa.Value{x.X}
		}
	case *ssa.IndexAddr:
		if p&Elements != 0 {
			return []ssa.Value{x.X}
		}
	case *ssa.Index:
		if p&Elements != 0 {
			return []ssa.Value{x.X}
		}
	case *ssa.Slice:
		if p&Elements != 0 {
			return []ssa.Value{x.X}
		}
	case *ssa.Lookup:
		if p&Elements != 0 && !x.CommaOk {
			return []ssa.Value{x.X}
		}
	case *ssa.Extract:
		if p&Extracts != 0 {
			return []ssa.Value{x.Tuple}
		}
	}
	return nil
}

// Origins returns the values v comes from under p: the ends of every
// backward path from v (v itself when p looks through nothing it is), each
// once, in the order first reached. ok is false when the walk was cut
// short (MaxSteps): the list is then not every origin.
func Origins(v ssa.Value, p Policy) (origins []ssa.Value, ok bool) {
	seen := map[ssa.Value]bool{v: true}
	work := []ssa.Value{v}
	for steps := 0; len(work) > 0; steps++ {
		if steps == MaxSteps {
			return origins, false
		}
		x := work[0]
		work = work[1:]
		preds := Preds(x, p)
		if len(preds) == 0 {
			if _, isPhi := x.(*ssa.Phi); !isPhi || p&Phis == 0 {
				origins = append(origins, x)
			}
			continue // a φ with no edges is unreachable code: no origin
		}
		for _, pr := range preds {
			if !seen[pr] {
				seen[pr] = true
				work = append(work, pr)
			}
		}
	}
	return origins, true
}

// Origin returns the one value v comes from under p: the end of the chain
// of steps with exactly one predecessor each. A φ with two different
// values, a closure made with two bindings, or a cycle ends the chain
// there: Origin returns that value, not a guess.
func Origin(v ssa.Value, p Policy) ssa.Value {
	for x := range Chain(v, p) {
		v = x
	}
	return v
}

// Chain yields v and then each value it is made from under p while there
// is exactly one (the walk Origin ends). A φ whose edges are all one
// value (after a loop that does not assign it) counts as one.
func Chain(v ssa.Value, p Policy) func(yield func(ssa.Value) bool) {
	return func(yield func(ssa.Value) bool) {
		seen := make(map[ssa.Value]bool)
		for steps := 0; steps < MaxSteps && v != nil && !seen[v]; steps++ {
			seen[v] = true
			if !yield(v) {
				return
			}
			v = single(Preds(v, p), seen)
		}
	}
}

// single is the one value of preds besides those already seen (a φ's edge
// back to itself), or nil.
func single(preds []ssa.Value, seen map[ssa.Value]bool) ssa.Value {
	var one ssa.Value
	for _, pr := range preds {
		if seen[pr] || pr == one {
			continue
		}
		if one != nil {
			return nil
		}
		one = pr
	}
	return one
}

// Bindings returns the values the closures of fv's function bind to fv,
// one per MakeClosure, in instruction order; nil when fv is not one of its
// function's free variables or the function is reached otherwise than by
// a MakeClosure (then what fv holds is not known here).
func Bindings(fv *ssa.FreeVar) []ssa.Value {
	fn := fv.Parent()
	i := slices.Index(fn.FreeVars, fv)
	refs := fn.Referrers()
	if i < 0 || refs == nil {
		return nil
	}
	var out []ssa.Value
	for _, ref := range *refs {
		mc, ok := ref.(*ssa.MakeClosure)
		if !ok || mc.Fn != fn || i >= len(mc.Bindings) {
			return nil
		}
		out = append(out, mc.Bindings[i])
	}
	return out
}

// Binding returns the value every closure of fv's function binds to fv:
// the one binding of a closure made once, or the one value a closure
// made twice binds both times. Otherwise nil: a closure made twice with
// two values holds either, and no one value is right.
func Binding(fv *ssa.FreeVar) ssa.Value {
	var one ssa.Value
	for _, b := range Bindings(fv) {
		if one != nil && b != one {
			return nil
		}
		one = b
	}
	return one
}

// Cell returns the value a load reads from a variable that closures
// capture (SSA keeps such a variable in memory and loads it at each use),
// when that value is the same at every load: the variable holds a pointer,
// an interface, a map, a channel or a func, is assigned once before every
// load and before every closure capturing it is made, and neither its
// address nor those closures write it or hand it on.
// Otherwise nil. A struct or array variable is the value itself, not a
// reference to it, so a load of one is a copy: never a cell.
func Cell(load *ssa.UnOp) ssa.Value {
	if load.Op != token.MUL {
		return nil
	}
	addr := load.X
	if fv, ok := addr.(*ssa.FreeVar); ok {
		addr = Binding(fv) // a load in the closure itself
	}
	alloc, ok := addr.(*ssa.Alloc)
	if !ok {
		return nil
	}
	switch types.Unalias(load.Type()).Underlying().(type) {
	case *types.Pointer, *types.Interface, *types.Map, *types.Chan, *types.Signature:
	default:
		return nil
	}
	var store *ssa.Store
	var readers []ssa.Instruction // the loads and the closures made of alloc
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Addr != alloc || store != nil {
				return nil // stored elsewhere, or assigned twice
			}
			store = ref
		case *ssa.UnOp:
			if ref.Op != token.MUL {
				return nil
			}
			readers = append(readers, ref)
		case *ssa.DebugRef:
		case *ssa.MakeClosure:
			if !onlyLoaded(ref, alloc) {
				return nil
			}
			readers = append(readers, ref)
		default:
			return nil // its address handed on
		}
	}
	if store == nil {
		return nil
	}
	// A load on a path that does not pass the store reads the zero value:
	// the store must come before every load in the function and before
	// every closure that may load it is made.
	for _, r := range readers {
		if !before(store, r) {
			return nil
		}
	}
	return store.Val
}

// before reports whether a comes before b on every path to b: earlier in
// the same block, or in a block that dominates b's.
func before(a, b ssa.Instruction) bool {
	if a.Block() != b.Block() {
		return a.Block().Dominates(b.Block())
	}
	for _, instr := range a.Block().Instrs {
		switch instr {
		case a:
			return true
		case b:
			return false
		}
	}
	return false
}

// onlyLoaded reports whether the closure mc makes only loads what mc binds
// from alloc.
func onlyLoaded(mc *ssa.MakeClosure, alloc *ssa.Alloc) bool {
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return false
	}
	for i, b := range mc.Bindings {
		if b != alloc || i >= len(fn.FreeVars) {
			continue
		}
		for _, use := range *fn.FreeVars[i].Referrers() {
			switch u := use.(type) {
			case *ssa.UnOp:
				if u.Op != token.MUL {
					return false
				}
			case *ssa.DebugRef:
			default:
				return false // written, or handed on, in the closure
			}
		}
	}
	return true
}
