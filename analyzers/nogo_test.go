package analyzers_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers"
)

// TestNogoConstraints checks what Bazel's nogo (rules_go) needs of an
// analyzer, besides what `go vet -vettool` already exercises (a separate,
// per-package driver with serialized facts, compared finding for finding
// with the standalone run in cmd/ctrllint's tests):
//
//   - the analyzers and everything they require validate;
//   - no analyzer in the requirement graph declares facts: facts would
//     force every dependency to be analysed from source, and the ctrllint
//     command's driver, which loads dependencies from export data, drops
//     them (a fact-using analyzer would silently see none);
//   - each analyzer package exports `var Analyzer`, the name nogo's deps
//     are looked up by.
func TestNogoConstraints(t *testing.T) {
	all := analyzers.All()
	if err := analysis.Validate(all); err != nil {
		t.Fatal(err)
	}
	seen := map[*analysis.Analyzer]bool{}
	var visit func(a *analysis.Analyzer)
	visit = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		if len(a.FactTypes) > 0 {
			t.Errorf("%s declares facts: every dependency would have to be loaded from source", a.Name)
		}
		for _, r := range a.Requires {
			visit(r)
		}
	}
	for _, a := range all {
		visit(a)
		if !exportsAnalyzer(t, a.Name) {
			t.Errorf("package analyzers/%s does not declare `var Analyzer`", a.Name)
		}
	}
	if len(seen) <= len(all) {
		t.Errorf("the requirement graph has %d analyzers: kubessa and inspect are missing", len(seen))
	}
}

func exportsAnalyzer(t *testing.T, name string) bool {
	pkgs, err := parser.ParseDir(token.NewFileSet(), name, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		for _, f := range p.Files {
			for _, d := range f.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok || gd.Tok != token.VAR {
					continue
				}
				for _, s := range gd.Specs {
					for _, id := range s.(*ast.ValueSpec).Names {
						if id.Name == "Analyzer" {
							return true
						}
					}
				}
			}
		}
	}
	return false
}
