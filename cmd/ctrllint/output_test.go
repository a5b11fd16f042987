package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

// fixture has findings in two packages; the call in sub follows two
// multi-byte characters on its line so byte and UTF-16 columns differ.
func fixture(t *testing.T) string {
	return testanalyzers.WriteModule(t, map[string]string{
		"a.go": `package m

func bad()  {}
func good() {}

func F() {
	bad()
}
`,
		"a_test.go": "package m\n\nfunc helper() { bad() }\n",
		"sub/s.go":  "package sub\n\nfunc bad()  {}\nfunc good() {}\n\nfunc S() { _ = \"é😀\"; bad() }\n",
	})
}

func TestTextOutput(t *testing.T) {
	dir := fixture(t)
	r := runInProcess("-C", dir, "-enable", "badcall", "./...")
	want := "a.go:7:2: call of bad (badcall)\n" +
		"a_test.go:3:17: call of bad (badcall)\n" +
		"sub/s.go:6:26: call of bad (badcall)\n"
	if r.code != exitFindings || r.stdout != want || r.stderr != "" {
		t.Errorf("exit %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s", r.code, r.stdout, want, r.stderr)
	}

	// -test=false drops the _test.go finding.
	r = runInProcess("-C", dir, "-enable", "badcall", "-test=false", "./...")
	if r.stdout != "a.go:7:2: call of bad (badcall)\nsub/s.go:6:26: call of bad (badcall)\n" {
		t.Errorf("-test=false:\n%s", r.stdout)
	}

	// Files outside the working directory are printed absolute.
	r = runInProcess("-C", filepath.Join(dir, "sub"), "-enable", "badcall", "-test=false", "../...")
	want = filepath.Join(dir, "a.go") + ":7:2: call of bad (badcall)\ns.go:6:26: call of bad (badcall)\n"
	if r.stdout != want {
		t.Errorf("outside the working directory:\n%s\nwant:\n%s", r.stdout, want)
	}
}

func TestExitCodes(t *testing.T) {
	clean := testanalyzers.WriteModule(t, map[string]string{"a.go": "package m\n\nfunc F() {}\n"})
	broken := testanalyzers.WriteModule(t, map[string]string{
		"a.go":   "package m\n\nfunc bad() {}\n\nfunc F() { bad() }\n",
		"b/b.go": "package b\n\nvar x int = \"s\"\n",
	})
	boom := testanalyzers.WriteModule(t, map[string]string{"boom/boom.go": "package boom\n\nfunc bad() {}\n\nfunc B() { bad() }\n"})
	for _, tc := range []struct {
		name       string
		args       []string
		code       int
		stdout     string
		stderrHave string
	}{
		{"clean", []string{"-C", clean, "./..."}, exitClean, "", ""},
		{"findings", []string{"-C", broken, "-enable", "badcall", "."}, exitFindings, "a.go:5:12: call of bad (badcall)\n", ""},
		// The healthy package's findings are still reported.
		{"load error", []string{"-C", broken, "-enable", "badcall", "./..."}, exitError, "a.go:5:12: call of bad (badcall)\n", "ctrllint: b/b.go:3:13: cannot use \"s\""},
		{"analyzer panic", []string{"-C", boom, "-enable", "badcall,panicky", "./..."}, exitError, "boom/boom.go:5:12: call of bad (badcall)\n",
			"ctrllint: internal error: analyzer panicky failed on package example.com/m/boom at boom/boom.go:5:1: panic: assignment to entry in nil map\n"},
		// The selection rule is analyzers.Select's, which every front end shares.
		{"enabled and disabled", []string{"-C", clean, "-enable", "badcall", "-disable", "badcall", "./..."}, exitError, "", "ctrllint: badcall both enabled and disabled"},
		{"everything disabled", []string{"-C", clean, "-disable", "badcall,panicky,badcallwhole,badcalltwin", "./..."}, exitError, "", "ctrllint: enable and disable leave no analyzer to run"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runInProcess(tc.args...)
			if r.code != tc.code || r.stdout != tc.stdout || !strings.Contains(r.stderr, tc.stderrHave) || tc.stderrHave == "" && r.stderr != "" {
				t.Errorf("exit %d (want %d)\nstdout %q (want %q)\nstderr %q (want it to contain %q)", r.code, tc.code, r.stdout, tc.stdout, r.stderr, tc.stderrHave)
			}
			if strings.Contains(r.stderr, "goroutine ") {
				t.Errorf("stack trace printed: %s", r.stderr)
			}
		})
	}
}

