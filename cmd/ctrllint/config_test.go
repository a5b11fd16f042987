package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// configFixture is fixture's module with a configuration file at its root.
func configFixture(t *testing.T, name, src string) string {
	t.Helper()
	dir := fixture(t)
	if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o666); err != nil {
		t.Fatal(err)
	}
	return dir
}

// analyzersIn are the analyzers of text output's findings, sorted and
// deduplicated, in one string.
func analyzersIn(stdout string) string {
	seen := map[string]bool{}
	var out []string
	for _, m := range regexp.MustCompile(`\((\w+)\)\n`).FindAllStringSubmatch(stdout, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			out = append(out, m[1])
		}
	}
	slices.Sort(out)
	return strings.Join(out, ",")
}

// The file is found in the working directory (after -C) or above it, and
// its exclude-paths are relative to its own directory.
func TestConfigDiscovery(t *testing.T) {
	dir := configFixture(t, ".ctrllint.yml", "enable: [badcall]\nexclude-paths: ['^sub/']\n")
	// From the root: sub/s.go is excluded, only badcall runs.
	r := runInProcess("-C", dir, "./...")
	want := "a.go:7:2: call of bad (badcall)\na_test.go:3:17: call of bad (badcall)\n"
	if r.code != exitFindings || r.stdout != want || r.stderr != "" {
		t.Errorf("from the root: exit %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s", r.code, r.stdout, want, r.stderr)
	}
	// From a subdirectory: the same file, the same base for its paths.
	r = runInProcess("-C", filepath.Join(dir, "sub"), "../...")
	want = filepath.Join(dir, "a.go") + ":7:2: call of bad (badcall)\n" + filepath.Join(dir, "a_test.go") + ":3:17: call of bad (badcall)\n"
	if r.code != exitFindings || r.stdout != want {
		t.Errorf("from sub: exit %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s", r.code, r.stdout, want, r.stderr)
	}
	// .ctrllint.yaml is found too.
	yaml := configFixture(t, ".ctrllint.yaml", "enable: [badcalltwin]\n")
	if r := runInProcess("-C", filepath.Join(yaml, "sub"), "."); r.stdout != "s.go:6:26: call of bad (badcalltwin)\n" {
		t.Errorf(".ctrllint.yaml: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// -config FILE names the file, relative to the -C directory; -config=none
// reads none.
func TestConfigFlag(t *testing.T) {
	dir := configFixture(t, ".ctrllint.yml", "enable: [badcall]\n")
	if err := os.WriteFile(filepath.Join(dir, "ci.yml"), []byte("enable: [badcalltwin]\nexclude-paths: ['_test\\.go$']\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	r := runInProcess("-C", dir, "-config", "ci.yml", "./...")
	if got := analyzersIn(r.stdout); r.code != exitFindings || got != "badcalltwin" || strings.Contains(r.stdout, "a_test.go") {
		t.Errorf("-config ci.yml: exit %d, analyzers %q\n%s%s", r.code, got, r.stdout, r.stderr)
	}
	// Every analyzer of the suite runs; panicky finds nothing here.
	r = runInProcess("-C", dir, "-config=none", "./...")
	if got := analyzersIn(r.stdout); r.code != exitFindings || got != "badcall,badcalltwin,badcallwhole" {
		t.Errorf("-config=none: exit %d, analyzers %q\n%s%s", r.code, got, r.stdout, r.stderr)
	}
	r = runInProcess("-C", dir, "-config", "nosuch.yml", "./...")
	if r.code != exitError || r.stdout != "" || !strings.Contains(r.stderr, "ctrllint: -config: open "+filepath.Join(dir, "nosuch.yml")+": no such file or directory") {
		t.Errorf("missing -config file: exit %d\nstdout %q\nstderr %q", r.code, r.stdout, r.stderr)
	}
}

// A broken file stops the run before anything is loaded: exit 2, nothing
// on stdout, every problem on stderr with the file and line, in every
// format and for -list.
func TestConfigBroken(t *testing.T) {
	dir := configFixture(t, ".ctrllint.yml", "enable: [badcall, nosuch]\nseverity: {badcall: fatal}\n")
	for _, args := range [][]string{{"./..."}, {"-f", "json", "./..."}, {"-f", "sarif", "./..."}, {"-list"}, {"-fix", "./..."}} {
		r := runInProcess(append([]string{"-C", filepath.Join(dir, "sub")}, args...)...)
		want := "ctrllint: " + filepath.Join(dir, ".ctrllint.yml") + `:1: enable: unknown analyzer "nosuch" (analyzers: badcall, panicky, badcallwhole, badcalltwin)` + "\n" +
			"ctrllint: " + filepath.Join(dir, ".ctrllint.yml") + `:2: severity: badcall: want error, warning, note, got "fatal"` + "\n"
		if r.code != exitError || r.stdout != "" || r.stderr != want {
			t.Errorf("%v: exit %d\nstdout %q\nstderr:\n%s\nwant:\n%s", args, r.code, r.stdout, r.stderr, want)
		}
	}
	src, _ := os.ReadFile(filepath.Join(dir, "a.go"))
	if !strings.Contains(string(src), "\tbad()") {
		t.Error("-fix changed a.go despite the broken configuration")
	}
}

// The command line wins over the file, setting by setting.
func TestConfigPrecedence(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		args      []string
		want      string // analyzers reported, or the error
	}{
		{"enable replaces the file's enable", "enable: [badcall]\n", []string{"-enable", "badcalltwin"}, "badcalltwin"},
		{"enable replaces the file's disable", "disable: [badcalltwin]\n", []string{"-enable", "badcalltwin"}, "badcalltwin"},
		{"disable adds to the file's", "disable: [badcalltwin]\n", []string{"-disable", "badcallwhole"}, "badcall"},
		{"disable wins over the file's enable", "enable: [badcall, badcalltwin]\n", []string{"-disable", "badcall"}, "badcalltwin"},
		{"disable leaves nothing of the file's enable", "enable: [badcall]\n", []string{"-disable", "badcall"},
			"ctrllint: -disable badcall and .ctrllint.yml's enable leave no analyzer to run"},
		{"the file alone", "disable: [badcall]\n", nil, "badcalltwin,badcallwhole"},
		{"unknown name on the command line", "enable: [badcall]\n", []string{"-disable", "nosuch"}, `ctrllint: disable: unknown analyzer "nosuch"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := configFixture(t, ".ctrllint.yml", tc.src)
			r := runInProcess(append(append([]string{"-C", dir}, tc.args...), "./...")...)
			if strings.HasPrefix(tc.want, "ctrllint: ") {
				if r.code != exitError || r.stdout != "" || !strings.HasPrefix(r.stderr, tc.want) {
					t.Errorf("exit %d\nstdout %q\nstderr %q\nwant %q", r.code, r.stdout, r.stderr, tc.want)
				}
				return
			}
			if got := analyzersIn(r.stdout); r.code != exitFindings || got != tc.want {
				t.Errorf("exit %d, analyzers %q, want %q\n%s", r.code, got, tc.want, r.stderr)
			}
		})
	}
}

// An analyzer's option from the file, and the command line's flag over it:
// the real listerbypass on its fixture, as TestAnalyzerFlags runs it.
func TestConfigAnalyzerOption(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "src", "current"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(t.TempDir(), "ctrllint.yml")
	if err := os.WriteFile(cfg, []byte("enable: [listerbypass]\nlisterbypass:\n  all: true\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	env := []string{"GOPROXY=off"}
	on := runBinary(t, ctrllintBin, dir, env, "-config", cfg, "./listerbypassall")
	off := runBinary(t, ctrllintBin, dir, env, "-config", cfg, "-listerbypass.all=false", "./listerbypassall")
	if on.code != 1 || !strings.Contains(on.stdout, "the controller has no informer of Secret") || strings.Count(on.stdout, "\n") != strings.Count(on.stdout, "(listerbypass)\n") {
		t.Errorf("all: true from the file: exit %d\n%s%s", on.code, on.stdout, on.stderr)
	}
	if off.code != 0 || off.stdout != "" {
		t.Errorf("-listerbypass.all=false over the file: exit %d\n%s%s", off.code, off.stdout, off.stderr)
	}
}

// An excluded finding is neither reported nor fixed.
func TestConfigExcludeBeforeFix(t *testing.T) {
	dir := configFixture(t, ".ctrllint.yml", "enable: [badcall]\nexclude-paths: ['^sub/s\\.go$', 'nomatch']\n")
	before, _ := os.ReadFile(filepath.Join(dir, "sub", "s.go"))
	r := runInProcess("-C", dir, "-fix", "./...")
	if r.code != exitClean || r.stdout != "" || r.stderr != "ctrllint: applied 2 fixes to 2 files\n" {
		t.Errorf("exit %d\nstdout %q\nstderr %q", r.code, r.stdout, r.stderr)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "sub", "s.go")); string(after) != string(before) {
		t.Errorf("the excluded file was fixed:\n%s", after)
	}
	if a, _ := os.ReadFile(filepath.Join(dir, "a.go")); !strings.Contains(string(a), "\tgood()") {
		t.Errorf("a.go was not fixed:\n%s", a)
	}
}

// Severities reach SARIF's levels, rule and result alike, and the log stays
// valid.
func TestConfigSeveritySARIF(t *testing.T) {
	dir := configFixture(t, ".ctrllint.yml", "enable: [badcall, badcallwhole, badcalltwin]\nseverity:\n  default: note\n  badcall: error\n  badcalltwin: warning\n")
	r := runInProcess("-C", dir, "-f", "sarif", "./...")
	if r.code != exitFindings || r.stderr != "" {
		t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
	}
	log := checkSARIF(t, []byte(r.stdout))
	run := log["runs"].([]any)[0].(map[string]any)
	want := map[string]string{"badcall": "error", "badcallwhole": "note", "badcalltwin": "warning"}
	for _, rule := range run["tool"].(map[string]any)["driver"].(map[string]any)["rules"].([]any) {
		rule := rule.(map[string]any)
		if got := rule["defaultConfiguration"].(map[string]any)["level"]; got != want[rule["id"].(string)] {
			t.Errorf("rule %s: level %v, want %s", rule["id"], got, want[rule["id"].(string)])
		}
	}
	results := run["results"].([]any)
	if len(results) != 9 {
		t.Fatalf("%d results, want 9", len(results))
	}
	for _, res := range results {
		res := res.(map[string]any)
		if got := res["level"]; got != want[res["ruleId"].(string)] {
			t.Errorf("result of %s: level %v, want %s", res["ruleId"], got, want[res["ruleId"].(string)])
		}
	}
	// Without a file, every level is warning, as before: a run's
	// severities are its own.
	r = runInProcess("-C", dir, "-config=none", "-f", "sarif", "./...")
	if strings.Contains(r.stdout, `"level": "error"`) || strings.Contains(r.stdout, `"level": "note"`) || !strings.Contains(r.stdout, `"level": "warning"`) {
		t.Errorf("-config=none: levels other than warning:\n%s", r.stdout)
	}
	// The same severities in JSON, GitHub annotations and checkstyle.
	r = runInProcess("-C", dir, "-f", "json", "./...")
	var items []struct{ Analyzer, Severity string }
	if err := json.Unmarshal([]byte(r.stdout), &items); err != nil || len(items) != 9 {
		t.Fatalf("-f json: %d items, %v\n%s", len(items), err, r.stdout)
	}
	for _, it := range items {
		if it.Severity != want[it.Analyzer] {
			t.Errorf("-f json: %s has severity %q, want %s", it.Analyzer, it.Severity, want[it.Analyzer])
		}
	}
	r = runInProcess("-C", dir, "-f", "github", "./...")
	for _, prefix := range []string{"::error file=", "::notice file=", "::warning file="} {
		if !strings.Contains(r.stdout, prefix) {
			t.Errorf("-f github: no %s line:\n%s", prefix, r.stdout)
		}
	}
	r = runInProcess("-C", dir, "-f", "checkstyle", "./...")
	for _, attr := range []string{`severity="error"`, `severity="info"`, `severity="warning"`} {
		if !strings.Contains(r.stdout, attr) {
			t.Errorf("-f checkstyle: no %s:\n%s", attr, r.stdout)
		}
	}
	// And in the text, as compilers write it, but for a warning's, the
	// default, which is not written: without a file the lines are what
	// they always were.
	r = runInProcess("-C", dir, "./...")
	for _, line := range []string{
		"a.go:7:2: error: call of bad (badcall)\n",
		"a.go:7:2: note: call of bad (badcallwhole)\n",
		"a.go:7:2: call of bad (badcalltwin)\n",
	} {
		if !strings.Contains(r.stdout, line) {
			t.Errorf("-f text: no line %q:\n%s", line, r.stdout)
		}
	}
	r = runInProcess("-C", dir, "-config=none", "./...")
	if strings.Contains(r.stdout, ": error: ") || strings.Contains(r.stdout, ": note: ") || !strings.Contains(r.stdout, "a.go:7:2: call of bad (badcall)\n") {
		t.Errorf("-config=none: -f text with severities:\n%s", r.stdout)
	}
}

// -list shows the selection the file and the command line make, and says
// on stderr which file it read.
func TestConfigList(t *testing.T) {
	dir := configFixture(t, ".ctrllint.yml", "disable: [panicky, badcalltwin]\n")
	state := func(out, name string) string {
		m := regexp.MustCompile(`(?m)^` + name + `\s+(\w+)\s`).FindStringSubmatch(out)
		if m == nil {
			return "missing"
		}
		return m[1]
	}
	r := runInProcess("-C", filepath.Join(dir, "sub"), "-list")
	if r.code != exitClean || state(r.stdout, "panicky") != "disabled" || state(r.stdout, "badcalltwin") != "disabled" || state(r.stdout, "badcall") != "enabled" {
		t.Errorf("-list: exit %d\n%s", r.code, r.stdout)
	}
	if want := "ctrllint: configuration file " + filepath.Join(dir, ".ctrllint.yml") + "\n"; r.stderr != want {
		t.Errorf("-list stderr %q, want %q", r.stderr, want)
	}
	r = runInProcess("-C", dir, "-list", "-enable", "badcalltwin")
	if state(r.stdout, "badcalltwin") != "enabled" || state(r.stdout, "badcall") != "disabled" || r.stderr != "ctrllint: configuration file .ctrllint.yml\n" {
		t.Errorf("-list -enable: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runInProcess("-C", dir, "-list", "-config=none")
	if state(r.stdout, "panicky") != "enabled" || r.stderr != "ctrllint: no configuration file (-config=none)\n" {
		t.Errorf("-list -config=none: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// A second YAML document in the file stops the run (exit 2) at the line
// where it starts, in the discovered file and in -config's: its settings
// used to be ignored, and an empty first document made the file no
// settings at all. A --- before the one document and a ... after it are
// fine.
func TestConfigDocuments(t *testing.T) {
	dir := configFixture(t, ".ctrllint.yml", "# settings\n---\nenable: [badcall]\n---\ndisable: [badcall]\n")
	if err := os.WriteFile(filepath.Join(dir, "ci.yml"), []byte("---\n---\nenable: [badcalltwin]\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	const second = ": a second YAML document: a configuration file is one document (only the first would be read)\n"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"./..."}, "ctrllint: .ctrllint.yml:4" + second},
		{[]string{"-list"}, "ctrllint: .ctrllint.yml:4" + second},
		{[]string{"-config", "ci.yml", "./..."}, "ctrllint: -config: ci.yml:2" + second},
	} {
		r := runInProcess(append([]string{"-C", dir}, tc.args...)...)
		if r.code != exitError || r.stdout != "" || r.stderr != tc.want {
			t.Errorf("%v: exit %d\nstdout %q\nstderr %q\nwant   %q", tc.args, r.code, r.stdout, r.stderr, tc.want)
		}
	}
	one := configFixture(t, ".ctrllint.yml", "# settings\n---\nenable: [badcall]\n...\n# the end\n")
	if r := runInProcess("-C", one, "./..."); r.code != exitFindings || analyzersIn(r.stdout) != "badcall" || r.stderr != "" {
		t.Errorf("one document between --- and ...: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
