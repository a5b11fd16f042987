package analyzers_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ctrllint/ctrllint/analyzers"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// scopeReads are the Scope() calls in the analyzers' code, by file name
// and receiver: whose scope each reads. A dependency's (dep set) must be
// declared in the Scopes of every analyzer that reaches the call; the
// others need no declaration and say why.
var scopeReads = map[string]struct {
	dep    string // the dependency's import path, or "" if none
	reason string
}{
	"checks.go pass.Pkg":        {"", "the analysed package"},
	"fix.go c.pass.Pkg":         {"", "the analysed package"},
	"facts.go a.pass.Pkg":       {"", "the analysed package's interfaces and their implementations"},
	"roots.go pass.Pkg":         {"", "the analysed package"},
	"forget.go pass.Pkg":        {"", "the analysed package"},
	"owners.go c.pkg.Pkg":       {"", "the analysed package's SSA package"},
	"cached.go pkg":             {"", "collectCaches, called with pass.Pkg"},
	"walk.go named.Obj().Pkg()": {"", "enumConstants, only when the package is complete"},
	"kubessa.go p":              {"", "compares the scope's identity, reads nothing"},
	"watcher.go c.pass.Pkg":     {"", "the analysed package"},
	"watcher.go p":              {"", "the package a WatcherFact names, imported by the analysed one: an interface its export data lacks costs implementations, never adds one"},
	"handlers.go cachePkg":      {kube.CachePkg, "isUntypedHandler's ResourceEventHandler"},
	"summary.go pkg":            {"", "Callable, called with the analysed package"},
	"eval.go fc.pkg":            {"", "ownerkind: the analysed package or one it imports directly (checked with visible)"},
	"eval.go imp":               {"", "ownerkind: only a package the analysed one imports directly (visible)"},
	"eval.go obj.Pkg()":         {"", "ownerkind: compares the scope's identity, reads nothing"},
	"eval.go pkg":               {"", "ownerkind's builtinGV: a package the analysed one imports directly (visible)"},
	"expect.go pkg":             {"", "ownerkind's customIdentity: the owner type's package, imported directly (visible)"},
	"ownerkind.go c.pass.Pkg":   {"", "the analysed package"},
}

// A scope read of a package known only from other packages' export data
// depends on what else the driver decoded: every such read must be
// declared in the definition (define.Spec.Scopes) of each analyzer that
// makes it, and each declaration must be read somewhere. The test reads the
// analyzers' source for Scope() calls; a new one must be added to
// scopeReads, and, if it reads a dependency, to its analyzers' Scopes.
func TestScopesDeclared(t *testing.T) {
	declared := map[string][]string{} // analyzer → its declared scopes
	for _, a := range analyzers.All() {
		info, _ := analyzers.Lookup(a.Name)
		declared[a.Name] = info.Scopes
	}
	sources := analyzerSources(t)

	found := map[string]bool{}
	used := map[string]bool{} // "analyzer path" of declarations read
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.Contains(path, "testdata") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			ast.Inspect(decl, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) != 0 {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok || sel.Sel.Name != "Scope" {
					return true
				}
				key := filepath.Base(path) + " " + types.ExprString(sel.X)
				found[key] = true
				read, ok := scopeReads[key]
				if !ok {
					t.Errorf("%s: %s.Scope(): whose scope is it? Add it to scopeReads, and a dependency's path to the Scopes of the analyzers that read it", path, types.ExprString(sel.X))
					return true
				}
				if read.dep == "" {
					return true
				}
				for _, a := range readers(t, path, decl, sources) {
					used[a+" "+read.dep] = true
					if !slices.Contains(declared[a], read.dep) {
						t.Errorf("%s: %s reads the scope of %s (%s) but its definition does not declare it in Scopes", path, a, read.dep, read.reason)
					}
				}
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) == 0 {
		t.Fatal("no Scope() call found: the test reads nothing")
	}
	for key := range scopeReads {
		if !found[key] {
			t.Errorf("%s: Scope() is no longer called there: drop it from scopeReads", key)
		}
	}
	for a, paths := range declared {
		for _, p := range paths {
			if !used[a+" "+p] {
				t.Errorf("%s declares the scope of %s, but no Scope() call it reaches reads it: drop the declaration", a, p)
			}
		}
	}
	if want := kube.CachePkg; !slices.Contains(analyzers.WholePackages(), want) {
		t.Errorf("WholePackages() = %v lacks %s, which tombstone declares", analyzers.WholePackages(), want)
	}
}

// analyzerSources are the non-test sources of each analyzer's package.
func analyzerSources(t *testing.T) map[string]string {
	out := map[string]string{}
	for _, a := range analyzers.All() {
		files, err := filepath.Glob(filepath.Join(a.Name, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("analyzer %s: no sources in analyzers/%s (%v)", a.Name, a.Name, err)
		}
		var b strings.Builder
		for _, f := range files {
			if !strings.HasSuffix(f, "_test.go") {
				b.WriteString(readFile(t, f))
			}
		}
		out[a.Name] = b.String()
	}
	return out
}

// readers are the analyzers that reach a Scope() call in decl of the file
// at path: the analyzer whose package holds it, or, in a shared package,
// those that call the exported function around it.
func readers(t *testing.T, path string, decl ast.Decl, sources map[string]string) []string {
	dir := filepath.Base(filepath.Dir(path))
	if _, ok := sources[dir]; ok && filepath.Dir(filepath.Dir(path)) == "." {
		return []string{dir}
	}
	fn, ok := decl.(*ast.FuncDecl)
	if !ok || fn.Recv != nil || !fn.Name.IsExported() {
		t.Errorf("%s: a dependency's scope read outside an exported function of a shared package: the test cannot tell which analyzers reach it", path)
		return nil
	}
	var out []string
	for a, src := range sources {
		if strings.Contains(src, dir+"."+fn.Name.Name+"(") {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		t.Errorf("%s: no analyzer calls %s.%s, which reads a dependency's scope", path, dir, fn.Name.Name)
	}
	return out
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
