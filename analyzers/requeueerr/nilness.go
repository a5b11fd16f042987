package requeueerr

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// nonNil reports whether an error value is provably non-nil where block b
// uses it: made non-nil (fmt.Errorf, errors.New, pkg/errors, a concrete
// error converted to the interface, a package's sentinel error), a
// non-nil error wrapped or joined, or a value b is only reached with after
// a test that fails for nil (err != nil, apierrors.IsNotFound(err),
// client.IgnoreNotFound(err) != nil). deferred are the stores of deferred
// closures into the named error result after the return: each must keep
// the error non-nil. Unknown is not proven.
func (c *checker) nonNil(v ssa.Value, b *ssa.BasicBlock, deferred []deferredStore) bool {
	return c.proven(v, b, nil, map[ssa.Value]bool{}) && c.keptNonNil(deferred)
}

// keptNonNil reports whether every store of deferred closures into the
// named error result keeps a non-nil error non-nil.
func (c *checker) keptNonNil(deferred []deferredStore) bool {
	for _, d := range deferred {
		if !c.proven(d.store.Val, d.store.Block(), d.assumed, map[ssa.Value]bool{}) {
			return false
		}
	}
	return true
}

// proven is nonNil for one value; loads of assumed (a deferred closure's
// view of the named error result) count as non-nil.
func (c *checker) proven(v ssa.Value, b *ssa.BasicBlock, assumed *ssa.FreeVar, seen map[ssa.Value]bool) bool {
	v = resolve(v)
	if seen[v] {
		return false
	}
	seen[v] = true
	return c.made(v, b, assumed, seen) || checked(v, b)
}

// made reports whether an error value is non-nil by construction, whatever
// path reaches b.
func (c *checker) made(v ssa.Value, b *ssa.BasicBlock, assumed *ssa.FreeVar, seen map[ssa.Value]bool) bool {
	switch v := v.(type) {
	case *ssa.MakeInterface:
		return true // a concrete value in an interface is never a nil interface
	case *ssa.ChangeInterface, *ssa.ChangeType:
		return c.proven(flow.Preds(v, flow.Conversions)[0], b, assumed, seen) // the same error under another type
	case *ssa.Phi:
		for i, e := range v.Edges {
			if !c.proven(e, v.Block().Preds[i], assumed, seen) {
				return false
			}
		}
		return len(v.Edges) > 0
	case *ssa.UnOp:
		if v.Op != token.MUL {
			return false
		}
		if assumed != nil && v.X == assumed {
			return true
		}
		g, ok := v.X.(*ssa.Global)
		return ok && c.sentinel(g, seen)
	case *ssa.Call:
		switch k, _ := errorFuncOf(ssax.Callee(&v.Call)); k {
		case errNever:
			return true
		case errWraps:
			return len(v.Call.Args) > 0 && c.proven(v.Call.Args[0], b, assumed, seen)
		case errJoins:
			return len(v.Call.Args) > 0 && c.anyProven(v.Call.Args[0], b, assumed, seen)
		}
	}
	return false // a nil constant, or of unknown nil-ness
}

// anyProven reports whether a slice of errors built from a literal (a
// []error{...}, or the variadic arguments of errors.Join) holds a
// provably non-nil error.
func (c *checker) anyProven(slice ssa.Value, b *ssa.BasicBlock, assumed *ssa.FreeVar, seen map[ssa.Value]bool) bool {
	elems, _ := flow.Variadic(slice)
	return slices.ContainsFunc(elems, func(e ssa.Value) bool { return c.proven(e, b, assumed, seen) })
}

// sentinel reports whether a package-level error variable is never nil: in
// this package, every store to it is provably non-nil and nothing else
// takes its address; in another package, an exported error variable named
// Err... (the Go convention for sentinel errors, which are never nil).
func (c *checker) sentinel(g *ssa.Global, seen map[ssa.Value]bool) bool {
	if g.Pkg != c.pkg {
		return g.Object().Exported() && strings.HasPrefix(g.Name(), "Err") &&
			isError(g.Type().(*types.Pointer).Elem())
	}
	stores := c.globals.stores[g]
	if c.globals.escapes[g] || len(stores) == 0 {
		return false
	}
	for _, st := range stores {
		if !c.proven(st.Val, st.Block(), nil, seen) {
			return false
		}
	}
	return true
}