func TestJSONOutput(t *testing.T) {
	dir := fixture(t)
	r := runInProcess("-C", dir, "-enable", "badcall", "-f", "json", "./...")
	if r.code != exitFindings || r.stderr != "" {
		t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
	}
	var got []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	if len(got) != 3 {
		t.Fatalf("%d findings:\n%s", len(got), r.stdout)
	}
	src := "package m\n\nfunc bad()  {}\nfunc good() {}\n\nfunc F() {\n\tbad()\n}\n"
	start := float64(strings.Index(src, "bad()\n}"))
	want := map[string]any{
		"analyzer": "badcall", "category": "calls", "severity": "warning", "message": "call of bad",
		"file": "a.go", "line": 7.0, "column": 2.0, "endLine": 7.0, "endColumn": 7.0,
		"fixes": []any{map[string]any{
			"message": "call good instead",
			"edits":   []any{map[string]any{"file": "a.go", "start": start, "end": start + 3, "newText": "good"}},
		}},
	}
	if !reflect.DeepEqual(got[0], want) {
		t.Errorf("first finding:\n%v\nwant:\n%v", got[0], want)
	}
	// Columns in JSON are bytes, as in the text output.
	if got[2]["file"] != "sub/s.go" || got[2]["column"] != 26.0 || got[2]["endColumn"] != 31.0 {
		t.Errorf("third finding: %v", got[2])
	}

	clean := testanalyzers.WriteModule(t, map[string]string{"a.go": "package m\n"})
	r = runInProcess("-C", clean, "-f", "json", "./...")
	if r.code != exitClean || r.stdout != "[]\n" {
		t.Errorf("no findings: exit %d, %q", r.code, r.stdout)
	}
}

func TestSARIFOutput(t *testing.T) {
	dir := fixture(t)
	r := runInProcess("-C", dir, "-enable", "badcall,badcallwhole", "-f", "sarif", "./...")
	if r.code != exitFindings || r.stderr != "" {
		t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
	}
	log := checkSARIF(t, []byte(r.stdout))
	run := log["runs"].([]any)[0].(map[string]any)
	driver := run["tool"].(map[string]any)["driver"].(map[string]any)
	rules := driver["rules"].([]any)
	if len(rules) != 2 {
		t.Fatalf("want one rule per enabled analyzer, got %d", len(rules))
	}
	rule := rules[0].(map[string]any)
	wantRule := map[string]any{
		"id": "badcall", "name": "ReportCallsToBad", // its summary's words
		"shortDescription":     map[string]any{"text": "report calls to bad"},
		"fullDescription":      map[string]any{"text": "Calls to bad should call good."},
		"helpUri":              "https://example.com/docs/badcall.md",
		"help":                 map[string]any{"text": "Calls to bad should\ncall good.\n\nWRONG\n\n\tbad()\n", "markdown": "# badcall\n\nCalls to bad should call good.\n"},
		"defaultConfiguration": map[string]any{"level": "warning"},
	}
	if !reflect.DeepEqual(rule, wantRule) {
		t.Errorf("rule:\n%v\nwant:\n%v", rule, wantRule)
	}
	// An analyzer without a documentation page falls back to its Doc.
	if r2 := rules[1].(map[string]any); r2["id"] != "badcallwhole" || r2["helpUri"] != "https://example.com/badcallwhole" ||
		r2["shortDescription"].(map[string]any)["text"] != "badcallwhole: report calls to bad" || r2["name"] != "ReportCallsToBad" {
		t.Errorf("fallback rule: %v", r2)
	}
	base := run["originalUriBaseIds"].(map[string]any)["%SRCROOT%"].(map[string]any)["uri"]
	if base != "file://"+filepath.ToSlash(dir)+"/" {
		t.Errorf("%%SRCROOT%% = %v", base)
	}

	results := run["results"].([]any)
	if len(results) != 6 {
		t.Fatalf("%d results", len(results))
	}
	// Sorted by file, line, column, then analyzer: the sub/s.go pair is last.
	res := results[4].(map[string]any)
	if res["ruleId"] != "badcall" || res["ruleIndex"] != 0.0 || res["level"] != "warning" ||
		res["message"].(map[string]any)["text"] != "call of bad" {
		t.Errorf("result: %v", res)
	}
	loc := res["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
	art := loc["artifactLocation"].(map[string]any)
	if art["uri"] != "sub/s.go" || art["uriBaseId"] != "%SRCROOT%" {
		t.Errorf("artifactLocation: %v", art)
	}
	// "é" is 2 bytes, 1 UTF-16 unit; "😀" 4 bytes, 2 units: byte column
	// 26 is UTF-16 column 23.
	wantRegion := map[string]any{"startLine": 6.0, "startColumn": 23.0, "endLine": 6.0, "endColumn": 28.0}
	if !reflect.DeepEqual(loc["region"], wantRegion) {
		t.Errorf("region %v, want %v", loc["region"], wantRegion)
	}
	fix := res["fixes"].([]any)[0].(map[string]any)
	change := fix["artifactChanges"].([]any)[0].(map[string]any)
	repl := change["replacements"].([]any)[0].(map[string]any)
	wantRepl := map[string]any{
		"deletedRegion":   map[string]any{"startLine": 6.0, "startColumn": 23.0, "endLine": 6.0, "endColumn": 26.0},
		"insertedContent": map[string]any{"text": "good"},
	}
	if fix["description"].(map[string]any)["text"] != "call good instead" || change["artifactLocation"].(map[string]any)["uri"] != "sub/s.go" || !reflect.DeepEqual(repl, wantRepl) {
		t.Errorf("fix: %v", fix)
	}
	if ri := results[5].(map[string]any); ri["ruleId"] != "badcallwhole" || ri["ruleIndex"] != 1.0 {
		t.Errorf("second analyzer's result: %v", ri)
	}
	if inv := run["invocations"].([]any)[0].(map[string]any); inv["executionSuccessful"] != true {
		t.Errorf("invocation: %v", inv)
	}

	// Failures are in the log too, and the log is still valid.
	broken := testanalyzers.WriteModule(t, map[string]string{"a.go": "package m\n\nvar x int = \"s\"\n"})
	r = runInProcess("-C", broken, "-f", "sarif", "./...")
	log = checkSARIF(t, []byte(r.stdout))
	run = log["runs"].([]any)[0].(map[string]any)
	inv := run["invocations"].([]any)[0].(map[string]any)
	notes, _ := inv["toolExecutionNotifications"].([]any)
	if r.code != exitError || inv["executionSuccessful"] != false || len(notes) != 1 ||
		!strings.HasPrefix(notes[0].(map[string]any)["message"].(map[string]any)["text"].(string), "a.go:3:13: cannot use") ||
		len(run["results"].([]any)) != 0 {
		t.Errorf("broken module: exit %d, invocation %v", r.code, inv)
	}
}

func TestFixFlag(t *testing.T) {
	dir := fixture(t)
	r := runInProcess("-C", dir, "-enable", "badcall", "-fix", "./...")
	if r.code != exitClean || r.stdout != "" || r.stderr != "ctrllint: applied 3 fixes to 3 files\n" {
		t.Errorf("-fix: exit %d\nstdout %q\nstderr %q", r.code, r.stdout, r.stderr)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "sub", "s.go"))
	if want := "package sub\n\nfunc bad()  {}\nfunc good() {}\n\nfunc S() { _ = \"é😀\"; good() }\n"; string(got) != want {
		t.Errorf("sub/s.go:\n%s\nwant:\n%s", got, want)
	}
	if r := runInProcess("-C", dir, "-enable", "badcall", "./..."); r.code != exitClean {
		t.Errorf("after -fix: exit %d %s", r.code, r.stdout)
	}
}

