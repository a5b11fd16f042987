package tombstone

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/internal/lend"
)

// chainSrc holds a handler literal handed on through func variables: h1
// is maxFuncVarChain variables away from it, h2 one more.
const chainSrc = `package p

func f() {
	a := func(obj any) {}
	b := a
	c := b
	h1 := c
	h2 := h1
	_, _ = h1, h2
}
`

// TestFuncVarChainLimit checks that a registration held through more func
// variables than maxFuncVarChain is cut off where the walk stops, and that
// the cut is noted (lend.LimitHit) rather than silent.
func TestFuncVarChainLimit(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", chainSrc, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	pkg, err := new(types.Config).Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	run := lend.NewRun()
	pass := &analysis.Pass{Analyzer: Analyzer, Fset: fset, Pkg: pkg, TypesInfo: info, ResultOf: map[*analysis.Analyzer]any{lend.Analyzer: run}}
	lit := func() *ast.FuncLit {
		for n := range ast.Preorder(f) {
			if l, ok := n.(*ast.FuncLit); ok {
				return l
			}
		}
		return nil
	}()
	res := resolver{pass: pass, funcs: map[ast.Node]*ssa.Function{lit: {}}, assigned: localFuncAssignments(pass, inspector.New([]*ast.File{f}))}
	var h1, h2 ast.Expr // the uses of the last statement
	for n := range ast.Preorder(f) {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Rhs) == 2 {
			h1, h2 = as.Rhs[0], as.Rhs[1]
		}
	}
	if fn := res.resolve(h1); fn == nil {
		t.Errorf("resolve(h1) = nil, want the literal %d variables away", maxFuncVarChain)
	}
	if got := run.Limits.All(); len(got) != 0 {
		t.Errorf("limits noted within the bound: %v", got)
	}
	if fn := res.resolve(h2); fn != nil {
		t.Errorf("resolve(h2) = %v, want nil past maxFuncVarChain", fn)
	}
	if got := run.Limits.All(); len(got) != 1 || !strings.HasPrefix(got[0].What, "maxFuncVarChain:") {
		t.Errorf("limits noted = %v, want one maxFuncVarChain", got)
	}
}
