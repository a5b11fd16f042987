package tombstone

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	dataflow "github.com/ctrllint/ctrllint/analyzers/internal/flow"
)

// A key names a tracked value. Most are SSA values (field -1); the
// OptionalObj of a DeletedObject is keyed by the struct and field instead,
// because every access loads it into a new SSA value, and a nil check on one
// access protects the next.
type key struct {
	base  ssa.Value
	field int
}

// state is the set of keys that may still hold a tombstone (or nil) on
// entry to a block.
type state map[key]bool

func (s state) clone() state {
	c := make(state, len(s))
	for k := range s {
		c[k] = true
	}
	return c
}

// flow is a forward may-analysis over one function: which tracked values
// may still be a tombstone (mayBeTombstone) or nil (mayBeNil) at each
// block. Values enter through the seeds; branches on a comma-ok assertion
// or a nil comparison remove them on the edge where they are known to be
// the real object.
type flow struct {
	fn   *ssa.Function
	mode mode
	in   map[*ssa.BasicBlock]state
	// all is every key ever tracked in the function, whatever the path.
	all state
	// settles, if set, reports whether an instruction may have dealt with a
	// tracked value (a helper that unwraps or filters tombstones): the
	// value is no longer tracked after it.
	settles func(f *flow, instr ssa.Instruction, v ssa.Value) bool
	// guard, if set, recognises a call of a package helper that returns a
	// fixed answer whenever v, its tracked argument, is a tombstone (`if
	// !c.canProcess(obj) { return }`): on the branch of the other answer v
	// is the real object.
	guard func(call *ssa.Call) (v ssa.Value, answer bool, ok bool)
}

// hooks are what a flow asks its analysis about calls (both may be nil).
type hooks struct {
	settles func(f *flow, instr ssa.Instruction, v ssa.Value) bool
	guard   func(call *ssa.Call) (v ssa.Value, answer bool, ok bool)
}

func solve(fn *ssa.Function, m mode, seeds []key, h hooks) *flow {
	f := &flow{fn: fn, mode: m, all: make(state), settles: h.settles, guard: h.guard}
	entry := make(state)
	for _, k := range seeds {
		entry[k] = true
		f.all[k] = true
	}
	f.in = dataflow.Forward[state]{
		Entry: entry,
		Copy:  state.clone,
		Transfer: func(b *ssa.BasicBlock, st state) state {
			f.transfer(b, st)
			return st
		},
		Edge: func(b *ssa.BasicBlock, i int, out state) state {
			f.clean(b, i, out)
			s := b.Succs[i]
			pred := slices.Index(s.Preds, b)
			for _, instr := range s.Instrs {
				phi, ok := instr.(*ssa.Phi)
				if !ok {
					break // phis come first
				}
				if pred >= 0 && f.tracked(phi.Edges[pred], out) {
					out[key{phi, -1}] = true
					f.all[key{phi, -1}] = true
				}
			}
			return out
		},
		Join: func(into, from state) bool {
			grew := false
			for k := range from {
				if !into[k] {
					into[k] = true
					grew = true
				}
			}
			return grew
		},
	}.Solve(fn)
	return f
}

// walk calls visit for every instruction of every block the flow reached,
// with the state in force just before it (which visit may narrow).
func (f *flow) walk(visit func(instr ssa.Instruction, st state)) {
	f.walkCalls(nil, visit)
}

// walkCalls is walk that also calls call, for each call instruction, with
// the state before the call settles any of its arguments: a call that is a
// value's last use (a helper that panics on it) is checked there.
func (f *flow) walkCalls(call, visit func(instr ssa.Instruction, st state)) {
	for _, b := range f.fn.Blocks {
		st, reached := f.in[b]
		if !reached {
			continue
		}
		st = st.clone()
		for _, instr := range b.Instrs {
			if _, isCall := instr.(ssa.CallInstruction); isCall && call != nil {
				call(instr, st)
			}
			f.derive(instr, st)
			visit(instr, st)
		}
	}
}

