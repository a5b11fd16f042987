package kubessa_test

import (
	"go/ast"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
)

// probe reports whether SSA was built for a package and, for functions
// named after*, whether their call to Add survived: the SSA builder drops
// code after a call that never returns.
var probe = &analysis.Analyzer{
	Name:     "probe",
	Doc:      "test probe for kubessa",
	Requires: []*analysis.Analyzer{kubessa.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := kubessa.Of(pass)
		pos := pass.Files[0].Name.Pos()
		if res == nil {
			pass.Reportf(pos, "ssa: skipped")
			return nil, nil
		}
		pass.Reportf(pos, "ssa: built")
		for _, fn := range res.SrcFuncs {
			if fn.Parent() != nil || !strings.HasPrefix(fn.Name(), "after") {
				continue
			}
			state := "unreachable"
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					if c, ok := instr.(ssa.CallInstruction); ok && c.Common().IsInvoke() && c.Common().Method.Name() == "Add" {
						state = "reachable"
					}
				}
			}
			pass.Reportf(fn.Syntax().(*ast.FuncDecl).Name.Pos(), "Add %s", state)
		}
		return nil, nil
	},
}

func TestBuildsOnlyWhereKubernetesIsSeen(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "testdata", "src", "current")
	analysistest.Run(t, dir, probe, "./kubessa/plain", "./kubessa/controller")
}
