package tombstone

import (
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// hooks are the checker's answers about calls for the flows it solves.
func (c *checker) hooks() hooks {
	return hooks{settles: c.settles, guard: c.guard}
}

// guard recognises a call of a package predicate that returns a fixed
// answer for a tombstone in its argument (`if !c.canProcess(obj) {
// return }`, where canProcess asserts obj to *v1.Pod and returns false
// when that fails). The predicate's failed assertion is where the
// tombstone is dropped, and is reported there; on the branch of the other
// answer no tombstone is left, so what follows is not a second report of
// the same drop.
func (c *checker) guard(call *ssa.Call) (ssa.Value, bool, bool) {
	callee, offset := c.localCallee(call.Common())
	if callee == nil {
		return nil, false, false
	}
	for i, arg := range call.Common().Args {
		if answer, ok := c.tombstoneAnswer(target{callee, i + offset, mayBeTombstone}); ok {
			return arg, answer, true
		}
	}
	return nil, false, false
}

// answerState is what tombstoneAnswer knows of a target so far.
type answerState int

const (
	answerUnknown answerState = iota
	answerInProgress
	answerNone
	answerFalse
	answerTrue
)

// tombstoneAnswer reports the answer a predicate (one bool result) gives
// when its parameter is a tombstone: every return the tombstone can reach
// returns the same constant. A predicate that considers tombstones (it
// settles them at its call sites), or hands the object to code we cannot
// see before deciding, has no fixed answer.
func (c *checker) tombstoneAnswer(t target) (bool, bool) {
	switch c.answers[t] {
	case answerFalse:
		return false, true
	case answerTrue:
		return true, true
	case answerUnknown:
	default:
		return false, false
	}
	c.answers[t] = answerInProgress
	answer, ok := c.computeAnswer(t)
	switch {
	case !ok:
		c.answers[t] = answerNone
	case answer:
		c.answers[t] = answerTrue
	default:
		c.answers[t] = answerFalse
	}
	return answer, ok
}

func (c *checker) computeAnswer(t target) (answer, ok bool) {
	fn := t.fn
	res := fn.Signature.Results()
	if t.param >= len(fn.Params) || res.Len() != 1 || !types.Identical(res.At(0).Type().Underlying(), types.Typ[types.Bool]) {
		return false, false
	}
	if c.summarize(t) {
		return false, false // it deals with tombstones: its call settles them
	}
	f := solve(fn, mayBeTombstone, []key{{fn.Params[t.param], -1}}, c.hooks())
	// Code we cannot see may unwrap the object and answer either way.
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, isCall := instr.(ssa.CallInstruction)
			if !isCall {
				continue
			}
			for _, arg := range call.Common().Args {
				if f.all[keyOf(arg)] && c.settles(f, instr, arg) {
					return false, false
				}
			}
		}
	}
	seed := key{fn.Params[t.param], -1}
	found := false
	give := func(v ssa.Value) bool {
		k, isConst := v.(*ssa.Const)
		if !isConst || k.Value == nil || k.Value.Kind() != constant.Bool {
			return false
		}
		if found && constant.BoolVal(k.Value) != answer {
			return false
		}
		found, answer = true, constant.BoolVal(k.Value)
		return true
	}
	for _, b := range fn.Blocks {
		ret, isRet := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !isRet || len(ret.Results) != 1 {
			continue
		}
		v := ret.Results[0]
		if phi, isPhi := v.(*ssa.Phi); isPhi && phi.Block() == b {
			// `return ok && pod.Spec.X == y`: look at each incoming edge.
			for j, pred := range b.Preds {
				if f.edgeOut(pred, b)[seed] && !give(phi.Edges[j]) {
					return false, false
				}
			}
			continue
		}
		if st, reached := f.in[b]; reached {
			st = st.clone()
			f.transfer(b, st)
			if st[seed] && !give(v) {
				return false, false
			}
		}
	}
	return answer, found
}
