package requeueerr

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// throughParams checks a return that hands on a helper's Result and error
// (see passedThrough) where the helper returns an error it was given:
// `return requeueWithError(err)` with
//
//	func requeueWithError(err error) (ctrl.Result, error) {
//		return ctrl.Result{Requeue: true}, err
//	}
//
// The helper is right or wrong depending on its callers, so the call's
// return is reported: the helper's Result asks for a requeue, and the
// argument the call passes for the error parameter is non-nil.
func (c *checker) throughParams(r ret, call *ssa.Call, h visit) *finding {
	params := h.fn.Params
	for _, hr := range c.returns(h) {
		if hr.result == nil || hr.err == nil || len(hr.deferred) > 0 {
			continue
		}
		k := paramIndex(params, hr.err)
		if k < 0 || k >= len(call.Call.Args) || guardedNil(params[k], hr.ret.Block()) {
			continue
		}
		field := c.requeue(hr.result)
		if field == "" {
			continue
		}
		arg := call.Call.Args[k]
		if !c.nonNil(arg, r.ret.Block(), r.deferred) {
			continue
		}
		return &finding{field: field, terminal: terminal(arg), helper: h.fn}
	}
	return nil
}

// paramIndex returns the index of the parameter an error is nil exactly
// when (the parameter, or it wrapped), or -1.
func paramIndex(params []*ssa.Parameter, err ssa.Value) int {
	for i, p := range params {
		if nilWith(err, p, errWraps) {
			return i
		}
	}
	return -1
}

// guardedNil reports whether block b is only reached along an edge on
// which p is nil: inside `if err == nil`, or past `if err != nil { return }`.
func guardedNil(p *ssa.Parameter, b *ssa.BasicBlock) bool {
	return guarded(b, func(cond ssa.Value) int {
		cmp, ok := cond.(*ssa.BinOp)
		if !ok || !(cmp.X == p && isNil(cmp.Y) || cmp.Y == p && isNil(cmp.X)) {
			return -1
		}
		switch cmp.Op {
		case token.EQL:
			return 0
		case token.NEQ:
			return 1
		}
		return -1
	})
}
