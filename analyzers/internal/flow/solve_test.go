package flow_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
)

// build returns the SSA form of the function named name in src.
func build(t *testing.T, src, name string) *ssa.Function {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, _, err := ssautil.BuildPackage(&types.Config{Importer: importer.Default()}, fset,
		types.NewPackage("p", "p"), []*ast.File{f}, ssa.SanityCheckFunctions)
	if err != nil {
		t.Fatal(err)
	}
	fn := pkg.Func(name)
	if fn == nil {
		t.Fatalf("no function %s", name)
	}
	return fn
}

// mayBeNil is a may-analysis of the pointer parameters that may be nil: a
// comparison with nil proves a parameter is not on one of its edges.
func mayBeNil(fn *ssa.Function) map[*ssa.BasicBlock]map[ssa.Value]bool {
	entry := make(map[ssa.Value]bool)
	for _, p := range fn.Params {
		entry[p] = true
	}
	return flow.Forward[map[ssa.Value]bool]{
		Entry:    entry,
		Copy:     maps.Clone[map[ssa.Value]bool],
		Transfer: func(_ *ssa.BasicBlock, in map[ssa.Value]bool) map[ssa.Value]bool { return in },
		Edge: func(b *ssa.BasicBlock, i int, out map[ssa.Value]bool) map[ssa.Value]bool {
			iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
			if !ok {
				return out
			}
			cmp, ok := iff.Cond.(*ssa.BinOp)
			if !ok {
				return out
			}
			nonNilEdge := 0 // p != nil: the true edge
			if cmp.Op == token.EQL {
				nonNilEdge = 1
			}
			if i == nonNilEdge {
				delete(out, cmp.X)
			}
			return out
		},
		Join: func(into, from map[ssa.Value]bool) bool {
			grew := false
			for v := range from {
				if !into[v] {
					into[v], grew = true, true
				}
			}
			return grew
		},
	}.Solve(fn)
}

// TestForward: the facts at each dereference are what every path to it
// leaves: a check on one path and not the other proves nothing after the
// join, a loop's back edge brings its facts round, and an unreachable
// block gets none.
func TestForward(t *testing.T) {
	fn := build(t, `package p
func f(a, b *int, c bool) int {
	n := 0
	if a != nil {
		n += *a
	}
	if c {
		if b == nil {
			return n
		}
	}
	for i := 0; i < 3; i++ {
		if a == nil {
			break
		}
		n += *a + *b
	}
	return n
}`, "f")
	in := mayBeNil(fn)
	a, b := fn.Params[0], fn.Params[1]
	derefs := 0
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			load, ok := instr.(*ssa.UnOp)
			if !ok || load.Op != token.MUL {
				continue
			}
			derefs++
			facts, reached := in[blk]
			if !reached {
				t.Fatalf("block %d of a dereference not reached", blk.Index)
			}
			if facts[load.X] && load.X == a {
				t.Errorf("block %d: a may be nil at *a, after a check on every path to it", blk.Index)
			}
			if load.X == b && !facts[b] {
				t.Errorf("block %d: b is proven non-nil at *b, but only one path checks it", blk.Index)
			}
		}
	}
	if derefs != 3 {
		t.Fatalf("%d dereferences, want 3", derefs)
	}
}

// TestSlice: a value computed from a seed is in its slice, and so is the
// local variable a sliced value is stored into (by field); a value
// computed without it is not.
func TestSlice(t *testing.T) {
	fn := build(t, `package p
type T struct{ x, y int }
func f(seed, other int) (int, int, *T) {
	a := seed * 2
	b := other + 1
	t := &T{}
	t.x = a
	return a, b, t
}`, "f")
	in := flow.Slice(fn, []ssa.Value{fn.Params[0]})
	var ret *ssa.Return
	for _, blk := range fn.Blocks {
		if r, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return); ok {
			ret = r
		}
	}
	if !in[ret.Results[0]] {
		t.Error("seed*2 is not in the seed's slice")
	}
	if in[ret.Results[1]] {
		t.Error("other+1 is in the seed's slice")
	}
	if !in[ret.Results[2]] {
		t.Error("the variable a sliced value is stored into is not in the slice")
	}
}

// TestSolve: a fixed point that needs more rounds than it is given is
// reported as not reached.
func TestSolve(t *testing.T) {
	fn := build(t, `package p
func f() int { return 1 }`, "f")
	n := 0
	step := func(ssa.Instruction) bool { n++; return n < 5 }
	if flow.Solve([]*ssa.Function{fn}, 2, step) {
		t.Error("Solve reports a fixed point after 2 rounds of a step that keeps changing")
	}
	n = 0
	if !flow.Solve([]*ssa.Function{fn}, 10, step) {
		t.Error("Solve does not report the fixed point reached")
	}
}
