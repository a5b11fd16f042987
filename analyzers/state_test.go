package analyzers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// An analyzer is a function of its pass: state that outlives one package
// belongs to the driver, which lends it (internal/lend). A package-level
// variable that needs a lock or a once to be shared is such state; this
// test finds every one in the analyzer packages (the SSA program pool and
// the source-line cache were two). Tables filled at init and only read are
// fine and are not flagged.
func TestNoProcessWideState(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		syncNames := map[string]bool{}
		for _, imp := range f.Imports {
			switch p := strings.Trim(imp.Path.Value, `"`); p {
			case "sync", "sync/atomic":
				name := filepath.Base(p)
				if imp.Name != nil {
					name = imp.Name.Name
				}
				syncNames[name] = true
			}
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			ast.Inspect(gd, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok {
					if id, ok := sel.X.(*ast.Ident); ok && syncNames[id.Name] {
						t.Errorf("%s: package-level %s.%s: state shared between packages belongs to the driver (internal/lend)",
							fset.Position(sel.Pos()), id.Name, sel.Sel.Name)
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
}