// transfer adds the values a block derives from tracked ones: conversions
// between interface types keep the dynamic value, tombstone or not.
func (f *flow) transfer(b *ssa.BasicBlock, st state) {
	for _, instr := range b.Instrs {
		f.derive(instr, st)
	}
}

func (f *flow) derive(instr ssa.Instruction, st state) {
	if ci, ok := instr.(*ssa.ChangeInterface); ok && f.tracked(ci.X, st) {
		st[key{ci, -1}] = true
		f.all[key{ci, -1}] = true
	}
	if call, ok := instr.(ssa.CallInstruction); ok && f.settles != nil {
		for _, arg := range call.Common().Args {
			if f.tracked(arg, st) && f.settles(f, instr, arg) {
				delete(st, keyOf(arg))
			}
		}
	}
}

// tracked reports whether v may still be a tombstone (or nil) in st.
func (f *flow) tracked(v ssa.Value, st state) bool {
	return st[keyOf(v)]
}

// edgeOut is the state on the edge from b to its successor s.
func (f *flow) edgeOut(b, s *ssa.BasicBlock) state {
	st, reached := f.in[b]
	if !reached {
		return state{}
	}
	st = st.clone()
	f.transfer(b, st)
	for i, succ := range b.Succs {
		if succ == s {
			f.clean(b, i, st)
			break
		}
	}
	return st
}

// clean removes, on successor edge i of b, the values that the branch at
// the end of b proves to be the real object.
func (f *flow) clean(b *ssa.BasicBlock, i int, st state) {
	if len(b.Instrs) == 0 {
		return
	}
	iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return
	}
	cond := iff.Cond
	if u, ok := cond.(*ssa.UnOp); ok && u.Op == token.NOT {
		cond, i = u.X, 1-i
	}
	switch c := cond.(type) {
	case *ssa.Call:
		if f.guard == nil || f.mode != mayBeTombstone {
			return
		}
		// A tombstone answers the guard with answer: on the edge of the
		// other answer (edge 0 is true) the argument is the real object.
		if v, answer, ok := f.guard(c); ok && f.tracked(v, st) && (i == 0) != answer {
			delete(st, keyOf(v))
		}
	case *ssa.Extract:
		ta, ok := c.Tuple.(*ssa.TypeAssert)
		if !ok || c.Index != 1 || f.mode != mayBeTombstone || !f.tracked(ta.X, st) {
			return
		}
		switch {
		case isTombstoneType(ta.AssertedType), isTombstonePointer(ta.AssertedType):
			// A pointer check never succeeds and is reported on its own;
			// treating it as a check keeps its consequences from being
			// reported a second time.
			if i == 1 { // not a tombstone on the failure edge
				delete(st, keyOf(ta.X))
			}
		case !admitsTombstone(ta.AssertedType):
			if i == 0 { // some other type on the success edge
				delete(st, keyOf(ta.X))
			}
		}
	case *ssa.BinOp:
		if c.Op != token.EQL && c.Op != token.NEQ {
			return
		}
		other := nilComparand(c)
		if other == nil {
			return
		}
		// The edge on which other != nil.
		nonNil := 1
		if c.Op == token.NEQ {
			nonNil = 0
		}
		if f.mode == mayBeTombstone {
			// `if t, ok := obj.(cache.DeletedFinalStateUnknown); ok && t.Obj
			// != nil { obj = t.Obj }`: a tombstone without its object has
			// nothing left to handle, so on the Obj == nil edge obj is no
			// longer a tombstone that could be dropped.
			if x, ok := tombstoneObjOf(other); ok && i == 1-nonNil && f.tracked(x, st) {
				delete(st, keyOf(x))
			}
			return
		}
		if f.mode != mayBeNil {
			return
		}
		if k := keyOf(other); st[k] && i == nonNil {
			delete(st, k)
		}
		// FinalStateUnknown == nil means OptionalObj is the real object.
		if base, ok := finalStateUnknownOf(other); ok && i == 1-nonNil {
			for k := range st {
				if k.base == base && k.field >= 0 {
					delete(st, k)
				}
			}
		}
	}
}

