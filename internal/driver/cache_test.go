package driver_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/internal/driver"
	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

// counting wraps BadCall and records which packages it analysed.
func counting() (*analysis.Analyzer, func() []string) {
	var mu sync.Mutex
	var seen []string
	a := *testanalyzers.BadCall
	a.Run = func(pass *analysis.Pass) (any, error) {
		mu.Lock()
		seen = append(seen, pass.Pkg.Path())
		mu.Unlock()
		return testanalyzers.BadCall.Run(pass)
	}
	return &a, func() []string {
		mu.Lock()
		defer mu.Unlock()
		out := slices.Sorted(slices.Values(seen))
		seen = nil
		return out
	}
}

func TestResultCache(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{
		"a/a.go":     "package a\n\nimport \"example.com/m/lib\"\n\nfunc bad() {}\n\nfunc A() { bad(); lib.L() }\n",
		"b/b.go":     "package b\n\nfunc bad() {}\n\nfunc B() { bad() }\n",
		"lib/lib.go": "package lib\n\nfunc L() {}\n",
	})
	a, analysed := counting()
	cfg := driver.Config{Analyzers: []*analysis.Analyzer{a}, CacheDir: t.TempDir()}
	run := func() []string {
		t.Helper()
		res, err := analyze(t, dir, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return lines(dir, res.Findings)
	}
	want := []string{"a/a.go:7:12-7:17: call of bad (badcall)", "b/b.go:5:12-5:17: call of bad (badcall)"}

	if got := run(); !slices.Equal(got, want) {
		t.Fatalf("first run: %v, want %v", got, want)
	}
	if got := analysed(); !slices.Equal(got, []string{"example.com/m/a", "example.com/m/b", "example.com/m/lib"}) {
		t.Fatalf("first run analysed %v", got)
	}

	// Nothing changed: the findings come from the cache.
	if got := run(); !slices.Equal(got, want) {
		t.Errorf("cached run: %v, want %v", got, want)
	}
	if got := analysed(); len(got) != 0 {
		t.Errorf("cached run analysed %v, want nothing", got)
	}

	// A changed file: only its package is analysed again.
	write(t, dir, "b/b.go", "package b\n\nfunc bad() {}\n\nfunc B() {\n\tbad()\n}\n")
	want[1] = "b/b.go:6:2-6:7: call of bad (badcall)"
	if got := run(); !slices.Equal(got, want) {
		t.Errorf("after editing b: %v, want %v", got, want)
	}
	if got := analysed(); !slices.Equal(got, []string{"example.com/m/b"}) {
		t.Errorf("after editing b, analysed %v, want only b", got)
	}

	// A changed dependency: its importers are analysed again.
	write(t, dir, "lib/lib.go", "package lib\n\nfunc L() {}\n\nfunc M() {}\n")
	run()
	if got := analysed(); !slices.Equal(got, []string{"example.com/m/a", "example.com/m/lib"}) {
		t.Errorf("after editing lib, analysed %v, want a and lib", got)
	}

	// Another analyzer configuration is another cache entry.
	other, analysedOther := counting()
	other.Name = "badcall2"
	cfg2 := cfg
	cfg2.Analyzers = []*analysis.Analyzer{other}
	if _, err := analyze(t, dir, cfg2); err != nil {
		t.Fatal(err)
	}
	if got := analysedOther(); len(got) != 3 {
		t.Errorf("another analyzer reused the cache: analysed %v", got)
	}
}

// A package that does not type-check is never cached: its error is
// reported on every run.
func TestResultCacheKeepsErrors(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{
		"a/a.go": "package a\n\nfunc bad() {}\n\nfunc A() { bad() }\n",
		"b/b.go": "package b\n\nvar x int = \"s\"\n",
	})
	cfg := driver.Config{CacheDir: t.TempDir()}
	for i := range 2 {
		res, err := analyze(t, dir, cfg)
		var le *driver.LoadError
		if !errors.As(err, &le) {
			t.Fatalf("run %d: error %v, want a *LoadError", i+1, err)
		}
		if got := lines(dir, res.Findings); !slices.Equal(got, []string{"a/a.go:5:12-5:17: call of bad (badcall)"}) {
			t.Errorf("run %d: findings %v", i+1, got)
		}
	}
}

