package cachemutation

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
)

// bits say how a value reaches memory that the informer cache shares.
type bits uint8

const (
	// shared: the value points into (or, for a map or slice, is) memory
	// the cache shares. Writing through it changes the cache.
	shared bits = 1 << iota
	// holds: the value is (or points to) the caller's own memory — a copy
	// of a struct, a fresh slice from List, a local variable — that holds
	// references into the cache. Writing to it is harmless; what is loaded
	// from it is shared.
	holds
)

// A source is where a cached object enters the analysed code: a cache
// read, a call of a package function that returns one, or (in a summary)
// a parameter.
type source struct {
	call  *ssa.Call // the read, nil for a parameter
	desc  string    // how the message names it: "c.podLister.Pods(ns).Get"
	many  bool      // a fresh slice of cached objects
	index int       // which result of the call
	param int       // the parameter index, for summaries; -1 otherwise
	// callback: the object is what the call hands its callback
	// (cache.ListAllByNamespace's AppendFunc), not what it returns.
	callback bool
}

// taint is what is known of a value: its bits and the first source found.
type taint struct {
	b   bits
	src *source
}

func (t taint) join(u taint) taint {
	if t.src == nil {
		t.src = u.src
	}
	t.b |= u.b
	return t
}

// A sink is a write to cached memory.
type sink struct {
	pos   token.Pos
	instr ssa.Instruction
	src   *source
}

// tupleKey names one component of a tuple-valued instruction.
type tupleKey struct {
	v ssa.Value
	i int
}

// A unit is the analysis of one function together with the closures it
// contains (they share captured variables): a fixed point of taint over
// its SSA values, and the writes to cached memory found on the way.
type unit struct {
	a       *checker
	root    *ssa.Function
	fns     []*ssa.Function
	sources bool // create sources at cache reads (false in parameter summaries)

	vals  map[ssa.Value]taint
	tup   map[tupleKey]taint
	cells map[*ssa.Alloc]*cell
	held  map[ssa.Value][]heldPath

	sinks   []sink
	sunk    map[ssa.Instruction]bool
	results []taint // of root's results
	made    map[tupleKey]*source
	tables  map[ssa.Value]bool // copyTable's answers
}

// A cell is a local variable SSA keeps in memory because closures capture
// it. Loads from it are resolved by the stores that reach them (see
// cell.go); other allocations are treated as one region whose contents
// only ever gain taint.
type cell struct {
	captured bool         // a closure of the unit binds it
	stores   []*ssa.Store // into it, anywhere in the unit
}

func newUnit(a *checker, root *ssa.Function, sources bool) *unit {
	f := &unit{
		a: a, root: root, sources: sources,
		vals:    make(map[ssa.Value]taint),
		tup:     make(map[tupleKey]taint),
		cells:   make(map[*ssa.Alloc]*cell),
		held:    make(map[ssa.Value][]heldPath),
		sunk:    make(map[ssa.Instruction]bool),
		made:    make(map[tupleKey]*source),
		tables:  make(map[ssa.Value]bool),
		results: make([]taint, root.Signature.Results().Len()),
	}
	var add func(fn *ssa.Function)
	add = func(fn *ssa.Function) {
		f.fns = append(f.fns, fn)
		for _, anon := range fn.AnonFuncs {
			add(anon)
		}
	}
	add(root)
	f.findCells()
	return f
}

// findCells finds the unit's cells and the stores into them.
func (f *unit) findCells() {
	for _, fn := range f.fns {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if a, ok := instr.(*ssa.Alloc); ok && isCell(a) {
					f.cells[a] = &cell{captured: len(flow.Succs(a, flow.FreeVars)) > 0}
				}
			}
		}
	}
	for _, fn := range f.fns {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if st, ok := instr.(*ssa.Store); ok {
					if c := f.cellOf(st.Addr); c != nil {
						f.cells[c].stores = append(f.cells[c].stores, st)
					}
				}
			}
		}
	}
}

// cellOf returns the cell an address names, through the free variables of
// closures, or nil.
func (f *unit) cellOf(v ssa.Value) *ssa.Alloc {
	if _, ok := v.(*ssa.FreeVar); ok {
		v = flow.Origin(v, flow.FreeVars)
	}
	if a, ok := v.(*ssa.Alloc); ok && f.cells[a] != nil {
		return a
	}
	return nil
}