// tombstoneObjOf recognises t.Obj where t is the value of a comma-ok
// assertion of x to cache.DeletedFinalStateUnknown, and returns x. The
// builder reads t.Obj from the value, or, when t is addressable, through
// a local it stores the value in.
func tombstoneObjOf(v ssa.Value) (ssa.Value, bool) {
	var base ssa.Value
	switch v := v.(type) {
	case *ssa.Field:
		if fieldName(v.X.Type(), v.Field) != "Obj" {
			return nil, false
		}
		base = v.X
	case *ssa.UnOp:
		fa, ok := v.X.(*ssa.FieldAddr)
		if !ok || v.Op != token.MUL {
			return nil, false
		}
		alloc, ok := fa.X.(*ssa.Alloc)
		if !ok || fieldName(alloc.Type().Underlying().(*types.Pointer).Elem(), fa.Field) != "Obj" {
			return nil, false
		}
		base = storedOnce(alloc)
	default:
		return nil, false
	}
	ext, ok := base.(*ssa.Extract)
	if !ok || ext.Index != 0 {
		return nil, false
	}
	ta, ok := ext.Tuple.(*ssa.TypeAssert)
	if !ok || !isTombstoneType(ta.AssertedType) {
		return nil, false
	}
	return ta.X, true
}

// storedOnce is the value stored into alloc when it is stored into once;
// nil when never, or when twice: which value it holds then depends on the
// path.
func storedOnce(alloc *ssa.Alloc) ssa.Value {
	var val ssa.Value
	for _, ref := range *alloc.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == alloc {
			if val != nil {
				return nil
			}
			val = st.Val
		}
	}
	return val
}

// nilComparand returns the operand compared with nil, or nil.
func nilComparand(b *ssa.BinOp) ssa.Value {
	if c, ok := b.Y.(*ssa.Const); ok && c.IsNil() {
		return b.X
	}
	if c, ok := b.X.(*ssa.Const); ok && c.IsNil() {
		return b.Y
	}
	return nil
}

// keyOf canonicalises accesses to DeletedObject.OptionalObj.
func keyOf(v ssa.Value) key {
	if base, idx, ok := deletedObjectField(v, "OptionalObj"); ok {
		return key{base, idx}
	}
	return key{v, -1}
}

func finalStateUnknownOf(v ssa.Value) (ssa.Value, bool) {
	base, _, ok := deletedObjectField(v, "FinalStateUnknown")
	return base, ok
}

// deletedObjectField recognises d.NAME and (*p).NAME on a DeletedObject.
func deletedObjectField(v ssa.Value, name string) (base ssa.Value, idx int, ok bool) {
	switch v := v.(type) {
	case *ssa.Field:
		if isDeletedObject(v.X.Type()) && fieldName(v.X.Type(), v.Field) == name {
			return v.X, v.Field, true
		}
	case *ssa.UnOp:
		if fa, isFA := v.X.(*ssa.FieldAddr); isFA && v.Op == token.MUL {
			if pt, isPtr := fa.X.Type().Underlying().(*types.Pointer); isPtr && isDeletedObject(pt.Elem()) && fieldName(pt.Elem(), fa.Field) == name {
				return fa.X, fa.Field, true
			}
		}
	}
	return nil, 0, false
}

func fieldName(t types.Type, i int) string {
	st, ok := t.Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() {
		return ""
	}
	return st.Field(i).Name()
}

// admitsTombstone reports whether a DeletedFinalStateUnknown value can pass
// an assertion to t: only interfaces it implements (it has no methods, so
// interfaces without methods).
func admitsTombstone(t types.Type) bool {
	iface, ok := t.Underlying().(*types.Interface)
	return ok && iface.NumMethods() == 0
}
