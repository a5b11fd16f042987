package analyzers_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// CONTRIBUTING.md's "Adding an analyzer" names every test a new analyzer
// meets, so that a contributor learns what each demands before the test
// fails, not from it. A test meets every analyzer when it takes them all
// (analyzers.All, New or Select) or reads the analyzers' directory, itself
// or through any function of its package (cmd/ctrllint's defaultSuite);
// each such Test, Benchmark or Fuzz function of the module must be named
// in CONTRIBUTING.md, in backquotes.
func TestContributingNamesEveryTest(t *testing.T) {
	_, section, ok := strings.Cut(readFile(t, filepath.Join("..", "CONTRIBUTING.md")), "\n## Adding an analyzer\n")
	if !ok {
		t.Fatal(`CONTRIBUTING.md has no section "## Adding an analyzer"`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	tests := allAnalyzerTests(t, "..")
	if len(tests) == 0 {
		t.Fatal("no test meets every analyzer: the test reads nothing")
	}
	for _, name := range tests {
		if !strings.Contains(section, "`"+name.fn+"`") {
			t.Errorf("%s: %s meets every analyzer, but CONTRIBUTING.md's \"Adding an analyzer\" does not name it: say what it demands of a new one", name.dir, name.fn)
		}
	}
}

// analyzerTest is a test that meets every analyzer: its function's name
// and the directory of its package, relative to the module's root.
type analyzerTest struct{ dir, fn string }

// allAnalyzerTests are the tests of the module at root that meet every
// analyzer. Other modules (their own go.mod) cannot import the analyzers.
func allAnalyzerTests(t *testing.T, root string) []analyzerTest {
	byDir := map[string][]*ast.File{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || exists(filepath.Join(path, "go.mod"))) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		dir, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		byDir[filepath.ToSlash(dir)] = append(byDir[filepath.ToSlash(dir)], f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []analyzerTest
	for dir, files := range byDir {
		for _, fn := range testsMeetingAll(fset, dir, files) {
			out = append(out, analyzerTest{dir, fn})
		}
	}
	slices.SortFunc(out, func(a, b analyzerTest) int { return strings.Compare(a.dir+" "+a.fn, b.dir+" "+b.fn) })
	return out
}

// testsMeetingAll are the Test, Benchmark and Fuzz functions of the test
// files of one directory that take every analyzer or read the analyzers'
// directory, directly or through functions of the directory's files (the
// package, its tests and its external tests, which may share helpers). A
// callee is known by name alone: another function or method of the same
// name counts too, which errs on the side of naming a test.
func testsMeetingAll(fset *token.FileSet, dir string, files []*ast.File) []string {
	direct := map[string]bool{}
	calls := map[string][]string{}
	var tests []string
	for _, f := range files {
		all := allCall(f)
		isTest := strings.HasSuffix(fset.File(f.Package).Name(), "_test.go")
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			name := fn.Name.Name
			if isTest && fn.Recv == nil && isTestFunc(name) {
				tests = append(tests, name)
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CallExpr:
					if all(n) || readsAnalyzersDir(dir, n) {
						direct[name] = true
					}
				case *ast.Ident:
					calls[name] = append(calls[name], n.Name)
				}
				return true
			})
		}
	}
	// Propagate through callers until nothing changes: helpers call helpers.
	for changed := true; changed; {
		changed = false
		for caller, callees := range calls {
			if direct[caller] {
				continue
			}
			if slices.ContainsFunc(callees, func(c string) bool { return direct[c] }) {
				direct[caller] = true
				changed = true
			}
		}
	}
	var out []string
	for _, name := range tests {
		if direct[name] {
			out = append(out, name)
		}
	}
	return out
}

func isTestFunc(name string) bool {
	for _, prefix := range []string{"Test", "Benchmark", "Fuzz"} {
		if rest, ok := strings.CutPrefix(name, prefix); ok && (rest == "" || !isLower(rest[0])) && name != "TestMain" {
			return true
		}
	}
	return false
}

func isLower(b byte) bool { return 'a' <= b && b <= 'z' }

// allAnalyzers are the functions of the analyzers package that return
// every analyzer.
var allAnalyzers = []string{"All", "New", "Select"}

// allCall is what tells a call of allAnalyzers in f: through the name f
// imports the analyzers under, or, in the package itself, by name.
func allCall(f *ast.File) func(*ast.CallExpr) bool {
	if f.Name.Name == "analyzers" {
		return func(call *ast.CallExpr) bool {
			id, ok := call.Fun.(*ast.Ident)
			return ok && slices.Contains(allAnalyzers, id.Name)
		}
	}
	const path = "github.com/ctrllint/ctrllint/analyzers"
	local := ""
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == path {
			local = "analyzers"
			if imp.Name != nil {
				local = imp.Name.Name
			}
		}
	}
	return func(call *ast.CallExpr) bool {
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || !slices.Contains(allAnalyzers, sel.Sel.Name) {
			return false
		}
		x, ok := sel.X.(*ast.Ident)
		return ok && local != "" && x.Name == local
	}
}

// readsAnalyzersDir reports whether call lists or walks the analyzers'
// directory: a directory-reading function of the standard library (or
// go/packages' Load) given a path or pattern that names "analyzers", or,
// from a file in that directory, ".".
func readsAnalyzersDir(dir string, call *ast.CallExpr) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	if !ok {
		return false
	}
	var paths []ast.Expr // the arguments that name what is read
	switch pkg.Name + "." + sel.Sel.Name {
	case "os.ReadDir", "filepath.WalkDir", "filepath.Walk", "filepath.Glob":
		paths = call.Args[:1]
	case "fs.WalkDir", "fs.ReadDir", "fs.Glob", "packages.Load":
		paths = call.Args[1:]
	default:
		return false
	}
	named := false
	for _, arg := range paths {
		ast.Inspect(arg, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, _ := strconv.Unquote(lit.Value)
			if slices.Contains(strings.Split(filepath.ToSlash(s), "/"), "analyzers") ||
				(dir == "analyzers" && (s == "." || s == "./...")) {
				named = true
			}
			return true
		})
	}
	return named
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// The finder of TestContributingNamesEveryTest on tests of each kind it
// must find, and of none it must not: a finder that found nothing would
// let every new test through.
func TestTestsMeetingAll(t *testing.T) {
	const src = `package p_test

import (
	"os"
	"path/filepath"
	"testing"

	an "github.com/ctrllint/ctrllint/analyzers"
)

func TestDirect(t *testing.T)    { _ = an.All() }
func TestNew(t *testing.T)       { _ = an.New() }
func TestHelper(t *testing.T)    { _ = names() }
func TestTwoDeep(t *testing.T)   { count() }
func TestReadsDir(t *testing.T)  { os.ReadDir(filepath.Join("..", "analyzers")) }
func BenchmarkAll(b *testing.B)  { _ = an.All() }
func TestOther(t *testing.T)     { _ = other() }
func TestWalkOther(t *testing.T) { filepath.WalkDir("..", func(string, os.DirEntry, error) error { return nil }) }
func Testing(t *testing.T)       { _ = an.All() } // not a test: lowercase after Test

func names() []*int { _ = an.All(); return nil }
func count()        { _ = names() }
func other() int    { return 0 }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p_test.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	got := testsMeetingAll(fset, "p", []*ast.File{f})
	want := []string{"TestDirect", "TestNew", "TestHelper", "TestTwoDeep", "TestReadsDir", "BenchmarkAll"}
	if !slices.Equal(got, want) {
		t.Errorf("testsMeetingAll = %v, want %v", got, want)
	}
}
