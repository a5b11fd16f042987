package patchbase

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// index is the position of an instruction in its block.
func index(instr ssa.Instruction) int { return slices.Index(instr.Block().Instrs, instr) }

// path reports whether control can go from just after instruction from to
// just before instruction to without executing avoid (nil: avoid
// nothing). An instruction reaches itself only around a loop.
func path(from, to, avoid ssa.Instruction) bool {
	fb, fi := from.Block(), index(from)
	tb, ti := to.Block(), index(to)
	ab, ai := (*ssa.BasicBlock)(nil), -1
	if avoid != nil {
		ab, ai = avoid.Block(), index(avoid)
	}
	// blocked reports whether avoid lies in b between instructions lo
	// (exclusive) and hi (exclusive).
	blocked := func(b *ssa.BasicBlock, lo, hi int) bool {
		return b == ab && lo < ai && ai < hi
	}
	if fb == tb && fi < ti {
		return !blocked(fb, fi, ti)
	}
	if blocked(fb, fi, len(fb.Instrs)) {
		return false
	}
	return ssax.Walk(fb.Succs, false, func(b *ssa.BasicBlock) ssax.Step {
		switch {
		case b == tb && !blocked(b, -1, ti):
			return ssax.Stop
		case blocked(b, -1, len(b.Instrs)):
			return ssax.Prune
		}
		return ssax.Expand
	})
}

// between returns the instructions of fn that lie on some path from from
// to to that does not execute avoid again.
func between(fn *ssa.Function, from, to, avoid ssa.Instruction) []ssa.Instruction {
	var out []ssa.Instruction
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if instr == from || instr == to || instr == avoid {
				continue
			}
			if path(from, instr, avoid) && path(instr, to, avoid) {
				out = append(out, instr)
			}
		}
	}
	return out
}

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