// Conflicting fixes: the second is skipped with a warning and its
// finding is still reported; identical edits from two analyzers are
// applied once and both findings count as fixed.
func TestFixConflicts(t *testing.T) {
	src := "package m\n\nfunc bad()  {}\nfunc good() {}\n\nfunc F() {\n\tbad()\n}\n"
	dir := testanalyzers.WriteModule(t, map[string]string{"a.go": src})
	r := runInProcess("-C", dir, "-enable", "badcall,badcalltwin,badcallwhole", "-fix", ".")
	wantStderr := "ctrllint: warning: a.go:7:2: skipped fix \"call good instead\" of badcallwhole: conflicts with another fix\n" +
		"ctrllint: applied 2 fixes to 1 files\n"
	if r.code != exitFindings || r.stdout != "a.go:7:2: call of bad (badcallwhole)\n" || r.stderr != wantStderr {
		t.Errorf("exit %d\nstdout %q\nstderr %q\nwant   %q", r.code, r.stdout, r.stderr, wantStderr)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "a.go"))
	if want := strings.Replace(src, "\tbad()", "\tgood()", 1); string(got) != want {
		t.Errorf("a.go:\n%s\nwant:\n%s", got, want)
	}
}

// A second run over unchanged code answers from the result cache with the
// same output; -cache=false and CTRLLINT_CACHE=off neither read nor write it.
func TestResultCacheFlag(t *testing.T) {
	dir := fixture(t)
	for _, tc := range []struct {
		name   string
		env    string // CTRLLINT_CACHE, "" for a fresh directory
		args   []string
		stored bool
	}{
		{"default", "", nil, true},
		{"flag off", "", []string{"-cache=false"}, false},
		{"env off", "off", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cache := t.TempDir()
			env := tc.env
			if env == "" {
				env = cache
			}
			t.Setenv("CTRLLINT_CACHE", env)
			args := append(append([]string{"-C", dir, "-enable", "badcall"}, tc.args...), "./...")
			first, second := runInProcess(args...), runInProcess(args...)
			if first.code != exitFindings || first != second {
				t.Errorf("runs differ or did not find anything:\nfirst  %+v\nsecond %+v", first, second)
			}
			entries, _ := filepath.Glob(filepath.Join(cache, "results", "*", "*.json"))
			if stored := len(entries) > 0; stored != tc.stored {
				t.Errorf("cache entries %v, want stored=%v", entries, tc.stored)
			}
		})
	}
}

