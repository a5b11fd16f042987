package analyzers_test

import (
	"bytes"
	"encoding/gob"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers"
	"github.com/ctrllint/ctrllint/internal/lend"
)

// TestNogoConstraints checks what Bazel's nogo (rules_go) needs of an
// analyzer, besides what `go vet -vettool` already exercises (a separate,
// per-package driver with serialized facts, compared finding for finding
// with the standalone run in cmd/ctrllint's tests):
//
//   - the analyzers and everything they require validate;
//   - an analyzer that declares facts requires lend.Analyzer, which
//     summary.Local reads;
//   - every fact type in the requirement graph survives gob, which nogo and
//     go vet pass facts through (and ctrllint's driver too, so that all
//     see the same facts);
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
		if len(a.FactTypes) > 0 && !slices.Contains(a.Requires, lend.Analyzer) {
			t.Errorf("%s declares facts but does not require lend.Analyzer, which summary.Local reads", a.Name)
		}
		for _, f := range a.FactTypes {
			var buf bytes.Buffer
			if err := gob.NewEncoder(&buf).Encode(f); err != nil {
				t.Errorf("%s: fact type %T cannot be gob-encoded: %v", a.Name, f, err)
				continue
			}
			back := reflect.New(reflect.TypeOf(f).Elem()).Interface()
			if err := gob.NewDecoder(&buf).Decode(back); err != nil {
				t.Errorf("%s: fact type %T cannot be gob-decoded: %v", a.Name, f, err)
			}
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
