package driver_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/internal/driver"
	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

// Roots that only roots import are type-checked once, from source, and
// their importers see those types (load/split.go); roots that other
// packages depend on keep their export data. Either way the findings are
// Load+Run's, on every root, external tests included.
func TestStreamingSourceRootsMatchLoad(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{
		"b/b.go":      "package b\n\nfunc bad() {}\n\ntype T struct{}\n\nfunc New() T { bad(); return T{} }\n",
		"b/b_test.go": "package b\n\nfunc init() { bad() }\n",
		"b/x_test.go": "package b_test\n\nimport \"example.com/m/b\"\n\nfunc bad() {}\n\nvar _ b.T = b.New()\n\nfunc init() { bad() }\n",
		"c/c.go":      "package c\n\nimport \"example.com/m/d\"\n\nfunc bad() {}\n\nvar X d.T = d.New()\n\nfunc init() { bad() }\n",
		"d/d.go":      "package d\n\nfunc bad() {}\n\ntype T struct{}\n\nfunc New() T { bad(); return T{} }\n",
		"d/d_test.go": "package d\n\nfunc init() { bad() }\n",
		"d/x_test.go": "package d_test\n\nimport (\n\t\"example.com/m/c\"\n\t\"example.com/m/d\"\n)\n\nfunc bad() {}\n\nvar _ d.T = c.X\n\nfunc init() { bad() }\n",
		"e/e.go":      "package e\n\nimport \"example.com/m/c\"\n\nfunc bad() {}\n\nvar _ = c.X\n\nfunc init() { bad() }\n",
		// f's external test neither calls nor holds anything of f
		// (internal/edges): with an analyzer using facts, f is no unit it
		// reads facts of, yet it must wait for f's type-check, whose types
		// it imports. (std's hash/maphash_test, on a re-run.)
		"f/f.go":      "package f\n\nfunc bad() {}\n\nconst Answer = 42\n\nfunc M() { bad() }\n",
		"f/f_test.go": "package f\n\nfunc init() { bad() }\n",
		"f/x_test.go": "package f_test\n\nimport \"example.com/m/f\"\n\nfunc bad() {}\n\nfunc init() { _ = f.Answer; bad() }\n",
	})
	for _, tests := range []bool{false, true} {
		cfg := &driver.Config{Dir: dir, Patterns: []string{"./..."}, Tests: tests, Analyzers: []*analysis.Analyzer{testanalyzers.BadCall, testanalyzers.CallsBad}}
		want, werr := loadAndRun(t, cfg)
		if werr != nil {
			t.Fatalf("tests=%v: Load: %v", tests, werr)
		}
		got, err := driver.AnalyzeSourceRoots(context.Background(), cfg)
		if err != nil {
			t.Fatalf("tests=%v: Analyze: %v", tests, err)
		}
		// callsbad only makes the run plan summary units: which facts it
		// sees differs by design (Load+Run sees every import's).
		g, w := badcalls(lines(dir, got.Findings)), badcalls(lines(dir, want.Findings))
		if !slices.Equal(g, w) {
			t.Errorf("tests=%v: Analyze found\n%v\nLoad+Run\n%v", tests, g, w)
		}
		n := 5     // badcall's in each of b, c, d, e and f
		if tests { // and in b_test.go, d_test.go, f_test.go and the three external tests
			n = 11
		}
		if len(g) != n {
			t.Errorf("tests=%v: %d findings, want %d: %v", tests, len(g), n, g)
		}
	}
}

func badcalls(lines []string) []string {
	return slices.DeleteFunc(lines, func(l string) bool { return !strings.HasSuffix(l, "(badcall)") })
}

