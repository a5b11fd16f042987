package driver_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/internal/driver"
	"github.com/ctrllint/ctrllint/internal/finding"
	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

func analyze(t *testing.T, dir string, cfg driver.Config) (*driver.Result, error) {
	t.Helper()
	cfg.Dir = dir
	if cfg.Patterns == nil {
		cfg.Patterns = []string{"./..."}
	}
	if cfg.Analyzers == nil {
		cfg.Analyzers = []*analysis.Analyzer{testanalyzers.BadCall}
	}
	return driver.Analyze(context.Background(), &cfg)
}

// lines renders findings as "relfile:line:col-endline:endcol: msg (analyzer)".
func lines(dir string, fs []finding.Finding) []string {
	var out []string
	for _, f := range fs {
		rel, _ := filepath.Rel(dir, f.Pos.File)
		out = append(out, fmt.Sprintf("%s:%d:%d-%d:%d: %s (%s)", filepath.ToSlash(rel), f.Pos.Line, f.Pos.Column, f.End.Line, f.End.Column, f.Message, f.Analyzer))
	}
	return out
}

const badGo = `package m

func bad()  {}
func good() {}

func F() {
	bad()
	if true { bad() }
}
`

func TestAnalyzeFindings(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{
		"a.go":      badGo,
		"a_test.go": "package m\n\nfunc helper() { bad() }\n",
		"x_test.go": "package m_test\n\nfunc bad() {}\n\nfunc X() { bad() }\n",
		"z/z.go":    "package z\n\nfunc bad() {}\n\nfunc Z() { bad() }\n",
	})
	res, err := analyze(t, dir, driver.Config{Tests: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"a.go:7:2-7:7: call of bad (badcall)",
		"a.go:8:12-8:17: call of bad (badcall)",
		"a_test.go:3:17-3:22: call of bad (badcall)",
		"x_test.go:5:12-5:17: call of bad (badcall)",
		"z/z.go:5:12-5:17: call of bad (badcall)",
	}
	if got := lines(dir, res.Findings); !slices.Equal(got, want) {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	f := res.Findings[0]
	if f.Category != "calls" || f.Pos.Offset != strings.Index(badGo, "bad()\n\tif") {
		t.Errorf("category/offset: %+v", f)
	}
	if len(f.Fixes) != 1 || len(f.Fixes[0].Edits) != 1 {
		t.Fatalf("fixes: %+v", f.Fixes)
	}
	e := f.Fixes[0].Edits[0]
	if e.NewText != "good" || e.End.Offset-e.Pos.Offset != 3 || e.Pos.File != filepath.Join(dir, "a.go") {
		t.Errorf("edit: %+v", e)
	}

	// Without tests, the _test.go findings go away.
	res, err = analyze(t, dir, driver.Config{Tests: false})
	if err != nil {
		t.Fatal(err)
	}
	want = []string{want[0], want[1], want[4]}
	if got := lines(dir, res.Findings); !slices.Equal(got, want) {
		t.Errorf("-test=false findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A file analysed in both p and its test variant, or named twice by the
// patterns, must be reported once.
func TestAnalyzeDedup(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{
		"a.go":      badGo,
		"a_test.go": "package m\n",
	})
	res, err := analyze(t, dir, driver.Config{Tests: true, Patterns: []string{".", "./...", "example.com/m"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 2 {
		t.Errorf("got %d findings, want 2:\n%s", len(res.Findings), strings.Join(lines(dir, res.Findings), "\n"))
	}
}

func TestAnalyzeTags(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{
		"a.go":   "package m\n\nfunc bad() {}\n",
		"tag.go": "//go:build special\n\npackage m\n\nfunc T() { bad() }\n",
	})
	res, err := analyze(t, dir, driver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 0 {
		t.Errorf("without tag: %v", lines(dir, res.Findings))
	}
	res, err = analyze(t, dir, driver.Config{Tags: []string{"special"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := lines(dir, res.Findings); !slices.Equal(got, []string{"tag.go:5:12-5:17: call of bad (badcall)"}) {
		t.Errorf("with tag: %v", got)
	}
}

func TestAnalyzerFailuresAreContained(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{
		"boom/boom.go": "package boom\n\nfunc bad() {}\n\nfunc B() { bad() }\n",
		"fail/fail.go": "package fail\n\nfunc bad() {}\n\nfunc F() { bad() }\n",
	})
	res, err := analyze(t, dir, driver.Config{Analyzers: []*analysis.Analyzer{testanalyzers.Panicky, testanalyzers.BadCall, testanalyzers.Failing}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"boom/boom.go:5:12-5:17: call of bad (badcall)",
		"fail/fail.go:5:12-5:17: call of bad (badcall)",
	}
	if got := lines(dir, res.Findings); !slices.Equal(got, want) {
		t.Errorf("findings of the healthy analyzer: %v, want %v", got, want)
	}
	if len(res.Errors) != 2 {
		t.Fatalf("errors: %v", res.Errors)
	}
	boom, fail := res.Errors[0], res.Errors[1]
	if boom.Analyzer != "panicky" || boom.Package != "example.com/m/boom" ||
		!strings.Contains(boom.Error(), "panic: assignment to entry in nil map") || !strings.Contains(boom.Stack, "testanalyzers") {
		t.Errorf("panic error: %v\nstack: %s", boom, boom.Stack)
	}
	// The position of the function the analyzer was working on (func B).
	if filepath.Base(boom.Pos.File) != "boom.go" || boom.Pos.Line != 5 || boom.Pos.Column != 1 ||
		!strings.Contains(boom.Error(), "failed on package example.com/m/boom at "+boom.Pos.String()+": panic:") {
		t.Errorf("panic position: %+v in %q, want boom.go:5:1", boom.Pos, boom.Error())
	}
	if fail.Analyzer != "failing" || fail.Package != "example.com/m/fail" || !strings.Contains(fail.Error(), "cannot cope") || fail.Stack != "" {
		t.Errorf("returned error: %v", fail)
	}
	for _, e := range res.Errors {
		if !strings.Contains(e.Error(), "internal error: analyzer "+e.Analyzer+" failed on package "+e.Package) {
			t.Errorf("message does not name analyzer and package: %v", e)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		name     string
		files    map[string]string
		patterns []string
		want     []string // substrings of the error, in order, with dir replaced by $DIR
		absent   []string // substrings the error must not have
	}{{
		name:     "type error",
		files:    map[string]string{"b/b.go": "package b\n\nfunc G() int { return \"x\" }\n"},
		patterns: []string{"./..."},
		want:     []string{`$DIR/b/b.go:3:23: cannot use "x" (untyped string constant) as int value in return statement`},
	}, {
		name:     "syntax error",
		files:    map[string]string{"b/b.go": "package b\n\nfunc G( {\n"},
		patterns: []string{"./..."},
		want:     []string{"$DIR/b/b.go:3:"},
	}, {
		// go build reports the syntax error alone; the type checker's
		// view of the patched tree is noise.
		name:     "syntax error and no type errors",
		files:    map[string]string{"b/b.go": "package b\n\nfunc G() {\n\ty := 2\n\tprintln(\n}\n"},
		patterns: []string{"./..."},
		want:     []string{"$DIR/b/b.go:6:1: expected operand"},
		absent:   []string{"declared and not used", "b.go:6:3", "b.go:7"},
	}, {
		name:     "missing module",
		files:    map[string]string{"a.go": "package m\n\nimport \"example.com/nope\"\n\nvar _ = nope.X\n"},
		patterns: []string{"./..."},
		want:     []string{"$DIR/a.go:3:8: no required module provides package example.com/nope"},
	}, {
		name: "broken dependency two levels down",
		files: map[string]string{
			"a.go":        "package m\n\nimport \"example.com/m/b\"\n\nvar _ = b.G\n",
			"b/b.go":      "package b\n\nimport \"example.com/m/b/c\"\n\nfunc G() int { return c.H() }\n",
			"b/c/c.go":    "package c\n\nfunc H() int { return \"x\" }\n",
			"b/c/c_ok.go": "package c\n",
		},
		patterns: []string{"."},
		want:     []string{`$DIR/b/c/c.go:3:23: cannot use "x"`},
	}, {
		name:     "pattern matching nothing",
		files:    map[string]string{"a.go": "package m\n", "empty/README": "x"},
		patterns: []string{"./empty/..."},
		want:     []string{"no packages matched ./empty/..."},
	}, {
		name:     "missing directory",
		files:    map[string]string{"a.go": "package m\n"},
		patterns: []string{"./nosuchdir"},
		want:     []string{"nosuchdir", "directory not found"},
	}, {
		name:     "no patterns",
		files:    map[string]string{"a.go": "package m\n"},
		patterns: []string{},
		want:     []string{"no packages given"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := testanalyzers.WriteModule(t, tc.files)
			res, err := analyze(t, dir, driver.Config{Patterns: tc.patterns, Tests: true})
			if err == nil {
				t.Fatalf("no error; findings %v", res.Findings)
			}
			msg := strings.ReplaceAll(err.Error(), dir, "$DIR")
			rest := msg
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("error %q\ndoes not contain %q", msg, w)
				}
				rest = rest[i+len(w):]
			}
			for _, a := range tc.absent {
				if strings.Contains(msg, a) {
					t.Errorf("error %q\ncontains %q", msg, a)
				}
			}
			var le *driver.LoadError
			if len(tc.patterns) > 0 && !errors.As(err, &le) {
				t.Errorf("error is %T, want *driver.LoadError", err)
			}
			if len(tc.patterns) == 0 && !errors.Is(err, driver.ErrNoPatterns) {
				t.Errorf("error is %v, want ErrNoPatterns", err)
			}
		})
	}
}

// One broken package must not hide the findings in the others.
func TestLoadErrorKeepsHealthyPackages(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{
		"a.go":   badGo,
		"b/b.go": "package b\n\nfunc G() int { return \"x\" }\n",
	})
	res, err := analyze(t, dir, driver.Config{})
	var le *driver.LoadError
	if !errors.As(err, &le) || len(le.Problems) != 1 || le.Problems[0].File != filepath.Join(dir, "b", "b.go") || le.Problems[0].Line != 3 {
		t.Fatalf("err = %#v", err)
	}
	if len(res.Findings) != 2 {
		t.Errorf("findings: %v", lines(dir, res.Findings))
	}
}

func BenchmarkLoadAndAnalyze(b *testing.B) {
	files := map[string]string{}
	for i := range 20 {
		files[fmt.Sprintf("p%d/p.go", i)] = fmt.Sprintf("package p%d\n\nimport (\n\t\"fmt\"\n\t\"net/http\"\n)\n\nfunc bad() {}\n\nfunc F(w http.ResponseWriter) {\n\tbad()\n\tfmt.Fprintln(w, %d)\n}\n", i, i)
	}
	dir := testanalyzers.WriteModule(b, files)
	cfg := &driver.Config{Dir: dir, Patterns: []string{"./..."}, Tests: true, Analyzers: []*analysis.Analyzer{testanalyzers.BadCall}}
	for b.Loop() {
		res, err := driver.Analyze(context.Background(), cfg)
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Findings) != 20 {
			b.Fatalf("%d findings", len(res.Findings))
		}
	}
}

// A cancelled run fails with the context's error, not as packages that
// did not load (the front end tells them apart to exit as a signal
// asks), and stores nothing in the cache, whether or not it was used.
func TestAnalyzeCancelled(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{"a.go": badGo})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cache := t.TempDir()
	for _, tc := range []struct {
		name  string
		cache string
	}{{"no cache", ""}, {"new cache", cache}} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := &driver.Config{Dir: dir, Patterns: []string{"./..."}, Analyzers: []*analysis.Analyzer{testanalyzers.BadCall}, CacheDir: tc.cache}
			res, err := driver.Analyze(ctx, cfg)
			var le *driver.LoadError
			if !errors.Is(err, context.Canceled) || errors.As(err, &le) {
				t.Errorf("error %v (%T), want context.Canceled", err, err)
			}
			if res != nil && len(res.Findings) > 0 {
				t.Errorf("findings from a cancelled run: %v", lines(dir, res.Findings))
			}
		})
	}
	// A used cache: the listing for its keys fails as cancelled, and
	// nothing falls back to listing again.
	cfg := &driver.Config{Dir: dir, Patterns: []string{"./..."}, Analyzers: []*analysis.Analyzer{testanalyzers.BadCall}, CacheDir: cache}
	if _, err := driver.Analyze(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte(badGo+"\nfunc G() { bad() }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := driver.Analyze(ctx, cfg)
	var le *driver.LoadError
	if !errors.Is(err, context.Canceled) || errors.As(err, &le) {
		t.Errorf("used cache: error %v (%T), want context.Canceled", err, err)
	}
	res, err := driver.Analyze(context.Background(), cfg)
	if err != nil || len(res.Findings) != 3 {
		t.Errorf("after the cancelled run: %v %v", err, lines(dir, res.Findings))
	}
}