// checked reports whether block b is only reached along an edge on which v
// is non-nil: the true edge of `v != nil`, the false edge of `v == nil`,
// the true edge of a test that is false for nil (apierrors.IsNotFound(v),
// errors.As(v, ...)), or of `f(v) != nil` where f returns nil for nil
// (client.IgnoreNotFound, pkg/errors.Wrap).
func checked(v ssa.Value, b *ssa.BasicBlock) bool {
	return guarded(b, func(cond ssa.Value) int { return impliesNonNil(cond, v) })
}

// guarded reports whether block b is only reached along the edge edge
// picks of an If's condition (0 for true, 1 for false, -1 for none). The
// edge dominates b when its target has no other predecessor and dominates
// b.
func guarded(b *ssa.BasicBlock, edge func(cond ssa.Value) int) bool {
	for _, p := range b.Parent().Blocks {
		iff, ok := p.Instrs[len(p.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		e := edge(iff.Cond)
		if e < 0 {
			continue
		}
		if s := p.Succs[e]; len(s.Preds) == 1 && s.Dominates(b) {
			return true
		}
	}
	return false
}

// impliesNonNil returns the successor (0 for true, 1 for false) on which
// cond proves v non-nil, or -1.
func impliesNonNil(cond, v ssa.Value) int {
	switch cond := cond.(type) {
	case *ssa.UnOp:
		if cond.Op == token.NOT {
			if e := impliesNonNil(cond.X, v); e >= 0 {
				return 1 - e
			}
		}
	case *ssa.BinOp:
		var x ssa.Value
		switch {
		case isNil(cond.Y):
			x = cond.X
		case isNil(cond.X):
			x = cond.Y
		default:
			return -1
		}
		if !nilWith(x, v, errWraps, errFilters) {
			return -1
		}
		switch cond.Op {
		case token.NEQ:
			return 0
		case token.EQL:
			return 1
		}
	case *ssa.Call:
		if k, _ := errorFuncOf(ssax.Callee(&cond.Call)); k == errTests && len(cond.Call.Args) > 0 && resolve(cond.Call.Args[0]) == v {
			return 0
		}
	}
	return -1
}

// nilWith reports whether x is nil whenever v is: v itself (also when
// loaded from a captured variable, see resolve), or v passed through
// functions of the given kinds, which return nil for nil (errWraps, and
// errFilters when x may be nil for a non-nil v too).
func nilWith(x, v ssa.Value, kinds ...errorNil) bool {
	for {
		x = resolve(x)
		if x == v {
			return true
		}
		switch e := x.(type) {
		case *ssa.ChangeInterface, *ssa.ChangeType:
			x = flow.Preds(x, flow.Conversions)[0] // not MakeInterface: a nil pointer in an interface is no nil error
		case *ssa.Call:
			k, _ := errorFuncOf(ssax.Callee(&e.Call))
			if !slices.Contains(kinds, k) || len(e.Call.Args) == 0 {
				return false
			}
			x = e.Call.Args[0]
		default:
			return false
		}
	}
}

func isNil(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	return ok && k.IsNil()
}

// terminal reports whether an error is a reconcile.TerminalError:
// made by it, or wrapped (pkg/errors, fmt.Errorf's arguments).
func terminal(v ssa.Value) bool {
	call, ok := flow.Origin(v, flow.Conversions).(*ssa.Call)
	if !ok {
		return false
	}
	fn := ssax.Callee(&call.Call)
	if isTerminalError(fn) {
		return true
	}
	if k, _ := errorFuncOf(fn); k == errWraps && len(call.Call.Args) > 0 {
		return terminal(call.Call.Args[0])
	}
	if kube.IsFunc(fn, "fmt", "Errorf") && len(call.Call.Args) == 2 {
		operands, _ := flow.Variadic(call.Call.Args[1])
		return slices.ContainsFunc(operands, terminal)
	}
	return false
}