// isCell reports whether the address v (a variable, or a free variable
// bound to it) is only loaded from, stored to as a whole and captured.
func isCell(v ssa.Value) bool {
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Val == v {
				return false
			}
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
		case *ssa.DebugRef:
		case *ssa.MakeClosure:
			clo := r.Fn.(*ssa.Function)
			for i, b := range r.Bindings {
				if b == v && (i >= len(clo.FreeVars) || !isCell(clo.FreeVars[i])) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// taintOf is what is known of v. A closure's free variable holds what the
// closures bind to it.
func (f *unit) taintOf(v ssa.Value) taint {
	if _, ok := v.(*ssa.FreeVar); !ok {
		return f.vals[v]
	}
	origins, _ := flow.Origins(v, flow.FreeVars)
	var t taint
	for _, o := range origins {
		t = t.join(f.vals[o])
	}
	return t
}

// set adds t to v; it reports whether anything changed.
func (f *unit) set(v ssa.Value, t taint) bool { return add(f.vals, v, t) }

// setTuple adds t to component i of the tuple v.
func (f *unit) setTuple(v ssa.Value, i int, t taint) bool { return add(f.tup, tupleKey{v, i}, t) }

// add joins t into m[k]; it reports whether anything changed.
func add[K comparable](m map[K]taint, k K, t taint) bool {
	if t.b == 0 {
		return false
	}
	old := m[k]
	n := old.join(t)
	if n == old {
		return false
	}
	m[k] = n
	return true
}

// setResult gives result i of a call or comma-ok operation (a tuple
// component, or the value).
func (f *unit) setResult(v ssa.Value, i int, t taint) bool {
	if _, ok := v.Type().(*types.Tuple); ok {
		return f.setTuple(v, i, t)
	}
	if i == 0 {
		return f.set(v, t)
	}
	return false
}

// run iterates to the fixed point.
func (f *unit) run() *unit {
	flow.Solve(f.fns, 64, f.step)
	return f
}

// step propagates taint through one instruction.
func (f *unit) step(instr ssa.Instruction) bool {
	switch in := instr.(type) {
	case *ssa.Phi:
		t := taint{}
		for i, e := range in.Edges {
			if !nilOnEdge(in, i) {
				t = t.join(f.taintOf(e))
			}
		}
		return f.set(in, t)
	case *ssa.UnOp:
		if in.Op != token.MUL {
			return false
		}
		if c := f.cellOf(in.X); c != nil {
			return f.set(in, f.reaching(in, c))
		}
		if t, ok := f.storedElement(in); ok {
			return f.set(in, t)
		}
		return f.set(in, loaded(f.taintOf(in.X).join(f.heldAt(in.X)), in.Type()))
	case *ssa.Field:
		return f.set(in, loaded(f.taintOf(in.X), in.Type()))
	case *ssa.Index:
		return f.set(in, loaded(f.taintOf(in.X), in.Type()))
	case *ssa.Lookup:
		if f.copyTable(in.X) {
			return false
		}
		return f.setResult(in, 0, loaded(f.taintOf(in.X), lookupType(in)))
	case *ssa.Slice:
		t := f.taintOf(in.X)
		for _, h := range f.held[in.X] { // the elements of a local array
			t = t.join(holdsIf(h.t))
		}
		return f.set(in, t)
	case *ssa.SliceToArrayPointer:
		return f.set(in, f.taintOf(in.X))
	case *ssa.TypeAssert:
		if !mayBeObject(in.AssertedType) {
			return false // a store of the controller's own records
		}
		return f.setResult(in, 0, f.taintOf(in.X))
	case *ssa.Extract:
		return f.set(in, f.tup[tupleKey{in.Tuple, in.Index}])
	case *ssa.Store:
		return f.store(in)
	case *ssa.MapUpdate:
		if f.taintOf(in.Map).b&shared != 0 {
			return f.addSink(in, in.Pos(), f.taintOf(in.Map).src)
		}
		return f.set(in.Map, holdsIf(f.taintOf(in.Value)))
	case *ssa.Return:
		if in.Parent() != f.root {
			return false
		}
		changed := false
		for i, r := range in.Results {
			if n := f.results[i].join(f.taintOf(r)); n != f.results[i] {
				f.results[i], changed = n, true
			}
		}
		return changed
	case ssa.CallInstruction:
		return f.call(in)
	case ssa.Value:
		// What is left of what flow looks through is a conversion or the
		// address of a part (&x.f, &x[i]): it points where its operand
		// does. (What x.f, x[i], x[a:b] and m[k] load is decided above.)
		if x := flow.Preds(in, flow.Conversions|flow.Fields|flow.Elements); len(x) == 1 {
			return f.set(in, f.taintOf(x[0]))
		}
	}
	return false
}

func holdsIf(t taint) taint {
	if t.b == 0 {
		return t
	}
	return taint{b: holds, src: t.src}
}

// addSink records a write to cached memory, once per instruction.
func (f *unit) addSink(instr ssa.Instruction, pos token.Pos, src *source) bool {
	if f.sunk[instr] || f.freshOn(instr, src) {
		return false
	}
	f.sunk[instr] = true
	f.sinks = append(f.sinks, sink{pos: pos, instr: instr, src: src})
	return true
}

// loaded is what a value of type t read from memory (or taken out of a
// value) with taint from carries: references into the cache for
// reference types, a copy that holds them for structs and arrays.
func loaded(from taint, t types.Type) taint {
	if from.b == 0 {
		return taint{}
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer, *types.Slice, *types.Map, *types.Interface, *types.Chan:
		return taint{b: shared, src: from.src}
	case *types.Struct, *types.Array:
		if hasRefs(u, 0) {
			return taint{b: holds, src: from.src}
		}
	}
	return taint{}
}

// hasRefs reports whether values of t contain references.
func hasRefs(t types.Type, depth int) bool {
	if depth > 8 {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer, *types.Slice, *types.Map, *types.Interface, *types.Chan, *types.Signature:
		return true
	case *types.Array:
		return hasRefs(u.Elem(), depth+1)
	case *types.Struct:
		for i := range u.NumFields() {
			if hasRefs(u.Field(i).Type(), depth+1) {
				return true
			}
		}
	}
	return false
}

// lookupType is the type of the element a Lookup yields.
func lookupType(l *ssa.Lookup) types.Type {
	if tup, ok := l.Type().(*types.Tuple); ok {
		return tup.At(0).Type()
	}
	return l.Type()
}