// A file saved while the analyzers run (an editor saving it) is not
// written by -fix: the fixes' offsets are of the text analysed. -fix once
// applied them to the saved text at the wrong places ("applied 1 fixes",
// exit 0, a file that no longer compiled), or lost the saved line.
func TestFixSavedDuringAnalysis(t *testing.T) {
	dir := fixture(t)
	a := filepath.Join(dir, "a.go")
	orig, _ := os.ReadFile(a)
	saved := "// Package m is saved by an editor during the run.\n" + string(orig)
	var once sync.Once
	editor := &analysis.Analyzer{
		Name: "editor",
		Doc:  "editor: saves a.go while the analyzers run",
		Run: func(pass *analysis.Pass) (any, error) {
			if pass.Pkg.Path() != "example.com/m" {
				return nil, nil // a.go's package: parsed already
			}
			once.Do(func() {
				if err := os.WriteFile(a, []byte(saved), 0o644); err != nil {
					t.Error(err)
				}
			})
			return nil, nil
		},
	}
	s := testSuite()
	s.analyzers = append(s.analyzers, editor)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"-C", dir, "-enable", "badcall,editor", "-fix", "-cache=false", "-test=false", "./..."}, &stdout, &stderr, s)
	want := "ctrllint: -fix: a.go changed since it was analysed: its findings and fixes are of the old content; nothing was written, run again\n"
	if code != exitError || stdout.String() != "" || stderr.String() != want {
		t.Errorf("exit %d\nstdout %q\nstderr %q\nwant   %q", code, stdout.String(), stderr.String(), want)
	}
	if got, _ := os.ReadFile(a); string(got) != saved {
		t.Errorf("a.go after -fix:\n%s\nwant the editor's save:\n%s", got, saved)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "sub", "s.go")); strings.Contains(string(got), "; good()") {
		t.Errorf("sub/s.go was fixed although the run wrote nothing:\n%s", got)
	}
}

// -fix does not write through a symbolic link in the module to a file
// outside it (another checkout, a vendored copy, the module cache): the
// finding is left with a warning. -fix-outside-module writes there. -fix
// once rewrote the link's target silently.
func TestFixLinkOutsideModule(t *testing.T) {
	dir := fixture(t)
	elsewhere := filepath.Join(t.TempDir(), "shared.go")
	src := "package m\n\nfunc Shared() { bad() }\n"
	if err := os.WriteFile(elsewhere, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(dir, "shared.go")); err != nil {
		t.Fatal(err)
	}
	r := runInProcess("-C", dir, "-enable", "badcall", "-test=false", "-fix", ".")
	wantStderr := "ctrllint: warning: shared.go:3:17: skipped fix \"call good instead\" of badcall: shared.go is a symbolic link to " + elsewhere +
		", outside its module (" + dir + ")\n" +
		"ctrllint: -fix-outside-module writes through symbolic links to files outside their module\n" +
		"ctrllint: applied 1 fixes to 1 files\n"
	if r.code != exitFindings || r.stdout != "shared.go:3:17: call of bad (badcall)\n" || r.stderr != wantStderr {
		t.Errorf("exit %d\nstdout %q\nstderr %q\nwant   %q", r.code, r.stdout, r.stderr, wantStderr)
	}
	if got, _ := os.ReadFile(elsewhere); string(got) != src {
		t.Errorf("the file outside the module was written:\n%s", got)
	}
	r = runInProcess("-C", dir, "-enable", "badcall", "-test=false", "-fix", "-fix-outside-module", ".")
	if got, _ := os.ReadFile(elsewhere); r.code != exitClean || string(got) != strings.Replace(src, "bad()", "good()", 1) {
		t.Errorf("-fix-outside-module: exit %d %q %q\n%s", r.code, r.stdout, r.stderr, got)
	}
	if st, err := os.Lstat(filepath.Join(dir, "shared.go")); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("shared.go is no longer a link: %v %v", st, err)
	}
	if r := runInProcess("-C", dir, "-fix-outside-module", "."); r.code != exitError || r.stderr != "ctrllint: -fix-outside-module needs -fix\n" {
		t.Errorf("without -fix: exit %d %q", r.code, r.stderr)
	}
}
