package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrllint/ctrllint/internal/newcode/gittest"
	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

const baselineSrc = `package m

func bad()  {}
func good() {}

func F() {
	bad()
	bad()
}

func G() {
	bad()
}
`

// baselineModule has four findings of badcall: two in F, one in G, one
// in a test, and one in package sub.
func baselineModule(t *testing.T) string {
	return testanalyzers.WriteModule(t, map[string]string{
		"a.go":      baselineSrc,
		"a_test.go": "package m\n\nfunc helper() { bad() }\n",
		"sub/s.go":  "package sub\n\nfunc bad()  {}\nfunc good() {}\n\nfunc S() { bad() }\n",
	})
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBaseline(t *testing.T) {
	dir := baselineModule(t)
	r := runInProcess("-C", dir, "-enable", "badcall", "-baseline-write", "ctrllint.baseline", "./...")
	if r.code != exitClean || r.stdout != "" || r.stderr != "ctrllint: wrote 5 findings (4 entries) to ctrllint.baseline\n" {
		t.Fatalf("-baseline-write: exit %d\nstdout %q\nstderr %q", r.code, r.stdout, r.stderr)
	}
	data, err := os.ReadFile(filepath.Join(dir, "ctrllint.baseline"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	if len(lines) != 6 || lines[0] != `{"ctrllint-baseline":1}` || lines[5] != "" ||
		!strings.HasPrefix(lines[1], `{"file":"a.go","function":"F","analyzer":"badcall","message":"call of bad","hash":"`) || !strings.HasSuffix(lines[1], `","count":2}`) ||
		!strings.HasPrefix(lines[2], `{"file":"a.go","function":"G",`) ||
		!strings.HasPrefix(lines[3], `{"file":"a_test.go","function":"helper",`) ||
		!strings.HasPrefix(lines[4], `{"file":"sub/s.go","function":"S",`) {
		t.Errorf("baseline:\n%s", data)
	}

	check := func(name string, r result, code int, stdout, stderr string) {
		t.Helper()
		if r.code != code || r.stdout != stdout || r.stderr != stderr {
			t.Errorf("%s: exit %d (want %d)\nstdout %q\nwant   %q\nstderr %q\nwant   %q", name, r.code, code, r.stdout, stdout, r.stderr, stderr)
		}
	}
	base := []string{"-C", dir, "-enable", "badcall", "-baseline", "ctrllint.baseline"}
	run := func(args ...string) result { return runInProcess(append(append([]string{}, base...), args...)...) }
	check("unchanged", run("./..."), exitClean, "", "")
	// Only the enabled analyzers' and analysed files' entries can be
	// missed; the run was limited, nothing was fixed.
	check("-test=false", run("-test=false", "./..."), exitClean, "", "")

	a := filepath.Join(dir, "a.go")
	gone := func(n string) string {
		return "ctrllint: " + n + " baseline findings no longer occur; rewrite the baseline with -baseline-write ctrllint.baseline\n"
	}
	for _, tc := range []struct {
		name, src      string
		stdout, stderr string
	}{
		{"lines added above, re-indented", strings.Replace(baselineSrc, "func F() {\n\tbad()", "// F does.\n//\n// Really.\nfunc F() {\n        bad( )", 1), "", ""},
		{"a third call in F", strings.Replace(baselineSrc, "\tbad()\n}\n\nfunc G", "\tbad()\n\tbad()\n}\n\nfunc G", 1), "a.go:9:2: call of bad (badcall)\n", ""},
		{"G's line changed", strings.Replace(baselineSrc, "func G() {\n\tbad()", "func G() {\n\tdefer bad()", 1), "a.go:12:8: call of bad (badcall)\n", gone("1")},
		{"one of F's fixed", strings.Replace(baselineSrc, "\tbad()\n\tbad()", "\tbad()\n\tgood()", 1), "", gone("1")},
		{"all of F's fixed", strings.Replace(baselineSrc, "\tbad()\n\tbad()", "\tgood()\n\tgood()", 1), "", gone("2")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			writeFile(t, a, tc.src)
			defer writeFile(t, a, baselineSrc)
			code := exitClean
			if tc.stdout != "" {
				code = exitFindings
			}
			check(tc.name, run("./..."), code, tc.stdout, tc.stderr)
		})
	}

	// The baseline's paths are relative to its own directory: the same
	// file works from another working directory and in another clone.
	check("from sub", runInProcess("-C", filepath.Join(dir, "sub"), "-enable", "badcall", "-baseline", "../ctrllint.baseline", "../..."), exitClean, "", "")
	check("absolute path", runInProcess("-C", filepath.Join(dir, "sub"), "-enable", "badcall", "-baseline", filepath.Join(dir, "ctrllint.baseline"), "../..."), exitClean, "", "")
	clone := baselineModule(t)
	writeFile(t, filepath.Join(clone, "ctrllint.baseline"), string(data))
	check("clone", runInProcess("-C", clone, "-enable", "badcall", "-baseline", "ctrllint.baseline", "./..."), exitClean, "", "")

	// JSON: only the new findings; its shape is unchanged.
	writeFile(t, a, strings.Replace(baselineSrc, "func G() {\n\tbad()", "func G() {\n\tdefer bad()", 1))
	defer writeFile(t, a, baselineSrc)
	r = run("-f", "json", "./...")
	var js []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &js); err != nil || r.code != exitFindings || len(js) != 1 || js[0]["line"] != 12.0 {
		t.Errorf("-f json: exit %d, %v\n%s", r.code, err, r.stdout)
	}
}

// In SARIF the baselined findings are included as "unchanged" and the
// new as "new"; without -baseline no result has a baselineState.
func TestBaselineSARIF(t *testing.T) {
	dir := baselineModule(t)
	if r := runInProcess("-C", dir, "-enable", "badcall", "-baseline-write", "b", "./..."); r.code != exitClean {
		t.Fatalf("-baseline-write: exit %d %s", r.code, r.stderr)
	}
	a := filepath.Join(dir, "a.go")
	// One of F's calls is fixed; G's line changed: one new, two gone.
	writeFile(t, a, strings.Replace(strings.Replace(baselineSrc, "\tbad()\n\tbad()", "\tbad()\n\tgood()", 1), "func G() {\n\tbad()", "func G() {\n\tdefer bad()", 1))
	r := runInProcess("-C", dir, "-enable", "badcall", "-baseline", "b", "-f", "sarif", "./...")
	if r.code != exitFindings {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	log := checkSARIF(t, []byte(r.stdout))
	run := runOf(log)
	var got []string
	for _, res := range run["results"].([]any) {
		res := res.(map[string]any)
		loc := res["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
		got = append(got, loc["artifactLocation"].(map[string]any)["uri"].(string)+":"+
			jsonNumber(loc["region"].(map[string]any)["startLine"])+" "+res["baselineState"].(string))
	}
	want := "a.go:7 unchanged, a.go:12 new, a_test.go:3 unchanged, sub/s.go:6 unchanged"
	if strings.Join(got, ", ") != want {
		t.Errorf("results: %s\nwant:    %s", strings.Join(got, ", "), want)
	}
	inv := run["invocations"].([]any)[0].(map[string]any)
	notes, _ := inv["toolExecutionNotifications"].([]any)
	if inv["executionSuccessful"] != true || len(notes) != 1 ||
		notes[0].(map[string]any)["level"] != "note" ||
		notes[0].(map[string]any)["message"].(map[string]any)["text"] != "2 baseline findings no longer occur; rewrite the baseline with -baseline-write b" {
		t.Errorf("invocation: %v", inv)
	}

	r = runInProcess("-C", dir, "-enable", "badcall", "-f", "sarif", "./...")
	if strings.Contains(r.stdout, "baselineState") {
		t.Errorf("baselineState without -baseline:\n%s", r.stdout)
	}
	checkSARIF(t, []byte(r.stdout))
}

func jsonNumber(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// -fix with -baseline fixes only the new findings.
func TestBaselineFix(t *testing.T) {
	dir := baselineModule(t)
	if r := runInProcess("-C", dir, "-enable", "badcall", "-baseline-write", "b", "./..."); r.code != exitClean {
		t.Fatalf("-baseline-write: exit %d %s", r.code, r.stderr)
	}
	a := filepath.Join(dir, "a.go")
	src := strings.Replace(baselineSrc, "func G() {\n\tbad()", "func G() {\n\tdefer bad()", 1)
	writeFile(t, a, src)
	r := runInProcess("-C", dir, "-enable", "badcall", "-baseline", "b", "-fix", "./...")
	// G's old line is gone from the baseline's view.
	wantStderr := "ctrllint: applied 1 fixes to 1 files\nctrllint: 1 baseline findings no longer occur; rewrite the baseline with -baseline-write b\n"
	if r.code != exitClean || r.stdout != "" || r.stderr != wantStderr {
		t.Errorf("exit %d\nstdout %q\nstderr %q", r.code, r.stdout, r.stderr)
	}
	got, _ := os.ReadFile(a)
	if want := strings.Replace(src, "defer bad()", "defer good()", 1); string(got) != want {
		t.Errorf("a.go:\n%s\nwant:\n%s", got, want)
	}
	if s, _ := os.ReadFile(filepath.Join(dir, "sub", "s.go")); !strings.Contains(string(s), "S() { bad() }") {
		t.Errorf("a baselined finding was fixed:\n%s", s)
	}
}

// With -fix, the baselined findings SARIF keeps as "unchanged" are where
// they are in the files -fix wrote: here gofmt, which runs on each file
// fixed, takes G's call three lines up.
func TestBaselineFixSARIF(t *testing.T) {
	src := "package m\n\nfunc bad()  {}\nfunc good() {}\n\n\n\n\nfunc G() {\n\tbad()\n}\n"
	dir := testanalyzers.WriteModule(t, map[string]string{"a.go": src})
	if r := runInProcess("-C", dir, "-enable", "badcall", "-baseline-write", "b", "./..."); r.code != exitClean {
		t.Fatalf("-baseline-write: exit %d %s", r.code, r.stderr)
	}
	a := filepath.Join(dir, "a.go")
	writeFile(t, a, strings.Replace(src, "func good() {}\n", "func good() {}\n\nfunc F() { bad() }\n", 1)) // G's call on line 12
	r := runInProcess("-C", dir, "-enable", "badcall", "-baseline", "b", "-fix", "-f", "sarif", "./...")
	if r.code != exitClean || r.stderr != "ctrllint: applied 1 fixes to 1 files\n" {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	written, _ := os.ReadFile(a)
	if want := "package m\n\nfunc bad()  {}\nfunc good() {}\n\nfunc F() { good() }\n\nfunc G() {\n\tbad()\n}\n"; string(written) != want {
		t.Fatalf("a.go:\n%s\nwant:\n%s", written, want)
	}
	results := runOf(checkSARIF(t, []byte(r.stdout)))["results"].([]any)
	if len(results) != 1 {
		t.Fatalf("%d results:\n%s", len(results), r.stdout)
	}
	res := results[0].(map[string]any)
	region := res["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)["region"].(map[string]any)
	if res["baselineState"] != "unchanged" || region["startLine"] != 9.0 || region["startColumn"] != 2.0 || region["endLine"] != 9.0 || region["endColumn"] != 7.0 {
		t.Errorf("G's call: %v at %v, want unchanged at 9:2-9:7", res["baselineState"], region)
	}
}

func TestBaselineErrors(t *testing.T) {
	dir := baselineModule(t)
	if r := runInProcess("-C", dir, "-enable", "badcall", "-baseline-write", "b", "./..."); r.code != exitClean {
		t.Fatalf("-baseline-write: exit %d %s", r.code, r.stderr)
	}
	good, _ := os.ReadFile(filepath.Join(dir, "b"))
	lines := strings.SplitAfter(string(good), "\n")
	writeFile(t, filepath.Join(dir, "corrupt"), lines[0]+lines[1]+lines[2][:20]+"\n"+strings.Join(lines[3:], ""))
	writeFile(t, filepath.Join(dir, "other"), "[]\n")
	broken := testanalyzers.WriteModule(t, map[string]string{
		"a.go":   "package m\n\nfunc bad() {}\n\nfunc F() { bad() }\n",
		"b/b.go": "package b\n\nvar x int = \"s\"\n",
	})
	for _, tc := range []struct {
		name   string
		args   []string
		stderr string // a prefix
	}{
		{"missing baseline", []string{"-C", dir, "-baseline", "nope", "./..."}, "ctrllint: -baseline: open " + filepath.Join(dir, "nope") + ": no such file or directory\n"},
		{"corrupt line", []string{"-C", dir, "-baseline", "corrupt", "./..."}, "ctrllint: -baseline: " + filepath.Join(dir, "corrupt") + ":3: not a baseline entry: unexpected EOF\n"},
		{"not a baseline", []string{"-C", dir, "-baseline", "other", "./..."}, "ctrllint: -baseline: " + filepath.Join(dir, "other") + ":1: not a ctrllint baseline"},
		{"a directory", []string{"-C", dir, "-baseline", "sub", "./..."}, "ctrllint: -baseline: open " + filepath.Join(dir, "sub") + ": a directory, not a regular file\n"},
		{"both flags", []string{"-C", dir, "-baseline", "b", "-baseline-write", "b", "./..."}, "ctrllint: -baseline and -baseline-write cannot be used together"},
		{"empty -baseline", []string{"-C", dir, "-baseline=", "./..."}, "ctrllint: -baseline needs a file name\n"},
		{"empty -baseline-write", []string{"-C", dir, "-baseline-write", "", "./..."}, "ctrllint: -baseline-write needs a file name\n"},
		{"-new-from-rev with -baseline-write", []string{"-C", dir, "-new-from-rev", "HEAD", "-baseline-write", "b", "./..."}, "ctrllint: -baseline-write records every finding, and cannot be used with -new-from-rev"},
		{"-fix with -baseline-write", []string{"-C", dir, "-fix", "-baseline-write", "b", "./..."}, "ctrllint: -fix and -baseline-write cannot be used together"},
		{"write into a missing directory", []string{"-C", dir, "-baseline-write", "nodir/b", "./..."}, "ctrllint: -baseline-write: stat " + filepath.Join(dir, "nodir") + ": no such file or directory\n"},
		{"write over a directory", []string{"-C", dir, "-baseline-write", "sub", "./..."}, "ctrllint: -baseline-write: sub is a directory\n"},
		{"write after load errors", []string{"-C", broken, "-enable", "badcall", "-baseline-write", "base", "./..."}, "ctrllint: b/b.go:3:13: cannot use"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runInProcess(tc.args...)
			if r.code != exitError || r.stdout != "" || !strings.HasPrefix(r.stderr, tc.stderr) {
				t.Errorf("exit %d\nstdout %q\nstderr %q\nwant prefix %q", r.code, r.stdout, r.stderr, tc.stderr)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(broken, "base")); err == nil {
		t.Error("a baseline was written from a run with load errors")
	}
	if r := runInProcess("-C", broken, "-enable", "badcall", "-baseline-write", "base", "./..."); !strings.HasSuffix(r.stderr, "ctrllint: -baseline-write: base not written: the run had errors (above), and a baseline of it would miss their findings\n") {
		t.Errorf("load errors: stderr %q", r.stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "b")); string(got) != string(good) {
		t.Errorf("a failed run changed the baseline:\n%s", got)
	}

	// A write that fails exits 2 (that it leaves the previous baseline
	// is internal/baseline's TestWriteFailure). /proc/self is a directory
	// in which nobody, root included, can create a file.
	if _, err := os.Stat("/proc/self"); err == nil {
		r := runInProcess("-C", dir, "-enable", "badcall", "-baseline-write", "/proc/self/b", "./...")
		if r.code != exitError || r.stdout != "" || !strings.HasPrefix(r.stderr, "ctrllint: -baseline-write: writing /proc/self/b: open /proc/self/.b.tmp") {
			t.Errorf("unwritable directory: exit %d, stderr %q", r.code, r.stderr)
		}
	}
}

// With -new-from-rev, the baseline is matched against every finding, so
// the baselined findings outside the changed code still count as
// occurring; then both filters apply, to the reported findings and to the
// baselined ones SARIF includes.
func TestBaselineNewFromRev(t *testing.T) {
	gittest.Isolate(t)
	r := gittest.Init(t, baselineModule(t))
	if res := runInProcess("-C", r.Dir, "-enable", "badcall", "-baseline-write", "b", "./..."); res.code != exitClean {
		t.Fatalf("-baseline-write: exit %d %s", res.code, res.stderr)
	}
	r.Commit("base")
	r.Write(map[string]string{"a.go": strings.Replace(baselineSrc, "func G() {\n\tbad()", "func G() {\n\tdefer bad()", 1)})
	res := runInProcess("-C", r.Dir, "-enable", "badcall", "-baseline", "b", "-new-from-rev", "HEAD", "./...")
	wantStderr := "ctrllint: 1 baseline findings no longer occur; rewrite the baseline with -baseline-write b\n"
	if res.code != exitFindings || res.stdout != "a.go:12:8: call of bad (badcall)\n" || res.stderr != wantStderr {
		t.Errorf("exit %d\nstdout %q\nstderr %q\nwant   %q", res.code, res.stdout, res.stderr, wantStderr)
	}
	res = runInProcess("-C", r.Dir, "-enable", "badcall", "-baseline", "b", "-new-from-rev", "HEAD", "-f", "sarif", "./...")
	results := runOf(checkSARIF(t, []byte(res.stdout)))["results"].([]any)
	if len(results) != 1 || results[0].(map[string]any)["baselineState"] != "new" {
		t.Errorf("SARIF results: %v", results)
	}
}

// The real analyzers on the bundled example, one finding of each: lines
// added at the top of every file keep all of them baselined, though
// several messages cite other lines ("after its Start (line 108)"),
// which move too.
func TestBaselineExample(t *testing.T) {
	current := filepath.Join("..", "..", "testdata", "src", "current")
	files := map[string]string{}
	for _, name := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join(current, name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(b)
	}
	srcs, _ := filepath.Glob(filepath.Join(current, "example", "*.go"))
	if len(srcs) == 0 {
		t.Fatal("no example")
	}
	for _, src := range srcs {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		files["example/"+filepath.Base(src)] = string(b)
	}
	dir := testanalyzers.WriteModule(t, files)
	env := []string{"GOPROXY=off", "GOFLAGS=-mod=mod"}
	r := runBinary(t, ctrllintBin, dir, env, "-baseline-write", "b", "./...")
	if r.code != exitClean || !strings.HasPrefix(r.stderr, "ctrllint: wrote ") {
		t.Fatalf("-baseline-write: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for name, src := range files {
		if strings.HasSuffix(name, ".go") {
			src = strings.Replace(src, "\npackage example\n", "\npackage example\n\n// Added\n// above.\n", 1)
			writeFile(t, filepath.Join(dir, name), src)
		}
	}
	all := runBinary(t, ctrllintBin, dir, env, "./...")
	if all.code != exitFindings || !strings.Contains(all.stdout, "(line ") {
		t.Fatalf("without -baseline: exit %d, and no message citing a line:\n%s%s", all.code, all.stdout, all.stderr)
	}
	r = runBinary(t, ctrllintBin, dir, env, "-baseline", "b", "./...")
	if r.code != exitClean || r.stdout != "" || r.stderr != "" {
		t.Errorf("-baseline after lines added above: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// A finding .ctrllint.yml excludes is no finding, in a baseline or out of
// it: it is not recorded, and a baselined one it now excludes no longer
// occurs.
func TestBaselineExcludePaths(t *testing.T) {
	dir := baselineModule(t)
	r := runInProcess("-C", dir, "-enable", "badcall", "-baseline-write", "b", "./...")
	if r.code != exitClean {
		t.Fatalf("-baseline-write: exit %d %s", r.code, r.stderr)
	}
	writeFile(t, filepath.Join(dir, ".ctrllint.yml"), "exclude-paths: ['^sub/']\n")
	r = runInProcess("-C", dir, "-enable", "badcall", "-baseline", "b", "./...")
	want := "ctrllint: 1 baseline findings no longer occur; rewrite the baseline with -baseline-write b\n"
	if r.code != exitClean || r.stdout != "" || r.stderr != want {
		t.Errorf("excluded after writing: exit %d\nstdout %q\nstderr %q\nwant   %q", r.code, r.stdout, r.stderr, want)
	}
	r = runInProcess("-C", dir, "-enable", "badcall", "-baseline-write", "b", "./...")
	data, _ := os.ReadFile(filepath.Join(dir, "b"))
	if r.code != exitClean || r.stderr != "ctrllint: wrote 4 findings (3 entries) to b\n" || strings.Contains(string(data), "sub/s.go") {
		t.Errorf("excluded when writing: exit %d, stderr %q\n%s", r.code, r.stderr, data)
	}
}
