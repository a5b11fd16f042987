package main

import (
	"encoding/json"
	"errors"
	"flag"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/ctrllint/ctrllint/analyzers"
)

var updateExample = flag.Bool("update-example", false, "rewrite README.md's sample output of make example (TestExampleOutput)")

// The bundled example (testdata/src/current/example) is what `make example`,
// README's first command, runs ctrllint on: a newcomer sees every analyzer
// there, once.
const exampleDir = "example"

// exampleModule is the fixture module that holds the example.
func exampleModule(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "src", "current"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// exampleFindings runs ctrllint -f json (with extra flags) on the example in
// module dir and returns its findings; the run must report some (exit 1).
func exampleFindings(t *testing.T, dir string, flags ...string) []jsonFinding {
	t.Helper()
	args := append(append([]string{"-f", "json"}, flags...), "./"+exampleDir+"/...")
	r := runBinary(t, ctrllintBin, dir, []string{"GOPROXY=off"}, args...)
	if r.code != exitFindings {
		t.Fatalf("ctrllint %s: exit %d, want %d (findings)\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.code, exitFindings, r.stdout, r.stderr)
	}
	var fs []jsonFinding
	if err := json.Unmarshal([]byte(r.stdout), &fs); err != nil {
		t.Fatalf("ctrllint %s: %v\n%s", strings.Join(args, " "), err, r.stdout)
	}
	return fs
}

// byAnalyzer counts findings per analyzer.
func byAnalyzer(fs []jsonFinding) map[string]int {
	n := map[string]int{}
	for _, f := range fs {
		n[f.Analyzer]++
	}
	return n
}

// TestExampleEveryAnalyzerOnce: the example shows one finding of every
// analyzer of the suite, and each sits on a line whose comment (or the
// comment line above it) names its analyzer, so a reader finds the bug the
// output names. A new analyzer fails here until the example has a finding of
// it.
func TestExampleEveryAnalyzerOnce(t *testing.T) {
	dir := exampleModule(t)
	fs := exampleFindings(t, dir)
	got := byAnalyzer(fs)
	for _, a := range analyzers.All() {
		if got[a.Name] != 1 {
			t.Errorf("%d findings of %s in the example, want 1", got[a.Name], a.Name)
		}
		delete(got, a.Name)
	}
	for name, n := range got {
		t.Errorf("%d findings of %s, which is no analyzer of analyzers.All()", n, name)
	}
	for _, f := range fs {
		data, err := os.ReadFile(filepath.Join(dir, f.File))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		if f.Line < 1 || f.Line > len(lines) {
			t.Fatalf("%s:%d: no such line", f.File, f.Line)
		}
		marker := "// " + f.Analyzer
		if !strings.Contains(lines[f.Line-1], marker) && (f.Line < 2 || !strings.Contains(lines[f.Line-2], marker)) {
			t.Errorf("%s:%d: the %s finding's line (or the one above) has no %q comment:\n%s", f.File, f.Line, f.Analyzer, marker, lines[f.Line-1])
		}
	}
}

// TestExampleFixes applies -fix to a copy of the example: exactly the
// findings that came with a suggested fix go, the rest stay, and the fixed
// code still compiles (ctrllint exits 2 on a package that does not).
func TestExampleFixes(t *testing.T) {
	src := exampleModule(t)
	before := exampleFindings(t, src)
	var fixable, unfixable []string
	for _, f := range before {
		if len(f.Fixes) > 0 {
			fixable = append(fixable, f.Analyzer)
		} else {
			unfixable = append(unfixable, f.Analyzer)
		}
	}
	if len(fixable) == 0 {
		t.Fatal("no finding of the example has a suggested fix: make example shows no diff")
	}
	dir := t.TempDir()
	for _, name := range []string{"go.mod", "go.sum"} {
		copyFile(t, filepath.Join(src, name), filepath.Join(dir, name))
	}
	files, _ := filepath.Glob(filepath.Join(src, exampleDir, "*.go"))
	if len(files) == 0 {
		t.Fatal("no Go files in the example")
	}
	for _, f := range files {
		copyFile(t, f, filepath.Join(dir, exampleDir, filepath.Base(f)))
	}
	exampleFindings(t, dir, "-fix")
	var left []string
	for _, f := range exampleFindings(t, dir) {
		left = append(left, f.Analyzer)
	}
	slices.Sort(left)
	slices.Sort(unfixable)
	if !slices.Equal(left, unfixable) {
		t.Errorf("after -fix, findings of %v; want those without a fix, %v (fixed: %v)", left, unfixable, fixable)
	}
}

// The README block that shows make example's output.
const (
	exampleBegin = "<!-- example:begin (the output of make example; generated: go test ./cmd/ctrllint -run TestExampleOutput -update-example) -->\n"
	exampleEnd   = "<!-- example:end -->\n"
)

// TestExampleOutput runs hack/example.sh, what make example runs, and
// compares its output with the README's; -update-example rewrites the
// README's block. The checked-in example must come out unchanged.
func TestExampleOutput(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	snapshot := func() map[string]string {
		files, _ := filepath.Glob(filepath.Join(exampleModule(t), exampleDir, "*"))
		m := map[string]string{}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			m[f] = string(data)
		}
		return m
	}
	files := snapshot()
	r := runExampleScript(t, root, ctrllintBin)
	if r.code != 0 {
		t.Fatalf("hack/example.sh: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if r.stderr != "" {
		t.Errorf("hack/example.sh wrote to stderr:\n%s", r.stderr)
	}
	if after := snapshot(); !maps.Equal(files, after) {
		t.Errorf("hack/example.sh changed the checked-in example")
	}
	out := r.stdout
	if !strings.Contains(out, "\n--- a/example/") || !strings.Contains(out, "\n+++ b/example/") {
		t.Errorf("no diff in the output of hack/example.sh:\n%s", out)
	}

	readme := filepath.Join(root, "README.md")
	data, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	i, j := strings.Index(text, exampleBegin), strings.Index(text, exampleEnd)
	if i < 0 || j < i {
		t.Fatalf("README.md has no block between %q and %q", exampleBegin, exampleEnd)
	}
	block := "```\n" + out + "```\n"
	if text[i+len(exampleBegin):j] == block {
		return
	}
	if *updateExample {
		text = text[:i+len(exampleBegin)] + block + text[j:]
		if err := os.WriteFile(readme, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's output of make example is stale; run go test ./cmd/ctrllint -run TestExampleOutput -update-example\nwant:\n%s", block)
}

// TestExampleCompilesNothing: with a go build cache new and empty, as on a
// fresh clone, make example's runs of ctrllint have the go command compile
// nothing (the example's dependencies are type-checked from source), and
// show what they show with a warm one. The go command's compiles are seen
// through -toolexec, which runs every tool through a logger; the logger is
// checked to see a compile.
func TestExampleCompilesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the example's dependencies from source")
	}
	if runtime.GOOS == "windows" {
		t.Skip("the logger is a shell script")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "compiled")
	logger := filepath.Join(dir, "logger")
	// compile's -p names the package it compiles (compile -V=full, which
	// the go command runs for the tool's version, names none).
	script := "#!/bin/sh\nif [ \"$(basename \"$1\")\" = compile ]; then\n\tprev=\n\tfor a; do [ \"$prev\" = -p ] && echo \"$a\" >>" + log + "; prev=$a; done\nfi\nexec \"$@\"\n"
	if err := os.WriteFile(logger, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"GOCACHE=" + t.TempDir(), "CTRLLINT_CACHE=" + t.TempDir(), "GOFLAGS=" + strings.TrimSpace(os.Getenv("GOFLAGS")+" -toolexec="+logger)}
	r := runExampleScript(t, root, ctrllintBin, env...)
	if r.code != 0 || !strings.Contains(r.stdout, "\nctrllint -fix, on a copy of the example: applied ") {
		t.Fatalf("hack/example.sh with an empty build cache: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	warm := runExampleScript(t, root, ctrllintBin)
	if r.stdout != warm.stdout {
		t.Errorf("hack/example.sh with an empty build cache:\n%s\nwith the usual one:\n%s", r.stdout, warm.stdout)
	}
	if data, err := os.ReadFile(log); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("hack/example.sh had the go command compile (%v):\n%s", err, data)
	}
	// The logger sees what the go command compiles.
	cmd := exec.Command("go", "list", "-export", "errors")
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go list -export errors: %v\n%s", err, out)
	}
	if data, err := os.ReadFile(log); err != nil || !strings.Contains(string(data), "errors\n") {
		t.Errorf("go list -export errors in an empty build cache: the logger saw %q (%v), want errors among the packages compiled", data, err)
	}
}

// runExampleScript runs hack/example.sh with bin as ctrllint, and env
// besides.
func runExampleScript(t *testing.T, root, bin string, env ...string) result {
	t.Helper()
	cmd := exec.Command(filepath.Join(root, "hack", "example.sh"))
	cmd.Env = append(append(os.Environ(), "CTRLLINT="+bin, "GOPROXY=off"), env...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	code := 0
	if err := cmd.Run(); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("running hack/example.sh: %v", err)
		}
		code = ee.ExitCode()
	}
	return result{stdout.String(), stderr.String(), code}
}

// TestExampleScriptFails: make example fails, saying why, when ctrllint
// finds nothing or fails, when -fix fails or fixes nothing, and when the
// binary is missing. Stand-ins for ctrllint exit as told.
func TestExampleScriptFails(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	stub := func(name, script string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"+script), 0o755); err != nil {
			t.Fatal(err)
		}
		return path
	}
	for _, tc := range []struct {
		name, script, want string
	}{
		{"clean", "exit 0\n", "example: FAILED: ctrllint exited 0, want 1 (findings)"},
		{"broken", "echo 'ctrllint: cannot load' >&2; exit 2\n", "example: FAILED: ctrllint exited 2, want 1 (findings)"},
		{"fixfails", `[ "$1" = -fix ] && { echo 'ctrllint: writing: disk full' >&2; exit 2; }; exit 1` + "\n", "example: FAILED: ctrllint -fix exited 2, want 1 (findings left without a fix)"},
		{"fixesnothing", "exit 1\n", "example: FAILED: ctrllint -fix applied no fix"},
	} {
		r := runExampleScript(t, root, stub(tc.name, tc.script))
		if r.code != 1 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 1 and %q", tc.name, r.code, r.stderr, tc.want)
		}
	}
	if r := runExampleScript(t, root, filepath.Join(dir, "missing")); r.code != 1 || !strings.Contains(r.stderr, "missing not built") {
		t.Errorf("missing binary: exit %d, stderr %q", r.code, r.stderr)
	}
}