// A re-run after an edit lists the edited roots without export data and
// type-checks their importers against their source: every re-run must
// still find exactly what a run without the cache finds, and take from
// the cache only what no edit touched.
func TestResultCacheExactAfterEdits(t *testing.T) {
	const libGo = "package lib\n\nfunc L() {}\n"
	dir := testanalyzers.WriteModule(t, map[string]string{
		"lib/lib.go":    libGo,
		"lib/x_test.go": "package lib_test\n\nimport \"example.com/m/lib\"\n\nfunc bad() {}\n\nfunc init() { bad(); lib.L() }\n",
		"a/a.go":        "package a\n\nimport \"example.com/m/lib\"\n\nfunc bad() {}\n\nfunc A() { bad(); lib.L() }\n",
		"b/b.go":        "package b\n\nfunc bad() {}\n\nfunc B() { bad() }\n",
	})
	a, analysed := counting()
	cached := driver.Config{Dir: dir, Patterns: []string{"./..."}, Tests: true, Analyzers: []*analysis.Analyzer{a}, CacheDir: t.TempDir()}
	fresh := cached
	fresh.CacheDir = ""
	result := func(cfg *driver.Config) (found []string, err string) {
		t.Helper()
		res, e := driver.Analyze(context.Background(), cfg)
		if e != nil {
			err = strings.ReplaceAll(e.Error(), dir, "$DIR")
		}
		return lines(dir, res.Findings), err
	}
	const (
		lib  = "example.com/m/lib"
		libX = "example.com/m/lib_test"
		pkgA = "example.com/m/a"
		pkgB = "example.com/m/b"
	)
	for _, step := range []struct {
		name     string
		lib      string   // lib.go's content
		analysed []string // by the cached run
		broken   bool
	}{
		{"first run", libGo, []string{pkgA, pkgB, lib, libX}, false},
		{"unchanged", libGo, nil, false},
		{"a finding in lib", "package lib\n\nfunc bad() {}\n\nfunc L() { bad() }\n", []string{pkgA, lib, libX}, false},
		// a and lib's test no longer type-check, and are not analysed.
		{"lib.L removed", "package lib\n\nfunc M() {}\n", []string{lib}, true},
		// The content of the first run: its results, all of them.
		{"lib restored", libGo, nil, false},
		{"two findings in lib", "package lib\n\nfunc bad() {}\n\nfunc L() { bad(); bad() }\n", []string{pkgA, lib, libX}, false},
	} {
		write(t, dir, "lib/lib.go", step.lib)
		got, gerr := result(&cached)
		if g := analysed(); !slices.Equal(g, step.analysed) {
			t.Errorf("%s: the cached run analysed %v, want %v", step.name, g, step.analysed)
		}
		want, werr := result(&fresh)
		analysed()
		if !slices.Equal(got, want) || gerr != werr {
			t.Errorf("%s: with the cache\n%v\n%s\nwithout\n%v\n%s", step.name, got, gerr, want, werr)
		}
		if (werr != "") != step.broken {
			t.Errorf("%s: error %q", step.name, werr)
		}
	}
}

// A first run on a machine that never built the dependencies type-checks
// them from source, in dependency order, each before its importers, and
// finds what Load+Run finds; a dependency that does not type-check is
// reported as the go command's build of it would be.
func TestStreamingUnbuiltDependencies(t *testing.T) {
	unique := fmt.Sprintf("%s %d", t.Name(), time.Now().UnixNano())
	files := map[string]string{
		"go.mod":             "module example.com/m\n\ngo 1.22\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ./dep\n",
		"dep/go.mod":         "module example.com/dep\n\ngo 1.22\n",
		"dep/lower/lower.go": fmt.Sprintf("package lower\n\nconst Unique = %q\n\ntype T struct{ N int }\n\nfunc (T) M() {}\n", unique),
		"dep/upper/upper.go": "package upper\n\nimport \"example.com/dep/lower\"\n\nfunc New() lower.T { return lower.T{N: len(lower.Unique)} }\n",
		"a/a.go":             "package a\n\nimport \"example.com/dep/upper\"\n\nfunc bad() {}\n\nfunc A() { upper.New().M(); bad() }\n",
		"a/a_test.go":        "package a\n\nimport \"example.com/dep/lower\"\n\nfunc init() { var t lower.T; t.M(); bad() }\n",
		"b/b.go":             "package b\n\nimport \"example.com/m/a\"\n\nfunc bad() {}\n\nfunc B() { a.A(); bad() }\n",
	}
	dir := testanalyzers.WriteModule(t, files)
	for _, tests := range []bool{false, true} {
		cfg := &driver.Config{Dir: dir, Patterns: []string{"./..."}, Tests: tests, Analyzers: []*analysis.Analyzer{testanalyzers.BadCall, testanalyzers.CallsBad}}
		got, err := driver.AnalyzeUnbuilt(context.Background(), cfg)
		if err != nil {
			t.Fatalf("tests=%v: Analyze: %v", tests, err)
		}
		want, err := loadAndRun(t, cfg)
		if err != nil {
			t.Fatalf("tests=%v: Load: %v", tests, err)
		}
		g, w := badcalls(lines(dir, got.Findings)), badcalls(lines(dir, want.Findings))
		if !slices.Equal(g, w) || len(g) != 2+btoi(tests) {
			t.Errorf("tests=%v: Analyze found\n%v\nLoad+Run\n%v", tests, g, w)
		}
	}

	// lower no longer type-checks: the run fails and says where.
	write(t, dir, "dep/lower/lower.go", fmt.Sprintf("package lower\n\nconst Unique = %q\n\ntype T struct{ N int }\n\nfunc (T) M() { return 1 }\n", unique))
	cfg := &driver.Config{Dir: dir, Patterns: []string{"./..."}, Analyzers: []*analysis.Analyzer{testanalyzers.BadCall}}
	_, err := driver.AnalyzeUnbuilt(context.Background(), cfg)
	if err == nil || !strings.Contains(err.Error(), "lower.go:7:23") || !strings.Contains(err.Error(), "too many return values") {
		t.Errorf("a dependency that does not type-check: error %v", err)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
