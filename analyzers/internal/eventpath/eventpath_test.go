package eventpath_test

import (
	"fmt"
	"go/ast"
	"go/types"
	"maps"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/eventpath"
	"github.com/ctrllint/ctrllint/analyzers/internal/keyflow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
)

// TestStopsPerQuery: the analyzers that share a package's Paths give it
// different stops (listerbypass's fresh reads, clientperreconcile's
// sync.Once, handlerblocking's none). Queried in turn with each stop, one
// computed Paths gives what a Paths built for that stop alone gives, on
// the path (PerEvent after Processing) and in the witness, and the stops
// do give different paths (the fixture's want comments).
func TestStopsPerQuery(t *testing.T) {
	stops := []struct {
		name string
		stop eventpath.Stop
	}{
		{"nil", nil},
		{"fresh", kube.IsFreshReadFunc},
		{"once", func(fn *types.Func) bool {
			return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "sync" && fn.Name() == "Do"
		}},
	}
	probe := &analysis.Analyzer{
		Name:     "probe",
		Doc:      "test probe for eventpath's stops",
		Requires: []*analysis.Analyzer{kubessa.Analyzer, eventpath.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			ssaRes := kubessa.Of(pass)
			shared := eventpath.Of(pass)
			if ssaRes == nil || shared == nil {
				t.Errorf("%s: no SSA or no paths", pass.Pkg.Path())
				return nil, nil
			}
			// Twice round, so that a query's answer cannot depend on an
			// earlier query with another stop.
			var got []map[*ssa.Function]bool
			for range 2 {
				for _, s := range stops {
					got = append(got, onPath(shared, s.stop, ssaRes.SrcFuncs))
				}
			}
			for i, s := range stops {
				alone := eventpath.New(ssaRes.Pkg, ssaRes.SrcFuncs, keyflow.NewPackage(ssaRes.Pkg, ssaRes.SrcFuncs))
				want := onPath(alone, s.stop, ssaRes.SrcFuncs)
				for _, g := range []map[*ssa.Function]bool{got[i], got[i+len(stops)]} {
					if !maps.Equal(g, want) {
						t.Errorf("%s: stop %s on the shared paths reaches %v, on paths of its own %v", pass.Pkg.Path(), s.name, names(g), names(want))
					}
				}
			}
			for _, fn := range ssaRes.SrcFuncs {
				decl, ok := fn.Syntax().(*ast.FuncDecl)
				if !ok {
					continue // a function literal: its enclosing function says
				}
				msg := fn.Name() + ":"
				for i, s := range stops {
					on, known := got[i][fn]
					if known && !on {
						t.Errorf("%s: stop %s: %s is on one of PerEvent's path and the witness's only", pass.Pkg.Path(), s.name, fn.Name())
					}
					msg += fmt.Sprintf(" %s=%v", s.name, on)
				}
				pass.Reportf(decl.Name.Pos(), "%s", msg)
			}
			return nil, nil
		},
	}
	for _, module := range []string{"current", "legacy"} {
		analysistest.Run(t, filepath.Join("..", "..", "..", "testdata", "src", module), probe, "./eventpath")
	}
}

// onPath is the per-event path under stop. The witness walk under the same
// stop from all the roots reaches the same functions: a function found on
// one and not the other is left in the result as false, which no want
// comment and no other query's result matches.
func onPath(p *eventpath.Paths, stop eventpath.Stop, funcs []*ssa.Function) map[*ssa.Function]bool {
	reached := p.PerEvent(p.Processing(stop), stop)
	w := p.Witness(p.Roots(), stop)
	out := make(map[*ssa.Function]bool)
	for _, fn := range funcs {
		_, _, witnessed := w.Path(fn)
		switch {
		case reached[fn] && witnessed:
			out[fn] = true
		case reached[fn] != witnessed:
			out[fn] = false
		}
	}
	return out
}

func names(m map[*ssa.Function]bool) []string {
	var out []string
	for fn, ok := range m {
		out = append(out, fmt.Sprintf("%s(%v)", fn.Name(), ok))
	}
	slices.Sort(out)
	return out
}
