package cachemutation

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/edit"
	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
)

// fix inserts `obj = obj.DeepCopy()` right after the statement that
// assigns the cached object to a local variable: the read itself
// (pod, err := c.podLister.Pods(ns).Get(name)) or, for an untyped store,
// the type assertion of its result (pod := obj.(*v1.Pod)). Generated
// DeepCopy methods return nil for a nil receiver, so the copy may precede
// the error check. Slices from List get no fix: each element needs its
// own copy.
func (a *checker) fix(src *source) *analysis.SuggestedFix {
	if src.many || src.callback {
		return nil // each element, or the callback's object, needs a copy of its own
	}
	as, i := a.assignOf(src.call.Pos()), src.index
	if as == nil || !a.deepCopyable(as, i) {
		as, i = a.assertionAssign(src.call), 0
	}
	if as == nil {
		return nil
	}
	id := as.Lhs[i].(*ast.Ident)
	next, ok := a.nextStmt(as)
	if !ok {
		return nil
	}
	stmt := id.Name + " = " + id.Name + ".DeepCopy()"
	return &analysis.SuggestedFix{
		Message:   "Copy " + id.Name + " before changing it",
		TextEdits: []analysis.TextEdit{edit.InsertBefore(a.pass, next.Pos(), stmt)},
	}
}

// assertionAssign finds the one assignment of a type assertion of an
// untyped read's result (obj, exists, err := store.GetByKey(key); ...;
// pod := obj.(*v1.Pod)).
func (a *checker) assertionAssign(call *ssa.Call) *ast.AssignStmt {
	var found *ast.AssignStmt
	all := flow.Uses(call, flow.Extracts, func(use ssa.Instruction, of ssa.Value) bool {
		if x, ok := of.(*ssa.Extract); ok && x.Index != 0 {
			return true // exists, err
		}
		ta, ok := use.(*ssa.TypeAssert)
		if !ok {
			return true
		}
		as := a.assignOf(ta.Pos())
		if as == nil || !a.deepCopyable(as, 0) || found != nil && found != as {
			return false
		}
		found = as
		return true
	})
	if !all {
		return nil
	}
	return found
}

// deepCopyable reports whether the assignment's left-hand side i is a
// variable whose type has a DeepCopy method returning that type.
func (a *checker) deepCopyable(as *ast.AssignStmt, i int) bool {
	if i >= len(as.Lhs) {
		return false
	}
	id, ok := as.Lhs[i].(*ast.Ident)
	if !ok || id.Name == "_" {
		return false
	}
	obj := a.pass.TypesInfo.ObjectOf(id)
	v, ok := obj.(*types.Var)
	if !ok {
		return false
	}
	m, _, _ := types.LookupFieldOrMethod(v.Type(), true, v.Pkg(), "DeepCopy")
	fn, ok := m.(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Type().(*types.Signature)
	return sig.Params().Len() == 0 && sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), v.Type())
}

// nextStmt is the statement after as in its block (a statement list); ok
// is false when as is not in one (an if's init) or is the last.
func (a *checker) nextStmt(as *ast.AssignStmt) (ast.Stmt, bool) {
	p := a.path(as.Pos())
	for i, n := range p {
		if n != as || i+1 >= len(p) {
			continue
		}
		var list []ast.Stmt
		switch parent := p[i+1].(type) {
		case *ast.BlockStmt:
			list = parent.List
		case *ast.CaseClause:
			list = parent.Body
		case *ast.CommClause:
			list = parent.Body
		}
		for j, s := range list {
			if s == ast.Stmt(as) && j+1 < len(list) {
				return list[j+1], true
			}
		}
		return nil, false
	}
	return nil, false
}
