package analyzers_test

import (
	"bytes"
	"encoding/gob"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
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
//   - every fact type in the requirement graph survives a gob round trip
//     (nogo, like go vet, ships facts between actions as gob);
//   - ctrllint's own analyzers declare no facts (facts would force every
//     dependency to be analysed from source);
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
		for _, r := range a.Requires {
			visit(r)
		}
		for _, f := range a.FactTypes {
			var buf bytes.Buffer
			if err := gob.NewEncoder(&buf).Encode(f); err != nil {
				t.Errorf("%s: fact %T does not gob-encode: %v", a.Name, f, err)
				continue
			}
			out := reflect.New(reflect.TypeOf(f).Elem()).Interface()
			if err := gob.NewDecoder(&buf).Decode(out); err != nil {
				t.Errorf("%s: fact %T does not gob-decode: %v", a.Name, f, err)
			}
		}
	}
	for _, a := range all {
		if len(a.FactTypes) > 0 {
			t.Errorf("%s declares facts: every dependency would have to be loaded from source", a.Name)
		}
		visit(a)
		if !exportsAnalyzer(t, a.Name) {
			t.Errorf("package analyzers/%s does not declare `var Analyzer`", a.Name)
		}
	}
	if len(seen) <= len(all) {
		t.Errorf("the requirement graph has %d analyzers: buildssa and inspect are missing", len(seen))
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
