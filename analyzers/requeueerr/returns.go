package requeueerr

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// A ret is one return statement of a visited function, with the values it
// returns as the Result and the error (nil when unknown).
type ret struct {
	ret         *ssa.Return
	result, err ssa.Value
	// deferred are the values deferred closures may store into the named
	// error result after the return statement; each must keep a non-nil
	// error non-nil for the error to stay provably non-nil.
	deferred []deferredStore
}

// A deferredStore is a deferred closure's store into a named result;
// assumed is the closure's free variable for that result, whose
// loads are the error the return statement set.
type deferredStore struct {
	store   *ssa.Store
	assumed *ssa.FreeVar
}

// returns lists the return statements of v.fn with the values they
// return at v's positions. With named results, a return statement stores
// its operands into the results before running the deferred calls, and
// returns what the results hold afterwards: the stored values are taken
// instead, and deferred closures that write the results are recorded (a
// write to the Result makes it unknown).
func (c *checker) returns(v visit) []ret {
	var out []ret
	for _, b := range v.fn.Blocks {
		if b == v.fn.Recover {
			continue // returns after a recovered panic: not a return statement
		}
		r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(r.Results) <= v.result || len(r.Results) <= v.err {
			continue
		}
		res, resDeferred, resOK := c.stored(r, r.Results[v.result])
		errV, deferred, errOK := c.stored(r, r.Results[v.err])
		out = append(out, ret{ret: r})
		if resOK && len(resDeferred) == 0 {
			out[len(out)-1].result = res // a deferred write makes it unknown
		}
		if errOK {
			out[len(out)-1].err = errV
			out[len(out)-1].deferred = deferred
		}
	}
	return out
}

// stored resolves a returned value that is a load of a named result: the
// value the return statement stored into it, and what deferred closures
// may store after it. ok is false when the result's variable is used in
// ways that hide its value (its address escapes, a closure that is not
// deferred writes it).
func (c *checker) stored(r *ssa.Return, v ssa.Value) (val ssa.Value, deferred []deferredStore, ok bool) {
	load, isLoad := v.(*ssa.UnOp)
	if !isLoad {
		return v, nil, true
	}
	alloc, isAlloc := load.X.(*ssa.Alloc)
	if !isAlloc {
		return v, nil, true
	}
	u := usesOf(alloc)
	if u.fields {
		return v, nil, true // field by field: resultField walks it
	}
	instrs := r.Block().Instrs
	i := slices.Index(instrs, ssa.Instruction(load))
	if i < 0 {
		return v, nil, true
	}
	ranDefers := false
	for i--; i >= 0; i-- {
		switch instr := instrs[i].(type) {
		case *ssa.RunDefers:
			ranDefers = true
			continue
		case *ssa.Store:
			if instr.Addr != alloc {
				continue
			}
			if !ranDefers {
				return instr.Val, nil, true
			}
			deferred, ok := deferredStores(u)
			return instr.Val, deferred, ok
		}
	}
	if st := onlyStore(u); st != nil && before(st, load) {
		return st.Val, nil, true // a variable assigned once: res, err := f()
	}
	return resolve(v), nil, true // a plain local, not a named result
}

// before reports whether instruction a runs before b on every path to b.
func before(a, b ssa.Instruction) bool {
	if a.Block() == b.Block() {
		return slices.Index(a.Block().Instrs, a) < slices.Index(b.Block().Instrs, b)
	}
	return a.Block().Dominates(b.Block())
}

// passedThrough reports whether a return statement hands on the Result
// and error of a call to a helper of the package unchanged — `return
// r.reconcileNormal(ctx, obj)`, or `res, err := r.helper(ctx); if err !=
// nil { return res, err }` (the error may also be wrapped, or replaced by
// a non-nil one where the helper's error is non-nil) — and if so returns
// the helper to visit and the call.
func (c *checker) passedThrough(r ret) (visit, *ssa.Call, bool) {
	if r.result == nil || r.err == nil {
		return visit{}, nil, false
	}
	ext, ok := r.result.(*ssa.Extract)
	if !ok {
		return visit{}, nil, false
	}
	call, ok := ext.Tuple.(*ssa.Call)
	if !ok {
		return visit{}, nil, false
	}
	helper, offset := ssax.Func(c.pkg, call.Call.Value)
	if helper == nil || offset != 0 {
		return visit{}, nil, false
	}
	errIndex := -1
	results := call.Call.Signature().Results()
	for i := range results.Len() {
		if isError(results.At(i).Type()) {
			errIndex = i
		}
	}
	if errIndex < 0 {
		return visit{}, nil, false
	}
	var helperErr ssa.Value
	for _, e := range flow.Succs(call, flow.Extracts) {
		if e.(*ssa.Extract).Index == errIndex {
			helperErr = e
		}
	}
	if helperErr == nil {
		return visit{}, nil, false
	}
	b := r.ret.Block()
	if !c.keptNonNil(r.deferred) {
		return visit{}, nil, false // a deferred closure may clear the helper's error
	}
	if !nilWith(r.err, helperErr, errWraps) && !(c.nonNil(r.err, b, r.deferred) && checked(helperErr, b)) {
		return visit{}, nil, false
	}
	return visit{fn: helper, result: ext.Index, err: errIndex}, call, true
}

// isError reports whether t is the predeclared error type.
func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}
