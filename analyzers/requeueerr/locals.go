package requeueerr

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// resolve sees through a load of a local variable that SSA keeps in memory
// because a closure captures it (`defer func() { updateStatus(obj, err)
// }()`) to the value stored into it on every path to the load. Other
// values, and loads with several reaching stores, are themselves.
//
// flow.Cell is not enough here: it wants the variable assigned once, and
// takes that store for every load, also one on a path before the store,
// which reads the zero value: a nil error.
func resolve(v ssa.Value) ssa.Value {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return v
	}
	alloc, ok := load.X.(*ssa.Alloc)
	if !ok {
		return v
	}
	// Every write to the variable before its function returns must be a
	// store in the function: the closures that capture it only read it
	// or are only deferred (they run after the return values are taken).
	u := usesOf(alloc)
	if u.escapes || u.fields || u.readers {
		return v
	}
	for _, c := range u.closures {
		if !c.deferred && (c.escapes || len(c.stores) > 0) {
			return v
		}
	}
	writes, ok := flow.Reaching(load, func(instr ssa.Instruction) bool {
		st, isStore := instr.(*ssa.Store)
		return instr == ssa.Instruction(alloc) || isStore && st.Addr == alloc
	})
	var found ssa.Value
	for _, w := range writes {
		st, ok := w.(*ssa.Store)
		if !ok || found != nil && found != st.Val {
			return v // the zero value on a path, or two values
		}
		found = st.Val
	}
	if !ok || found == nil {
		return v
	}
	return found
}

// uses is how a local variable's address is used besides being loaded.
type uses struct {
	stores   []*ssa.Store // of a whole value into it
	fields   bool         // the address of a field or element is taken
	written  bool         // a field is written through its address
	readers  bool         // Result.IsZero takes its address to read it
	escapes  bool         // its address, or a field's, is handed on otherwise
	closures []capture
}

// A capture is a closure capturing a local variable as free variable fv.
type capture struct {
	fv       *ssa.FreeVar
	deferred bool         // the closure is only deferred
	stores   []*ssa.Store // the closure's stores into the variable
	escapes  bool         // the closure hands the variable's address on
}

func usesOf(alloc *ssa.Alloc) uses {
	var u uses
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Addr != alloc {
				u.escapes = true
				continue
			}
			u.stores = append(u.stores, ref)
		case *ssa.UnOp, *ssa.DebugRef:
		case *ssa.FieldAddr:
			u.fields = true
			for _, use := range *ref.Referrers() {
				switch use := use.(type) {
				case *ssa.Store:
					u.written = true
					u.escapes = u.escapes || use.Addr != ref
				case *ssa.UnOp, *ssa.DebugRef:
				default:
					u.escapes = true
				}
			}
		case *ssa.Call:
			u.readers = true
			u.escapes = u.escapes || !isResultReader(ssax.Callee(&ref.Call))
		case *ssa.MakeClosure:
			fn := ref.Fn.(*ssa.Function)
			for i, b := range ref.Bindings {
				if b == alloc {
					u.closures = append(u.closures, captured(fn.FreeVars[i], onlyDeferred(ref)))
				}
			}
		case *ssa.IndexAddr:
			u.fields = true
			u.escapes = true
		default:
			u.escapes = true
		}
	}
	return u
}

func captured(fv *ssa.FreeVar, deferred bool) capture {
	c := capture{fv: fv, deferred: deferred}
	for _, use := range *fv.Referrers() {
		switch use := use.(type) {
		case *ssa.Store:
			if use.Addr != fv {
				c.escapes = true
				continue
			}
			c.stores = append(c.stores, use)
		case *ssa.UnOp, *ssa.DebugRef:
		default:
			c.escapes = true // passed on, or captured again
		}
	}
	return c
}

// onlyStore returns the single store to a variable that is otherwise only
// read: loaded, its fields loaded, or read by Result.IsZero
// (`!res.IsZero()` takes its address); or nil.
func onlyStore(u uses) *ssa.Store {
	if u.escapes || u.written || len(u.closures) > 0 || len(u.stores) != 1 {
		return nil
	}
	return u.stores[0]
}

// deferredStores returns what deferred closures store into a named result
// captured by them. It fails when the variable is used otherwise than
// loaded, stored, or captured by a closure that is only deferred and only
// loads and stores it.
func deferredStores(u uses) ([]deferredStore, bool) {
	if u.escapes || u.readers {
		return nil, false
	}
	var out []deferredStore
	for _, c := range u.closures {
		if !c.deferred || c.escapes {
			return nil, false
		}
		for _, st := range c.stores {
			out = append(out, deferredStore{store: st, assumed: c.fv})
		}
	}
	return out, true
}

// onlyDeferred reports whether a closure is only ever deferred.
func onlyDeferred(mc *ssa.MakeClosure) bool {
	for _, ref := range *mc.Referrers() {
		d, ok := ref.(*ssa.Defer)
		if !ok || d.Call.Value != mc {
			return false
		}
	}
	return true
}
