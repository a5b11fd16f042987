package conflictretry

import (
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// A retrySite is a call that runs a closure of the package again when it
// fails with a conflict.
type retrySite struct {
	name    string // for messages: "retry.RetryOnConflict"
	closure *ssa.MakeClosure
	body    *ssa.Function
	// wait: a wait.Poll* or wait.ExponentialBackoff* loop, which goes
	// round again when its condition returns false and a nil error; it
	// retries a conflict only where the condition says so.
	wait bool
}

// retrySiteOf recognises client-go's retry.RetryOnConflict(backoff, fn),
// retry.OnError(backoff, retriable, fn) with a retriable that is true for
// conflicts, and apimachinery's wait.Poll* and wait.ExponentialBackoff*
// loops, with a closure (a function literal that captures variables).
func (c *checker) retrySiteOf(call *ssa.Call) (retrySite, bool) {
	fn := ssax.Callee(call.Common())
	if fn == nil || fn.Pkg() == nil {
		return retrySite{}, false
	}
	args := call.Common().Args
	var site retrySite
	var body ssa.Value
	switch {
	case kube.IsFunc(fn, kube.RetryPkg, "RetryOnConflict") && len(args) == 2:
		site.name, body = "retry.RetryOnConflict", args[1]
	case kube.IsFunc(fn, kube.RetryPkg, "OnError") && len(args) == 3:
		if !c.retriesConflicts(args[1]) {
			return retrySite{}, false // retries other errors only
		}
		site.name, body = "retry.OnError", args[2]
	case fn.Pkg().Path() == kube.WaitPkg && isWaitLoop(fn):
		for i := len(args) - 1; i >= 0; i-- {
			if isCondition(args[i].Type()) {
				body = args[i]
				break
			}
		}
		site.name, site.wait = "wait."+fn.Name(), true
	default:
		return retrySite{}, false
	}
	mc, ok := flow.Origin(body, flow.Conversions).(*ssa.MakeClosure) // wait.ConditionFunc(func...)
	if !ok {
		return retrySite{}, false // captures nothing: nothing read outside it
	}
	site.closure = mc
	site.body, _ = mc.Fn.(*ssa.Function)
	if site.body == nil || site.body.Blocks == nil {
		return retrySite{}, false
	}
	return site, true
}

// isWaitLoop reports whether fn is one of wait's polling or backoff loops,
// which call a condition until it returns true or an error.
func isWaitLoop(fn *types.Func) bool {
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() != nil {
		return false
	}
	return strings.HasPrefix(fn.Name(), "Poll") || strings.HasPrefix(fn.Name(), "ExponentialBackoff")
}

// isCondition reports whether t is a condition function: (bool, error)
// results, with or without a context parameter.
func isCondition(t types.Type) bool {
	sig, ok := t.Underlying().(*types.Signature)
	if !ok || sig.Results().Len() != 2 {
		return false
	}
	return types.Identical(sig.Results().At(0).Type(), types.Typ[types.Bool]) && isError(sig.Results().At(1).Type())
}

func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// retriesConflicts reports whether a retriable predicate handed to
// retry.OnError is true for conflicts: apierrors.IsConflict itself, or a
// function of the package that returns IsConflict of its argument, alone or
// in a disjunction (kubernetes' isConflictOrServiceUnavailable).
func (c *checker) retriesConflicts(v ssa.Value) bool {
	v = flow.Origin(v, flow.Conversions)
	if f, ok := v.(*ssa.Function); ok {
		if obj, _ := f.Object().(*types.Func); isConflictTest(obj) {
			return true
		}
	}
	fn, _ := ssax.Func(c.pkg, v)
	if fn == nil {
		return false
	}
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) != 1 {
			continue
		}
		// IsConflict(err), alone or as one edge of a disjunction's φ.
		results, _ := flow.Origins(ret.Results[0], flow.Phis)
		for _, r := range results {
			if call, ok := r.(*ssa.Call); ok && isConflictTest(ssax.Callee(call.Common())) {
				return true
			}
		}
	}
	return false
}

func isConflictTest(fn *types.Func) bool {
	return kube.IsFunc(fn, kube.APIErrorsPkg, "IsConflict")
}

// retriedOnConflict reports whether a wait loop's condition goes round
// again when the write fails with a conflict: IsConflict of the write's
// error is tested, and where it holds the condition returns false and a
// nil error.
func (c *checker) retriedOnConflict(body *ssa.Function, w write) bool {
	if w.err == nil {
		return false
	}
	for _, ref := range *w.err.Referrers() {
		test, ok := ref.(*ssa.Call)
		if !ok || !isConflictTest(ssax.Callee(test.Common())) {
			continue
		}
		for _, r := range *test.Referrers() {
			ifi, ok := r.(*ssa.If)
			if !ok || ifi.Cond != test {
				continue
			}
			if ssax.Reaches(ifi.Block().Succs[:1], returnsRetry) {
				return true
			}
		}
	}
	return false
}

// returnsRetry reports whether a block returns false and a nil error:
// "not done, poll again".
func returnsRetry(b *ssa.BasicBlock) bool {
	ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
	if !ok || len(ret.Results) != 2 {
		return false
	}
	done, ok := ret.Results[0].(*ssa.Const)
	if !ok || done.Value == nil || done.Value.Kind() != constant.Bool || constant.BoolVal(done.Value) {
		return false
	}
	err, ok := ret.Results[1].(*ssa.Const)
	return ok && err.IsNil()
}

// returned reports whether an error reaches a return of its function, as
// it is or wrapped by a call (fmt.Errorf with %w, pkg/errors.Wrap): only
// then can retry.RetryOnConflict and retry.OnError see its conflict.
func returned(err ssa.Value) bool {
	if err == nil {
		return false
	}
	seen := make(map[ssa.Value]bool)
	work := []ssa.Value{err}
	for len(work) > 0 && len(seen) < 64 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[v] {
			continue
		}
		seen[v] = true
		found := false
		flow.Uses(v, flow.Phis|flow.Conversions|flow.Extracts, func(use ssa.Instruction, _ ssa.Value) bool {
			switch use := use.(type) {
			case *ssa.Return:
				found = true
				return false
			case *ssa.Call:
				work = append(work, use) // wrapped, or handed on
			case *ssa.Store:
				// An argument of a variadic call: fmt.Errorf's.
				calls, _ := varargCalls(use)
				for _, call := range calls {
					if call, ok := call.(*ssa.Call); ok {
						work = append(work, call)
					}
				}
			}
			return true
		})
		if found {
			return true
		}
	}
	return false
}

// varargCalls returns the calls handed the array st stores an element of:
// a variadic call f(a, b) stores a and b into an array and hands f a
// slice of it. only is false when st stores elsewhere or the array is
// used otherwise too.
func varargCalls(st *ssa.Store) (calls []ssa.CallInstruction, only bool) {
	ia, ok := st.Addr.(*ssa.IndexAddr)
	if !ok {
		return nil, false
	}
	arr, ok := ia.X.(*ssa.Alloc)
	if !ok {
		return nil, false
	}
	only = true
	for _, ref := range *arr.Referrers() {
		switch ref := ref.(type) {
		case *ssa.IndexAddr:
		case *ssa.Slice:
			for _, r := range *ref.Referrers() {
				if call, ok := r.(ssa.CallInstruction); ok {
					calls = append(calls, call)
				} else {
					only = false
				}
			}
		default:
			only = false
		}
	}
	return calls, only
}
