package driver_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

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
	testanalyzers.Settle(t, filepath.Join(dir, name))
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

// hooked is BadCall under its own name (so its results share the cache
// with counting's), calling hook with each package before analysing it.
func hooked(hook func(pkgPath string)) *analysis.Analyzer {
	a := *testanalyzers.BadCall
	a.Run = func(pass *analysis.Pass) (any, error) {
		hook(pass.Pkg.Path())
		return testanalyzers.BadCall.Run(pass)
	}
	return &a
}

// A file saved while a run analyses it must not have the findings of its
// old content stored under its new content: the next run would print them
// for code that no longer has them. Both ways to key: after the analysis
// (a cache no run used yet) and before it (a used cache, where the file
// is saved between keying and parsing).
func TestResultCacheFileSavedDuringRun(t *testing.T) {
	const (
		bad   = "package a\n\nfunc bad() {}\n\nfunc A() { bad() }\n"
		fixed = "package a\n\nfunc bad() {}\n\nfunc A() {}\n"
	)
	t.Run("unused cache", func(t *testing.T) {
		dir := testanalyzers.WriteModule(t, map[string]string{"a/a.go": bad})
		cfg := driver.Config{CacheDir: t.TempDir()}
		var once sync.Once
		cfg.Analyzers = []*analysis.Analyzer{hooked(func(string) {
			once.Do(func() { os.WriteFile(filepath.Join(dir, "a/a.go"), []byte(fixed), 0o644) })
		})}
		res, err := analyze(t, dir, cfg)
		if err != nil || len(res.Findings) != 1 {
			t.Fatalf("the run that saw the old content: %v %v", res.Findings, err)
		}
		testanalyzers.Settle(t, filepath.Join(dir, "a/a.go"))
		a, analysed := counting()
		cfg.Analyzers = []*analysis.Analyzer{a}
		res, err = analyze(t, dir, cfg)
		if err != nil || len(res.Findings) != 0 {
			t.Errorf("the fixed file: findings %v, err %v; want none (stale findings from the cache)", lines(dir, res.Findings), err)
		}
		if got := analysed(); len(got) != 1 {
			t.Errorf("the fixed file was not analysed again: %v", got)
		}
	})
	t.Run("used cache", func(t *testing.T) {
		// y imports x, so that with one worker x is analysed first and
		// saves y's file before y is parsed, after y was keyed.
		const x = "package x\n\nfunc X() {}\n"
		y := func(body string) string {
			return "package y\n\nimport \"example.com/m/x\"\n\nfunc bad() {}\n\nfunc Y() {\n\tx.X()\n" + body + "}\n"
		}
		dir := testanalyzers.WriteModule(t, map[string]string{"x/x.go": x, "y/y.go": y("\tbad()\n")})
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1)) // one worker
		cfg := driver.Config{CacheDir: t.TempDir()}
		a, analysed := counting()
		cfg.Analyzers = []*analysis.Analyzer{a}
		if _, err := analyze(t, dir, cfg); err != nil {
			t.Fatal(err)
		}
		analysed()
		v2 := y("\n\tbad()\n")
		write(t, dir, "y/y.go", v2)
		write(t, dir, "x/x.go", x+"\nfunc X2() {}\n") // analysed again, before y
		hookRan := false
		cfg.Analyzers = []*analysis.Analyzer{hooked(func(path string) {
			if path == "example.com/m/x" {
				hookRan = true
				os.WriteFile(filepath.Join(dir, "y/y.go"), []byte(y("")), 0o644)
			}
		})}
		if _, err := analyze(t, dir, cfg); err != nil {
			t.Fatal(err)
		}
		if !hookRan {
			t.Fatal("x was not analysed in the run that saves y")
		}
		// Back to the content the second run keyed (an undo).
		write(t, dir, "y/y.go", v2)
		cfg.Analyzers = []*analysis.Analyzer{a}
		res, err := analyze(t, dir, cfg)
		if got, want := lines(dir, res.Findings), []string{"y/y.go:10:2-10:7: call of bad (badcall)"}; err != nil || !slices.Equal(got, want) {
			t.Errorf("after the undo: %v %v, want %v", got, err, want)
		}
	})
}

// The go line of go.mod decides which language the type checker accepts:
// a module moved back to go 1.21 that uses range-over-int no longer
// type-checks, and must not be served the clean result of go 1.22. The
// godebug and toolchain lines and this process's GODEBUG are keyed too.
func TestResultCacheKeysGoModSettings(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{
		"a/a.go": "package a\n\nfunc A() int {\n\tn := 0\n\tfor i := range 3 {\n\t\tn += i\n\t}\n\treturn n\n}\n",
	})
	a, analysed := counting()
	cfg := driver.Config{CacheDir: t.TempDir(), Analyzers: []*analysis.Analyzer{a}}
	run := func(step string, wantAnalysed int) error {
		t.Helper()
		_, err := analyze(t, dir, cfg)
		if got := analysed(); len(got) != wantAnalysed {
			t.Errorf("%s: analysed %v, want %d packages", step, got, wantAnalysed)
		}
		return err
	}
	if err := run("go 1.22", 1); err != nil {
		t.Fatal(err)
	}
	if err := run("go 1.22 again", 0); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "go.mod", "module example.com/m\n\ngo 1.21\n")
	var le *driver.LoadError
	if err := run("go 1.21", 0); !errors.As(err, &le) || !strings.Contains(err.Error(), "go1.22") {
		t.Errorf("go 1.21: error %v, want the type checker's go1.22 requirement", err)
	}
	write(t, dir, "go.mod", "module example.com/m\n\ngo 1.22\n")
	if err := run("go 1.22 restored", 0); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "go.mod", "module example.com/m\n\ngo 1.22\n\ngodebug asynctimerchan=1\n")
	if err := run("a godebug line", 1); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "go.mod", "module example.com/m\n\ngo 1.22\n\ngodebug asynctimerchan=1\n\ntoolchain go1.22.0\n")
	if err := run("a toolchain line", 1); err != nil {
		t.Fatal(err)
	}
	// A require line alone changes nothing this package imports.
	write(t, dir, "go.mod", "module example.com/m\n\ngo 1.22\n\ngodebug asynctimerchan=1\n\ntoolchain go1.22.0\n\n// a comment\n")
	if err := run("a comment", 0); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GODEBUG", "gotypesalias=0")
	if err := run("the process's GODEBUG", 1); err != nil {
		t.Fatal(err)
	}
}