// A package an analyzer failed on is never cached either, whether the
// cache was used before or not: the failure is reported on every run, and
// the healthy packages' results are kept.
func TestResultCacheKeepsAnalyzerFailures(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{
		"boom/boom.go": "package boom\n\nfunc bad() {}\n\nfunc B() { bad() }\n",
		"ok/ok.go":     "package ok\n\nfunc bad() {}\n\nfunc F() { bad() }\n",
	})
	cfg := driver.Config{CacheDir: t.TempDir(), Analyzers: []*analysis.Analyzer{testanalyzers.Panicky, testanalyzers.BadCall}}
	want := []string{
		"boom/boom.go:5:12-5:17: call of bad (badcall)",
		"ok/ok.go:5:12-5:17: call of bad (badcall)",
	}
	for i := range 3 {
		res, err := analyze(t, dir, cfg)
		if err != nil {
			t.Fatalf("run %d: %v", i+1, err)
		}
		if got := lines(dir, res.Findings); !slices.Equal(got, want) {
			t.Errorf("run %d: findings %v, want %v", i+1, got, want)
		}
		if len(res.Errors) != 1 || res.Errors[0].Package != "example.com/m/boom" {
			t.Errorf("run %d: errors %v, want panicky's on boom", i+1, res.Errors)
		}
	}
	entries := 0
	filepath.WalkDir(filepath.Join(cfg.CacheDir, "results"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".json") {
			entries++
		}
		return nil
	})
	if entries != 1 {
		t.Errorf("%d entries cached, want 1 (ok's)", entries)
	}
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A run on an unused cache takes its keys from the streaming listing,
// later runs from the cache's own listing: the two must agree, test
// variants included, or nothing would ever be found again.
func TestResultCacheKeysFromEitherListing(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "src", "current"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tests := range []bool{false, true} {
		a, analysed := counting()
		cfg := driver.Config{Patterns: []string{"./..."}, Tests: tests, Analyzers: []*analysis.Analyzer{a}, CacheDir: t.TempDir(),
			Env: append(os.Environ(), "GOPROXY=off")}
		if _, err := analyze(t, dir, cfg); err != nil {
			t.Fatal(err)
		}
		if got := analysed(); len(got) == 0 {
			t.Fatalf("tests=%v: the first run analysed nothing", tests)
		}
		if _, err := analyze(t, dir, cfg); err != nil {
			t.Fatal(err)
		}
		if got := analysed(); len(got) != 0 {
			t.Errorf("tests=%v: the second run analysed %v, want nothing", tests, got)
		}
	}
}

// Files named on the command line make one package, command-line-arguments,
// which only the files can name again: a run that missed the cache for it
// asked the go command for a package of that path ("is not in std").
func TestResultCacheFileArguments(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{
		"a/a.go": "package a\n\nfunc bad() {}\n\nfunc A() { bad() }\n",
		"a/b.go": "package a\n\nfunc B() { bad() }\n",
	})
	a, analysed := counting()
	for _, tests := range []bool{false, true} {
		cfg := driver.Config{Patterns: []string{"a/a.go", "a/b.go"}, Tests: tests, Analyzers: []*analysis.Analyzer{a}, CacheDir: t.TempDir()}
		want := []string{"a/a.go:5:12-5:17: call of bad (badcall)", "a/b.go:3:12-3:17: call of bad (badcall)"}
		check := func(step string, wantAnalysed int) {
			t.Helper()
			res, err := analyze(t, dir, cfg)
			if err != nil {
				t.Fatalf("tests=%v, %s: %v", tests, step, err)
			}
			if got := lines(dir, res.Findings); !slices.Equal(got, want) {
				t.Errorf("tests=%v, %s: %v, want %v", tests, step, got, want)
			}
			if got := analysed(); len(got) != wantAnalysed {
				t.Errorf("tests=%v, %s: analysed %v, want %d packages", tests, step, got, wantAnalysed)
			}
		}
		write(t, dir, "a/b.go", "package a\n\nfunc B() { bad() }\n")
		check("first run", 1)
		check("cached run", 0)
		write(t, dir, "a/b.go", "package a\n\nfunc B() {\n\tbad()\n}\n")
		want[1] = "a/b.go:4:2-4:7: call of bad (badcall)"
		check("after an edit", 1)
		check("cached again", 0)
	}
}
