package kube

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Every package scope an analyzer reads is the analysed package's, or a
// dependency's that the ctrllint command decodes whole (ScopesRead), or a
// complete package's: the scope of a package known only from other
// packages' export data changes while the driver decodes, and holds only
// what they mention. The test reads the analyzers' source for Scope()
// calls and knows each receiver; a new one must be added here, with its
// reason, and its package to ScopesRead if it is a dependency.
func TestScopesRead(t *testing.T) {
	// By file and receiver.
	receivers := map[string]string{
		"sharedowner/checks.go pass.Pkg":    "the analysed package",
		"tombstone/fix.go c.pass.Pkg":       "the analysed package",
		"tombstone/roots.go pass.Pkg":       "the analysed package",
		"forget/forget.go pass.Pkg":         "the analysed package",
		"cachesync/owners.go c.pkg.Pkg":     "the analysed package's SSA package",
		"listerbypass/cached.go pkg":        "collectCaches, called with pass.Pkg",
		"keyflow/walk.go named.Obj().Pkg()": "enumConstants, only when the package is complete",
		"tombstone/tombstone.go cachePkg":   "client-go's cache package, in ScopesRead",
		"tombstone/handlers.go cachePkg":    "client-go's cache package, in ScopesRead",
		"kubessa/kubessa.go p":              "referenced: compares the scope's identity, reads nothing",
	}
	if !slices.Contains(ScopesRead, CachePkg) {
		t.Errorf("ScopesRead %v lacks %s, whose scope tombstone and IsUntypedHandler read", ScopesRead, CachePkg)
	}
	root := filepath.Join("..", "..")
	found := make(map[string]bool)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.Contains(path, "testdata") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 0 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Scope" {
				return true
			}
			key := filepath.ToSlash(filepath.Join(filepath.Base(filepath.Dir(path)), filepath.Base(path))) + " " + types.ExprString(sel.X)
			found[key] = true
			if _, ok := receivers[key]; !ok {
				t.Errorf("%s: %s.Scope(): whose scope is it? If a dependency's, add its path to ScopesRead", path, types.ExprString(sel.X))
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) == 0 {
		t.Fatal("no Scope() call found: the test reads nothing")
	}
	for key := range receivers {
		if !found[key] {
			t.Errorf("%s: Scope() is no longer called there: drop it from the test", key)
		}
	}
}
