package cachemutation

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
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

// flow is the analysis of one function together with the closures it
// contains (they share captured variables): a fixed point of taint over
// its SSA values, and the writes to cached memory found on the way.
type flow struct {
	a       *checker
	root    *ssa.Function
	fns     []*ssa.Function
	sources bool // create sources at cache reads (false in parameter summaries)

	vals  map[ssa.Value]taint
	tup   map[tupleKey]taint
	cells map[ssa.Value]*ssa.Alloc // variables held in memory (captured ones), by every address that names them
	// cellStores are the stores into each cell, anywhere in the unit.
	cellStores map[*ssa.Alloc][]*ssa.Store
	captured   map[*ssa.Alloc]bool
	bound      map[*ssa.FreeVar]ssa.Value
	held       map[ssa.Value][]heldPath
	makers     map[*ssa.Function][]*ssa.MakeClosure

	sinks   []sink
	sunk    map[ssa.Instruction]bool
	results []taint // of root's results
	made    map[tupleKey]*source
}

func newFlow(a *checker, root *ssa.Function, sources bool) *flow {
	f := &flow{
		a: a, root: root, sources: sources,
		vals:       make(map[ssa.Value]taint),
		tup:        make(map[tupleKey]taint),
		cells:      make(map[ssa.Value]*ssa.Alloc),
		cellStores: make(map[*ssa.Alloc][]*ssa.Store),
		captured:   make(map[*ssa.Alloc]bool),
		bound:      make(map[*ssa.FreeVar]ssa.Value),
		held:       make(map[ssa.Value][]heldPath),
		makers:     make(map[*ssa.Function][]*ssa.MakeClosure),
		sunk:       make(map[ssa.Instruction]bool),
		made:       make(map[tupleKey]*source),
		results:    make([]taint, root.Signature.Results().Len()),
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

// findCells finds the local variables SSA keeps in memory because closures
// capture them. Loads from them are resolved by the stores that reach them
// (see cell.go); other allocations are treated as one region whose
// contents only ever gain taint.
func (f *flow) findCells() {
	for _, fn := range f.fns {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if mc, ok := instr.(*ssa.MakeClosure); ok {
					clo := mc.Fn.(*ssa.Function)
					f.makers[clo] = append(f.makers[clo], mc)
					for i, v := range mc.Bindings {
						if i < len(clo.FreeVars) {
							f.bound[clo.FreeVars[i]] = v
						}
					}
				}
			}
		}
	}
	for _, fn := range f.fns {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if a, ok := instr.(*ssa.Alloc); ok && f.isCell(a, a) {
					f.cells[a] = a
				}
			}
		}
	}
	for fv, v := range f.bound {
		if c := f.cellOf(v); c != nil {
			f.cells[fv] = c
			f.captured[c] = true
		}
	}
	for _, fn := range f.fns {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if st, ok := instr.(*ssa.Store); ok {
					if c := f.cellOf(st.Addr); c != nil {
						f.cellStores[c] = append(f.cellStores[c], st)
					}
				}
			}
		}
	}
}

// cellOf returns the variable an address names, through the free
// variables of closures, or nil.
func (f *flow) cellOf(v ssa.Value) *ssa.Alloc {
	for range 16 {
		if c, ok := f.cells[v]; ok {
			return c
		}
		fv, ok := v.(*ssa.FreeVar)
		if !ok {
			return nil
		}
		if v, ok = f.bound[fv]; !ok {
			return nil
		}
	}
	return nil
}

// isCell reports whether the address v (the allocation a or a free
// variable bound to it) is only loaded from, stored to as a whole and
// captured.
func (f *flow) isCell(a *ssa.Alloc, v ssa.Value) bool {
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
				if b == v && (i >= len(clo.FreeVars) || !f.isCell(a, clo.FreeVars[i])) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// taintOf is what is known of v.
func (f *flow) taintOf(v ssa.Value) taint {
	if fv, ok := v.(*ssa.FreeVar); ok {
		if b, ok := f.bound[fv]; ok {
			return f.taintOf(b)
		}
	}
	return f.vals[v]
}

// set adds t to v; it reports whether anything changed.
func (f *flow) set(v ssa.Value, t taint) bool {
	if t.b == 0 {
		return false
	}
	old := f.vals[v]
	n := old.join(t)
	if n == old {
		return false
	}
	f.vals[v] = n
	return true
}

func (f *flow) setTuple(v ssa.Value, i int, t taint) bool {
	if t.b == 0 {
		return false
	}
	k := tupleKey{v, i}
	old := f.tup[k]
	n := old.join(t)
	if n == old {
		return false
	}
	f.tup[k] = n
	return true
}

// setResult gives result i of a call (a tuple component, or the value).
func (f *flow) setResult(v ssa.Value, i int, t taint) bool {
	if _, ok := v.Type().(*types.Tuple); ok {
		return f.setTuple(v, i, t)
	}
	if i == 0 {
		return f.set(v, t)
	}
	return false
}

// run iterates to the fixed point.
func (f *flow) run() *flow {
	for range 64 {
		changed := false
		for _, fn := range f.fns {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					if f.step(instr) {
						changed = true
					}
				}
			}
		}
		if !changed {
			break
		}
	}
	return f
}

// step propagates taint through one instruction.
func (f *flow) step(instr ssa.Instruction) bool {
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
			return f.set(in, f.cellLoad(in, c))
		}
		if t, ok := f.storedElement(in); ok {
			return f.set(in, t)
		}
		return f.set(in, loaded(f.taintOf(in.X).join(f.heldAt(in.X)), in.Type()))
	case *ssa.FieldAddr:
		return f.set(in, f.taintOf(in.X))
	case *ssa.IndexAddr:
		return f.set(in, f.taintOf(in.X))
	case *ssa.Field:
		return f.set(in, loaded(f.taintOf(in.X), in.Type()))
	case *ssa.Index:
		return f.set(in, loaded(f.taintOf(in.X), in.Type()))
	case *ssa.Lookup:
		t := loaded(f.taintOf(in.X), lookupType(in))
		if in.CommaOk {
			return f.setTuple(in, 0, t)
		}
		return f.set(in, t)
	case *ssa.Slice:
		t := f.taintOf(in.X)
		for _, h := range f.held[in.X] { // the elements of a local array
			t = t.join(holdsIf(h.t))
		}
		return f.set(in, t)
	case *ssa.MakeInterface:
		return f.set(in, f.taintOf(in.X))
	case *ssa.ChangeType:
		return f.set(in, f.taintOf(in.X))
	case *ssa.ChangeInterface:
		return f.set(in, f.taintOf(in.X))
	case *ssa.SliceToArrayPointer:
		return f.set(in, f.taintOf(in.X))
	case *ssa.TypeAssert:
		if !mayBeObject(in.AssertedType) {
			return false // a store of the controller's own records
		}
		if in.CommaOk {
			return f.setTuple(in, 0, f.taintOf(in.X))
		}
		return f.set(in, f.taintOf(in.X))
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
func (f *flow) addSink(instr ssa.Instruction, pos token.Pos, src *source) bool {
	if f.sunk[instr] {
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
