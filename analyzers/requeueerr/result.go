package requeueerr

import (
	"go/constant"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// level is what is known of a Result field on every path to a use.
type level int

const (
	none    level = iota // no path (a loop back edge): neutral
	zero                 // zero on every path: no requeue
	set                  // a constant asking for a requeue on every path
	runtime              // set on every path, to a value computed at run time
	unknown              // differs between paths, or cannot be followed
)

// join combines the levels of two paths.
func join(a, b level) level {
	switch {
	case a == none:
		return b
	case b == none, a == b:
		return a
	case (a == set || a == runtime) && (b == set || b == runtime):
		return runtime
	}
	return unknown
}

// requeue reports which field of a reconcile.Result value asks for a
// requeue on every path: RequeueAfter first, then Requeue; "" when none
// provably does.
func (c *checker) requeue(v ssa.Value) string {
	for _, field := range []string{"RequeueAfter", "Requeue"} {
		if l := c.resultField(v, field, map[ssa.Value]bool{}); l == set || l == runtime {
			return field
		}
	}
	return ""
}

// resultField is the level of one field of a Result value: a literal
// (held in a local variable, possibly assigned field by field), a
// package-level variable, or a merge of those.
func (c *checker) resultField(v ssa.Value, field string, seen map[ssa.Value]bool) level {
	return joined(v, func(v ssa.Value) level {
		if seen[v] {
			return none
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.Const:
			return zero // Result{}
		case *ssa.UnOp:
			switch x := v.X.(type) {
			case *ssa.Alloc:
				return c.localField(x, v, field, seen)
			case *ssa.Global:
				return c.globalField(x, field, seen)
			}
		case *ssa.Call:
			return c.madeField(v, field, seen)
		}
		return unknown // another function's Result, a parameter, a struct field
	})
}

// joined is the join of the levels of the values v merges through φs: a
// value a loop brings back is no other path.
func joined(v ssa.Value, of func(ssa.Value) level) level {
	origins, ok := flow.Origins(v, flow.Phis)
	if !ok {
		return unknown
	}
	l := none
	for _, o := range origins {
		l = join(l, of(o))
	}
	return l
}

// madeField is the level of a field of the Result a function of the
// package makes and returns alone (`func requeueSoon() ctrl.Result`):
// every return of the function must agree.
func (c *checker) madeField(call *ssa.Call, field string, seen map[ssa.Value]bool) level {
	fn, offset := ssax.Func(c.pkg, call.Call.Value)
	if fn == nil || offset != 0 || fn.Signature.Results().Len() != 1 {
		return unknown
	}
	l := none
	for _, b := range fn.Blocks {
		if r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && b != fn.Recover {
			v, deferred, ok := c.stored(r, r.Results[0])
			if !ok || len(deferred) > 0 {
				return unknown
			}
			l = join(l, c.resultField(v, field, seen))
		}
	}
	return l
}

// localField walks back from a load of a local Result variable along every
// path to the latest write of the field: a store of the whole Result, a
// store to the field, or the variable's zeroed allocation.
func (c *checker) localField(alloc *ssa.Alloc, load ssa.Instruction, field string, seen map[ssa.Value]bool) level {
	if u := usesOf(alloc); u.escapes || len(u.closures) > 0 {
		return unknown // a call or a closure may write it
	}
	// fieldStore is the store into the field, if st is one.
	fieldStore := func(st *ssa.Store) bool {
		fa, ok := st.Addr.(*ssa.FieldAddr)
		if !ok || fa.X != alloc {
			return false
		}
		f := ssax.FieldOfAddr(fa)
		return f != nil && f.Name() == field && requeueField(f)
	}
	writes, ok := flow.Reaching(load, func(instr ssa.Instruction) bool {
		st, isStore := instr.(*ssa.Store)
		return instr == ssa.Instruction(alloc) || isStore && (st.Addr == alloc || fieldStore(st))
	})
	if !ok {
		return unknown
	}
	l := none
	for _, w := range writes {
		switch w := w.(type) {
		case *ssa.Alloc:
			l = join(l, zero)
		case *ssa.Store:
			if w.Addr == alloc {
				l = join(l, c.resultField(w.Val, field, seen))
			} else {
				l = join(l, scalar(w.Val, field))
			}
		}
	}
	return l
}

// globalField is the level of a field of a package-level Result variable:
// every store to it in the package must agree, and a variable never stored
// is zero. A variable of another package is unknown.
func (c *checker) globalField(g *ssa.Global, field string, seen map[ssa.Value]bool) level {
	if g.Pkg != c.pkg || c.globals.escapes[g] {
		return unknown
	}
	l := none
	for _, st := range c.globals.stores[g] {
		l = join(l, c.resultField(st.Val, field, seen))
	}
	if l == none {
		return zero
	}
	return l
}

// scalar is the level of a value stored into Requeue or RequeueAfter. A
// constant asks for a requeue when true or a positive duration (the
// framework tests RequeueAfter > 0). A RequeueAfter computed at run time
// (a configured interval, a parameter, arithmetic) shows the intent to
// delay, except one of several results of a call: `d, err := r.next()`
// is typically zero when err is not nil, and so is a field of a helper's
// Result (`res, err := r.helper(); ... RequeueAfter: res.RequeueAfter`).
// A Requeue computed at run time is often false on the error path:
// unknown.
func scalar(v ssa.Value, field string) level {
	return joined(v, func(v ssa.Value) level {
		if k, ok := v.(*ssa.Const); ok {
			if k.Value == nil {
				return zero
			}
			switch k.Value.Kind() {
			case constant.Bool:
				if constant.BoolVal(k.Value) {
					return set
				}
			case constant.Int:
				if constant.Sign(k.Value) > 0 {
					return set
				}
			}
			return zero
		}
		if fromCallResults(v) || field == "Requeue" {
			return unknown
		}
		return runtime
	})
}

// fromCallResults reports whether v is one of several results of a call,
// or read from one: a field of it, or of a variable assigned it once.
func fromCallResults(v ssa.Value) bool {
	for range 8 {
		switch x := flow.Origin(v, flow.Fields|flow.Loads).(type) {
		case *ssa.Extract:
			return true
		case *ssa.Alloc:
			st := onlyStore(usesOf(x))
			if st == nil {
				return false
			}
			v = st.Val
		default:
			return false
		}
	}
	return false
}

// globals indexes the package's stores to its package-level variables,
// and the variables whose address is used otherwise (they may be written
// anywhere).
type globals struct {
	stores  map[*ssa.Global][]*ssa.Store
	escapes map[*ssa.Global]bool
}

func indexGlobals(funcs []*ssa.Function) globals {
	g := globals{stores: make(map[*ssa.Global][]*ssa.Store), escapes: make(map[*ssa.Global]bool)}
	var ops []*ssa.Value
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if st, ok := instr.(*ssa.Store); ok {
					if gl, ok := st.Addr.(*ssa.Global); ok {
						g.stores[gl] = append(g.stores[gl], st)
					}
				}
				ops = instr.Operands(ops[:0])
				for i, op := range ops {
					gl, ok := (*op).(*ssa.Global)
					if !ok {
						continue
					}
					switch instr := instr.(type) {
					case *ssa.UnOp:
						continue // a load
					case *ssa.Store:
						if i == 0 && instr.Addr == gl {
							continue // the address operand comes first
						}
					}
					g.escapes[gl] = true
				}
			}
		}
	}
	return g
}