// Entries are checked before they are trusted: a damaged one is a miss,
// the package is analysed again, and the entry is rewritten.
func TestResultCacheDamagedEntries(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{"a/a.go": "package a\n\nfunc bad() {}\n\nfunc A() { bad() }\n"})
	a, analysed := counting()
	cfg := driver.Config{CacheDir: t.TempDir(), Analyzers: []*analysis.Analyzer{a}}
	want := []string{"a/a.go:5:12-5:17: call of bad (badcall)"}
	run := func(step string, wantAnalysed int) {
		t.Helper()
		res, err := analyze(t, dir, cfg)
		if got := lines(dir, res.Findings); err != nil || !slices.Equal(got, want) {
			t.Errorf("%s: %v %v, want %v", step, got, err, want)
		}
		if got := analysed(); len(got) != wantAnalysed {
			t.Errorf("%s: analysed %v, want %d packages", step, got, wantAnalysed)
		}
	}
	run("first run", 1)
	var entry string
	filepath.WalkDir(filepath.Join(cfg.CacheDir, "results"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".json") {
			entry = path
		}
		return nil
	})
	good, err := os.ReadFile(entry)
	if err != nil {
		t.Fatal(err)
	}
	header, payload, _ := strings.Cut(string(good), "\n")
	for name, damaged := range map[string]string{
		"null":              "null",
		"empty object":      "{}",
		"empty file":        "",
		"truncated":         string(good[:len(good)-5]),
		"payload only":      payload,
		"empty position":    header + "\n" + `{"Findings":[{"Analyzer":"badcall","Message":"call of bad"}]}`,
		"one byte flipped":  strings.Replace(string(good), "call of bad", "call of baD", 1),
		"another entry's":   strings.Replace(string(good), filepath.Base(strings.TrimSuffix(entry, ".json")), strings.Repeat("0", 64), 1),
		"trailing garbage":  string(good) + "x",
		"no findings field": header + "\n" + `{"Other":1}`,
	} {
		if err := os.WriteFile(entry, []byte(damaged), 0o644); err != nil {
			t.Fatal(err)
		}
		run(name, 1)
		if got, _ := os.ReadFile(entry); string(got) != string(good) {
			t.Errorf("%s: the entry was not rewritten", name)
		}
		run(name+", rewritten", 0)
	}
}

// Results no run has used for five days are deleted, once a day, as the
// export data's entries are; a run that answers from an entry marks it
// used, so a warm run's entries stay.
func TestResultCacheTrimmed(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{
		"a/a.go": "package a\n\nfunc bad() {}\n\nfunc A() { bad() }\n",
	})
	a, analysed := counting()
	cfg := driver.Config{Analyzers: []*analysis.Analyzer{a}, CacheDir: t.TempDir()}
	results := filepath.Join(cfg.CacheDir, "results")
	run := func() {
		t.Helper()
		if _, err := analyze(t, dir, cfg); err != nil {
			t.Fatal(err)
		}
	}
	mark := filepath.Join(results, "trim.txt")
	age := func(d time.Duration) {
		t.Helper()
		then := time.Now().Add(-d)
		filepath.WalkDir(results, func(path string, e fs.DirEntry, err error) error {
			if err == nil && !e.IsDir() && path != mark {
				os.Chtimes(path, then, then)
			}
			return nil
		})
	}
	run()
	analysed()

	// Unused for two hours: the cached run answers, and marks them used.
	age(2 * time.Hour)
	run()
	if got := analysed(); len(got) != 0 {
		t.Fatalf("cached run analysed %v", got)
	}
	filepath.WalkDir(results, func(path string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() && path != mark {
			if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > time.Hour {
				t.Errorf("%s not marked used by the run that used it", path)
			}
		}
		return nil
	})
	age(6 * 24 * time.Hour)
	os.Remove(mark)
	run()
	if got := analysed(); len(got) != 1 {
		t.Fatalf("after six days unused: analysed %v, want a again (its entry trimmed)", got)
	}
	if _, err := os.Stat(mark); err != nil {
		t.Errorf("no trim mark: %v", err)
	}

	// Unused for six days again, but trimmed less than a day ago: the
	// directory is walked at most once a day.
	age(6 * 24 * time.Hour)
	run()
	if got := analysed(); len(got) != 0 {
		t.Errorf("a second trim within a day removed entries: analysed %v", got)
	}
}
