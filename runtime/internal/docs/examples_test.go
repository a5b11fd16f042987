package docs_test

import (
	"encoding/json"
	"go/doc"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryPackageHasExample: each package of the runtime a controller
// imports has an Example function that go test runs and checks (one with
// an // Output: comment), so its godoc shows working code. Commands (the
// example program, test helpers) and internal packages are not imported.
func TestEveryPackageHasExample(t *testing.T) {
	runtimeDir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	out := gocmd(t, runtimeDir, nil, "list", "-json=ImportPath,Name,Dir,TestGoFiles,XTestGoFiles", "./...")
	checked := 0
	for dec := json.NewDecoder(strings.NewReader(out)); dec.More(); {
		var p struct {
			ImportPath, Name, Dir     string
			TestGoFiles, XTestGoFiles []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatalf("go list -json: %v", err)
		}
		if p.Name == "main" || strings.Contains(p.ImportPath+"/", "/internal/") {
			continue
		}
		checked++
		runnable := 0
		fset := token.NewFileSet()
		for _, name := range append(p.TestGoFiles, p.XTestGoFiles...) {
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			for _, ex := range doc.Examples(f) {
				if ex.Output != "" || ex.EmptyOutput {
					runnable++
				}
			}
		}
		if runnable == 0 {
			t.Errorf("%s has no runnable example: an Example function with an // Output: comment in a _test.go file", p.ImportPath)
		}
	}
	// eventhandler, workloop, readmodifywrite, ownership at least: fewer
	// means go list's output was not read right.
	if checked < 4 {
		t.Fatalf("checked %d packages of %s, want at least 4:\n%s", checked, runtimeDir, out)
	}
}
