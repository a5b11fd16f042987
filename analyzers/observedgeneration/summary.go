package observedgeneration

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/edit"
	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

type paramKey struct {
	fn *ssa.Function
	i  int
}

// A paramSink is where a helper sets the condition its parameter hands
// it: in the status of the object another parameter is (param), in
// conditions another parameter holds (param, place), or in the status of
// an object it reaches otherwise, a closure's captured variable (obj).
type paramSink struct {
	param   int
	place   bool
	obj     ssa.Value
	objType types.Type
	status  *ssa.FieldAddr
}

// A summary is what a helper does with a condition parameter.
type summary struct {
	sinks []paramSink
	// unknown: the helper may give it an ObservedGeneration, or hands it
	// where it is not followed.
	unknown bool
}

// summaryOf returns what fn does with the condition (or conditions) its
// i-th parameter holds. A helper being summarised that reaches itself
// sees nothing.
func (c *checker) summaryOf(fn *ssa.Function, i, depth int) summary {
	key := paramKey{fn, i}
	if s, ok := c.summary[key]; ok {
		return s
	}
	c.summary[key] = summary{}
	w := &walk{c: c, fn: fn}
	w.from(fn.Params[i], depth)
	s := summary{unknown: w.unknown}
	for _, e := range w.ends {
		switch {
		case e.obj == nil:
			s.sinks = append(s.sinks, paramSink{param: e.param, place: true})
		case e.param >= 0:
			s.sinks = append(s.sinks, paramSink{param: e.param, objType: e.objType})
		case e.status != nil:
			s.sinks = append(s.sinks, paramSink{param: -1, obj: e.obj, objType: e.objType, status: e.status})
		}
	}
	c.summary[key] = s
	return s
}

// stamps finds the object types whose conditions the package gives an
// ObservedGeneration other than in the literal or variable a condition is
// built in: `obj.Status.Conditions[i].ObservedGeneration = obj.Generation`
// in a loop after they are set. A store of that field into conditions not
// traced to an object (a helper's slice parameter) sets stampsAny.
func (c *checker) stamps(funcs []*ssa.Function) {
	c.stamped = make(map[*types.TypeName]bool)
	for _, fn := range funcs {
		w := &walk{c: c, fn: fn}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				fa, ok := st.Addr.(*ssa.FieldAddr)
				if !ok || fieldName(fa) != generationField || !isCondition(kube.Pointee(fa.X.Type())) {
					continue
				}
				switch base := flow.Origin(fa.X, flow.Same).(type) {
				case *ssa.Alloc:
					continue // a condition being built: literalValues and walk.variable see it
				case *ssa.Parameter:
					if _, isPtr := base.Type().Underlying().(*types.Pointer); isPtr {
						continue // a condition handed by its address: its callers hand it on (unknown)
					}
				}
				if e, ok := w.placeEnd(fa.X); ok && e.obj != nil {
					c.stamped[typeName(e.objType)] = true
					continue
				}
				c.stampsAny = true
			}
		}
	}
}

// typeName is the named type behind t.
func typeName(t types.Type) *types.TypeName {
	if n := kube.Named(t); n != nil {
		return n.Obj()
	}
	return nil
}

// inObjectLiteral reports whether fa is the Status field of an object's
// composite literal, initialised there: an object being built.
func (c *checker) inObjectLiteral(fa *ssa.FieldAddr) bool {
	alloc, ok := fa.X.(*ssa.Alloc)
	if !ok || alloc.Comment != "complit" {
		return false
	}
	f := edit.FileOf(c.pass, fa.Pos())
	if f == nil {
		return false
	}
	path, _ := astutil.PathEnclosingInterval(f, fa.Pos(), fa.Pos())
	for _, n := range path {
		if lit, ok := n.(*ast.CompositeLit); ok && lit.Lbrace == alloc.Pos() {
			return true
		}
	}
	return false
}

// objectExpr is the object's expression in source where the condition is
// set: X of X.Status, or the helper call's argument. Nil when it cannot be
// found.
func (c *checker) objectExpr(e end) ast.Expr {
	if e.status != nil {
		f := edit.FileOf(c.pass, e.status.Pos())
		if f == nil {
			return nil
		}
		path, _ := astutil.PathEnclosingInterval(f, e.status.Pos(), e.status.Pos())
		for _, n := range path {
			if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Pos() == e.status.Pos() {
				return sel.X
			}
		}
		return nil
	}
	if e.call == nil {
		return nil
	}
	call := edit.CallAt(c.pass, e.call.Pos())
	if call == nil {
		return nil
	}
	if e.arg < 0 {
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			return sel.X
		}
		return nil
	}
	if e.arg >= len(call.Args) || call.Ellipsis.IsValid() {
		return nil
	}
	x := ast.Unparen(call.Args[e.arg])
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
		return ast.Unparen(u.X) // &obj: obj.Generation is the same
	}
	return x
}

// inScope reports whether x is a simple expression (a variable, or a
// field of one: obj, r.obj, c.observerCR) that means the same at pos: its
// variable is the one in scope there.
func (c *checker) inScope(x ast.Expr, pos token.Pos) bool {
	info := c.pass.TypesInfo
	for {
		switch e := x.(type) {
		case *ast.SelectorExpr:
			if sel := info.Selections[e]; sel == nil || sel.Kind() != types.FieldVal {
				return false
			}
			x = e.X
			continue
		case *ast.Ident:
			v, ok := info.Uses[e].(*types.Var)
			if !ok {
				return false
			}
			scope := c.pass.Pkg.Scope().Innermost(pos)
			if scope == nil {
				return false
			}
			_, found := scope.LookupParent(e.Name, pos)
			return found == v
		}
		return false
	}
}
