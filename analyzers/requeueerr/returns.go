package requeueerr

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

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
	if !isAlloc || !wholeValue(alloc) {
		return v, nil, true // field by field: resultField walks it
	}
	instrs := r.Block().Instrs
	i := indexOf(instrs, load)
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
			deferred, ok := deferredStores(alloc)
			return instr.Val, deferred, ok
		}
	}
	if st := onlyStore(alloc); st != nil && before(st, load) {
		return st.Val, nil, true // a variable assigned once: res, err := f()
	}
	return resolve(v), nil, true // a plain local, not a named result
}

// onlyStore returns the single store to a variable that is otherwise only
// read: loaded, its fields loaded, or read by Result.IsZero
// (`!res.IsZero()` takes its address); or nil.
func onlyStore(alloc *ssa.Alloc) *ssa.Store {
	var only *ssa.Store
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Addr != alloc || only != nil {
				return nil
			}
			only = ref
		case *ssa.UnOp, *ssa.DebugRef:
		case *ssa.FieldAddr:
			for _, use := range *ref.Referrers() {
				if _, ok := use.(*ssa.UnOp); !ok {
					return nil // a field is written, or its address taken
				}
			}
		case *ssa.Call:
			if !isResultReader(ssax.Callee(&ref.Call)) {
				return nil
			}
		default:
			return nil
		}
	}
	return only
}

// wholeValue reports whether a variable is only ever stored and loaded as
// a whole (a named result), not field by field.
func wholeValue(alloc *ssa.Alloc) bool {
	for _, ref := range *alloc.Referrers() {
		switch ref.(type) {
		case *ssa.FieldAddr, *ssa.IndexAddr:
			return false
		}
	}
	return true
}

// before reports whether instruction a runs before b on every path to b.
func before(a, b ssa.Instruction) bool {
	if a.Block() == b.Block() {
		return indexOf(a.Block().Instrs, a) < indexOf(b.Block().Instrs, b)
	}
	return a.Block().Dominates(b.Block())
}

func indexOf(instrs []ssa.Instruction, v ssa.Instruction) int {
	for i, instr := range instrs {
		if instr == v {
			return i
		}
	}
	return -1
}

// deferredStores returns what deferred closures store into a named result
// captured by them. It fails when the variable is used otherwise than
// loaded, stored, or captured by a closure that is only deferred and only
// loads and stores it.
func deferredStores(alloc *ssa.Alloc) ([]deferredStore, bool) {
	var out []deferredStore
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Addr != alloc {
				return nil, false // its address is stored somewhere
			}
		case *ssa.UnOp, *ssa.DebugRef:
		case *ssa.MakeClosure:
			if !onlyDeferred(ref) {
				return nil, false
			}
			fn := ref.Fn.(*ssa.Function)
			for i, b := range ref.Bindings {
				if b != alloc {
					continue
				}
				fv := fn.FreeVars[i]
				for _, use := range *fv.Referrers() {
					switch use := use.(type) {
					case *ssa.Store:
						if use.Addr != fv {
							return nil, false
						}
						out = append(out, deferredStore{store: use, assumed: fv})
					case *ssa.UnOp, *ssa.DebugRef:
					default:
						return nil, false // passed on, or captured again
					}
				}
			}
		default:
			return nil, false
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
	for _, ref := range *call.Referrers() {
		if e, ok := ref.(*ssa.Extract); ok && e.Index == errIndex {
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
	if !sameNil(r.err, helperErr) && !(c.nonNil(r.err, b, r.deferred) && checked(helperErr, b)) {
		return visit{}, nil, false
	}
	return visit{fn: helper, result: ext.Index, err: errIndex}, call, true
}

// sameNil reports whether err is nil exactly when base is: base itself, or
// base wrapped by pkg/errors.
func sameNil(err, base ssa.Value) bool {
	for {
		if err == base {
			return true
		}
		switch e := err.(type) {
		case *ssa.ChangeInterface:
			err = e.X
		case *ssa.Call:
			k, _ := errorFuncOf(ssax.Callee(&e.Call))
			if k != errWraps || len(e.Call.Args) == 0 {
				return false
			}
			err = e.Call.Args[0]
		default:
			return false
		}
	}
}

// isError reports whether t is the predeclared error type.
func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}
