package load

import (
	"context"
	"fmt"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

// recheckModule is a package edited in an editor: p, with an in-package
// and an external test, over a dependency of the module.
var recheckModule = map[string]string{
	"dep/dep.go":  "package dep\n\ntype T struct{ A int }\n\nfunc New() T { return T{} }\n",
	"p/p.go":      "package p\n\nimport \"example.com/m/dep\"\n\nfunc F() dep.T { return dep.New() }\n",
	"p/p_test.go": "package p\n\nvar _ = F()\n",
	"p/x_test.go": "package p_test\n\nimport \"example.com/m/p\"\n\nvar _ = p.F()\n",
}

// aged writes the module and dates its files an hour back, as files a
// user edited before the load are.
func aged(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := testanalyzers.WriteModule(t, files)
	testanalyzers.Age(t, dir)
	return dir
}

// describe is what a package's types say: every object of its scope.
func describe(pkgs []*packages.Package) []string {
	var out []string
	for _, p := range pkgs {
		scope := p.Types.Scope()
		for _, name := range scope.Names() {
			out = append(out, p.ID+": "+types.ObjectString(scope.Lookup(name), nil))
		}
		var imps []string
		for _, imp := range p.Types.Imports() {
			imps = append(imps, imp.Path())
		}
		slices.Sort(imps)
		out = append(out, p.ID+" imports "+strings.Join(imps, ","))
	}
	slices.Sort(out)
	return out
}

func TestRecheckIsALoad(t *testing.T) {
	for _, tests := range []bool{false, true} {
		dir := aged(t, recheckModule)
		opts := &Options{Dir: dir, Patterns: []string{"./p"}, Tests: tests}
		prev, err := Packages(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, "p", "p.go")
		edits := []string{
			// A body and a new declaration; the test's F()
			// sees the new result type.
			"package p\n\nimport \"example.com/m/dep\"\n\nfunc F() *dep.T { t := dep.New(); t.A++; return &t }\n\nfunc G() int { return 1 }\n",
			// Back again, over the first recheck's packages.
			recheckModule["p/p.go"],
		}
		for i, text := range edits {
			overlay := map[string][]byte{file: []byte(text)}
			got, err, ok := Recheck(prev, overlay, dir)
			if err != nil {
				t.Fatalf("tests=%v, edit %d: %v", tests, i, err)
			}
			if !ok {
				t.Fatalf("tests=%v, edit %d: Recheck refused", tests, i)
			}
			loaded, err := Packages(context.Background(), &Options{Dir: dir, Patterns: opts.Patterns, Tests: tests, Overlay: overlay})
			if err != nil {
				t.Fatal(err)
			}
			if g, w := describe(got), describe(loaded); !slices.Equal(g, w) {
				t.Errorf("tests=%v, edit %d: rechecked\n%s\nloaded\n%s", tests, i, strings.Join(g, "\n"), strings.Join(w, "\n"))
			}
			for _, p := range got {
				if p.Fset != prev[0].Fset || len(p.Syntax) != len(p.CompiledGoFiles) || p.TypesInfo == nil || len(p.Errors) > 0 {
					t.Errorf("tests=%v, edit %d: %s: incomplete (%d files, errors %v)", tests, i, p.ID, len(p.Syntax), p.Errors)
				}
			}
			prev = got
		}
	}
}

func TestRecheckRefuses(t *testing.T) {
	dir := aged(t, recheckModule)
	opts := &Options{Dir: dir, Patterns: []string{"./p"}, Tests: true}
	prev, err := Packages(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "p", "p.go")
	for name, text := range map[string]string{
		"an import added":    "package p\n\nimport (\n\t\"fmt\"\n\t\"example.com/m/dep\"\n)\n\nfunc F() dep.T { fmt.Println(); return dep.New() }\n",
		"an import renamed":  "package p\n\nimport d \"example.com/m/dep\"\n\nfunc F() d.T { return d.New() }\n",
		"a build constraint": "//go:build linux\n\npackage p\n\nimport \"example.com/m/dep\"\n\nfunc F() dep.T { return dep.New() }\n",
		"the package clause": "package q\n\nimport \"example.com/m/dep\"\n\nfunc F() dep.T { return dep.New() }\n",
	} {
		if _, _, ok := Recheck(prev, map[string][]byte{file: []byte(text)}, dir); ok {
			t.Errorf("%s: rechecked, want a load", name)
		}
	}
	// Errors in the text: the packages that type-check, and an error
	// at the place a load reports.
	for name, tc := range map[string]struct {
		text, test string
		good       []string
	}{
		"a type error":               {text: "package p\n\nimport \"example.com/m/dep\"\n\nfunc F() dep.T { return 1 }\n"},
		"a syntax error":             {text: "package p\n\nimport \"example.com/m/dep\"\n\nfunc F() dep.T { return dep.New( }\n"},
		"the test's p.F() now fails": {text: "package p\n\nimport \"example.com/m/dep\"\n\nfunc F(int) dep.T { return dep.New() }\n", test: "package p\n\nvar _ = F(1)\n", good: []string{"example.com/m/p [example.com/m/p.test]"}},
		"the test's F() now fails":   {text: "package p\n\nimport \"example.com/m/dep\"\n\nfunc F(int) dep.T { return dep.New() }\n"},
	} {
		overlay := map[string][]byte{file: []byte(tc.text)}
		if tc.test != "" {
			overlay[filepath.Join(dir, "p", "p_test.go")] = []byte(tc.test)
		}
		got, err, ok := Recheck(prev, overlay, dir)
		if !ok {
			t.Errorf("%s: refused, want the errors", name)
			continue
		}
		var ids []string
		for _, p := range got {
			ids = append(ids, p.ID)
		}
		if !slices.Equal(ids, tc.good) {
			t.Errorf("%s: packages %q, want %q", name, ids, tc.good)
		}
		loaded, lerr := Packages(context.Background(), &Options{Dir: dir, Patterns: opts.Patterns, Tests: true, Overlay: overlay})
		var ids2 []string
		for _, p := range loaded {
			ids2 = append(ids2, p.ID)
		}
		if !slices.Equal(ids, ids2) {
			t.Errorf("%s: rechecked %q, loaded %q", name, ids, ids2)
		}
		if err == nil || lerr == nil {
			t.Errorf("%s: errors %v, loaded %v", name, err, lerr)
			continue
		}
		// The load may say more (the go command's compile of the
		// overlay, a test type-checked over a broken package), but not
		// of another place.
		at := func(e error) []string {
			var out []string
			for _, p := range e.(*Error).Problems {
				if p.File != "" {
					out = append(out, fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Column))
				}
			}
			slices.Sort(out)
			return slices.Compact(out)
		}
		if g, l := at(err), at(lerr); len(g) == 0 || slices.ContainsFunc(g, func(pos string) bool { return !slices.Contains(l, pos) }) {
			t.Errorf("%s: errors at %q, a load's at %q\n%v\n%v", name, g, l, err, lerr)
		}
	}
	if _, _, ok := Recheck(prev, nil, dir); !ok {
		t.Errorf("the text as loaded: refused")
	}

	// A package recompiled against the test variant (c [d.test]) has
	// export data of the old d: only the go command can compile it again.
	dir = aged(t, splitModule)
	prev, err = Packages(context.Background(), &Options{Dir: dir, Patterns: []string{"./d"}, Tests: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok := Recheck(prev, nil, dir); ok {
		t.Errorf("d's external test imports c [d.test]: rechecked, want a load")
	}
}

func TestStamps(t *testing.T) {
	ctx := context.Background()
	for name, change := range map[string]func(dir string) error{
		"a dependency's file edited": func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "dep", "dep.go"), []byte(recheckModule["dep/dep.go"]+"\nconst C = 1\n"), 0o644)
		},
		"a file added to a dependency": func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "dep", "more.go"), []byte("package dep\n"), 0o644)
		},
		"a file added to the package": func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "p", "more.go"), []byte("package p\n"), 0o644)
		},
		"a file removed from the package": func(dir string) error {
			return os.Remove(filepath.Join(dir, "p", "p_test.go"))
		},
		"a go.work created": func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "go.work"), []byte("go 1.22\n\nuse .\n"), 0o644)
		},
		"a go.sum written": func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "go.sum"), nil, 0o644)
		},
		"go.mod edited": func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n\ngo 1.23\n"), 0o644)
		},
	} {
		dir := aged(t, recheckModule)
		// GOWORK unset, as in an editor: a go.work above is looked for.
		opts := &Options{Dir: dir, Patterns: []string{"./p"}, Tests: true, Env: append(os.Environ(), "GOWORK=")}
		start := time.Now()
		prev, err := Packages(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Stamp(ctx, opts, prev, start)
		if err != nil || s == nil {
			t.Fatalf("%s: Stamp: %v, %v", name, s, err)
		}
		if len(s.files) == 0 {
			t.Fatalf("%s: nothing stamped", name)
		}
		if !s.Unchanged(nil) {
			t.Fatalf("%s: changed before the change", name)
		}
		// The package's own files are Recheck's to read.
		if err := os.WriteFile(filepath.Join(dir, "p", "p.go"), []byte(recheckModule["p/p.go"]+"\n// saved\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if !s.Unchanged(nil) {
			t.Errorf("%s: a save of the package's own file counts as a change", name)
		}
		if err := change(dir); err != nil {
			t.Fatal(err)
		}
		if s.Unchanged(nil) {
			t.Errorf("%s: not seen", name)
		}
	}

	// The editor's unsaved text of a dependency is part of what was
	// loaded; the package's own is Recheck's.
	{
		dir := aged(t, recheckModule)
		depFile := filepath.Join(dir, "dep", "dep.go")
		unsaved := map[string][]byte{depFile: []byte("package dep\n\ntype T struct{ A, B int }\n\nfunc New() T { return T{} }\n")}
		opts := &Options{Dir: dir, Patterns: []string{"./p"}, Overlay: unsaved}
		start := time.Now()
		prev, err := Packages(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Stamp(ctx, opts, prev, start)
		if err != nil || s == nil {
			t.Fatalf("Stamp with an overlay: %v, %v", s, err)
		}
		own := map[string][]byte{filepath.Join(dir, "p", "p.go"): []byte(recheckModule["p/p.go"] + "\n// typed\n")}
		for name, tc := range map[string]struct {
			overlay map[string][]byte
			want    bool
		}{
			"the same unsaved text":              {unsaved, true},
			"the package's own text besides":     {map[string][]byte{depFile: unsaved[depFile], filepath.Join(dir, "p", "p.go"): own[filepath.Join(dir, "p", "p.go")]}, true},
			"the dependency's unsaved text gone": {own, false},
			"the dependency edited further":      {map[string][]byte{depFile: []byte("package dep\n")}, false},
		} {
			if got := s.Unchanged(tc.overlay); got != tc.want {
				t.Errorf("%s: unchanged %v, want %v", name, got, tc.want)
			}
		}
		if !s.DependsOn(filepath.Join(dir, "dep")) || s.DependsOn(filepath.Join(dir, "p")) {
			t.Errorf("DependsOn: dep %v, p %v; want true, false", s.DependsOn(filepath.Join(dir, "dep")), s.DependsOn(filepath.Join(dir, "p")))
		}
	}

	// A file written as the load started may have been read half
	// written: no stamps.
	dir := aged(t, recheckModule)
	opts := &Options{Dir: dir, Patterns: []string{"./p"}}
	if err := os.WriteFile(filepath.Join(dir, "dep", "dep.go"), []byte(recheckModule["dep/dep.go"]), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	prev, err := Packages(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if s, err := Stamp(ctx, opts, prev, start); err != nil || s != nil {
		t.Errorf("a dependency written as the load started: stamps %v, %v; want none", s, err)
	}
}
