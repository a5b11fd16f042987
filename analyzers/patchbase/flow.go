package patchbase

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"
)

// enclosing returns the syntax path to pos, innermost first.
func (c *checker) enclosing(pos token.Pos) []ast.Node {
	for _, f := range c.pass.Files {
		if f.FileStart <= pos && pos < f.FileEnd {
			p, _ := astutil.PathEnclosingInterval(f, pos, pos)
			return p
		}
	}
	return nil
}

// assignedAt is the one left-hand side of the assignment at pos, as
// written ("dep.Spec.Replicas"), or "".
func (c *checker) assignedAt(pos token.Pos) string {
	if !pos.IsValid() {
		return ""
	}
	for _, n := range c.enclosing(pos) {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == 1 {
				return types.ExprString(n.Lhs[0])
			}
			return ""
		case *ast.IncDecStmt:
			return types.ExprString(n.X)
		case ast.Stmt:
			return ""
		}
	}
	return ""
}

// callAt is the call expression whose opening parenthesis is at pos
// (where SSA places a call), or nil.
func (c *checker) callAt(pos token.Pos) *ast.CallExpr {
	for _, n := range c.enclosing(pos) {
		if call, ok := n.(*ast.CallExpr); ok && call.Lparen == pos {
			return call
		}
	}
	return nil
}
