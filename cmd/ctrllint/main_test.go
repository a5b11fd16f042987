package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers"
	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

// ctrllintBin is the real command, built once, with the real analyzers.
var ctrllintBin string

// suiteEnv makes the test binary itself act as ctrllint (standalone or
// go vet tool) with testSuite's analyzers, whose findings are known.
const suiteEnv = "CTRLLINT_TEST_SUITE"

func TestMain(m *testing.M) {
	switch os.Getenv(suiteEnv) {
	case "1":
		os.Exit(entry(os.Args[1:], testSuite()))
	case "slow":
		os.Exit(entry(os.Args[1:], slowSuite()))
	case "facts":
		os.Exit(entry(os.Args[1:], suite{analyzers: []*analysis.Analyzer{testanalyzers.CallsBad}, lookup: func(string) (analyzers.Info, bool) { return analyzers.Info{}, false }}))
	}
	flag.Parse()
	if f := flag.Lookup("test.fuzz"); f != nil && f.Value.String() != "" {
		// Fuzzing (the coordinator and each worker run TestMain): the
		// fuzz targets run no command, and building it took most of
		// fuzz-smoke's time.
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "ctrllint-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	ctrllintBin = filepath.Join(dir, "ctrllint")
	// A private result cache, removed with the binary.
	os.Setenv("CTRLLINT_CACHE", filepath.Join(dir, "cache"))
	if out, err := exec.Command("go", "build", "-o", ctrllintBin, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building ctrllint: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func testSuite() suite {
	all := []*analysis.Analyzer{testanalyzers.BadCall, testanalyzers.Panicky, testanalyzers.BadCallWhole, testanalyzers.BadCallTwin}
	return suite{
		analyzers: all,
		lookup: func(name string) (analyzers.Info, bool) {
			if name != "badcall" {
				return analyzers.Info{}, false // exercise the fallback to Analyzer.Doc
			}
			return analyzers.Info{
				Name:     name,
				Summary:  "report calls to bad",
				URL:      "https://example.com/docs/badcall.md",
				Text:     "Calls to bad should\ncall good.\n\nWRONG\n\n\tbad()\n",
				Markdown: "# badcall\n\nCalls to bad should call good.\n",
			}, true
		},
	}
}

type result struct {
	stdout, stderr string
	code           int
}

// runBinary runs bin in dir with extra environment variables.
func runBinary(t *testing.T, bin, dir string, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("running %s: %v", bin, err)
		}
		code = ee.ExitCode()
	}
	return result{stdout.String(), stderr.String(), code}
}

// runInProcess runs the command with the test analyzers.
func runInProcess(args ...string) result {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &stdout, &stderr, testSuite())
	return result{stdout.String(), stderr.String(), code}
}

func knownRealAnalyzers() string { return knownNames(analyzers.All()) }

func TestBadInput(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		args  []string
		// want are substrings of stderr, in order.
		want []string
	}{{
		name:  "type error",
		files: map[string]string{"a.go": "package m\n", "b/b.go": "package b\n\nfunc G() int { return \"x\" }\n"},
		args:  []string{"./..."},
		want:  []string{`ctrllint: b/b.go:3:23: cannot use "x" (untyped string constant) as int value in return statement` + "\n"},
	}, {
		name:  "syntax error",
		files: map[string]string{"a.go": "package m\n\nfunc F( {\n"},
		args:  []string{"./..."},
		want:  []string{"ctrllint: a.go:3:"},
	}, {
		name:  "missing module",
		files: map[string]string{"a.go": "package m\n\nimport \"example.com/nope\"\n\nvar _ = nope.X\n"},
		args:  []string{"./..."},
		want:  []string{"ctrllint: a.go:3:8: no required module provides package example.com/nope; to add it:", "go get example.com/nope"},
	}, {
		name:  "pattern matching nothing",
		files: map[string]string{"a.go": "package m\n", "empty/README": "x"},
		args:  []string{"./empty/..."},
		want:  []string{"ctrllint: no packages matched ./empty/...\n"},
	}, {
		name:  "missing directory",
		files: map[string]string{"a.go": "package m\n"},
		args:  []string{"./nosuchdir"},
		want:  []string{"ctrllint: ", "nosuchdir", "directory not found"},
	}, {
		name:  "no patterns",
		files: map[string]string{"a.go": "package m\n"},
		args:  nil,
		want:  []string{"ctrllint: no packages given"},
	}, {
		name:  "unknown flag",
		files: map[string]string{"a.go": "package m\n"},
		args:  []string{"-bogus", "./..."},
		want:  []string{"flag provided but not defined: -bogus", "usage: ctrllint"},
	}, {
		name:  "unknown analyzer in -enable",
		files: map[string]string{"a.go": "package m\n"},
		args:  []string{"-enable", "tombstone,nope", "./..."},
		want:  []string{`ctrllint: enable: unknown analyzer "nope" (analyzers: ` + knownRealAnalyzers() + ")"},
	}, {
		name:  "unknown analyzer in -disable",
		files: map[string]string{"a.go": "package m\n"},
		args:  []string{"-disable=nope", "./..."},
		want:  []string{`ctrllint: disable: unknown analyzer "nope"`},
	}, {
		name:  "unknown analyzer in -explain",
		files: map[string]string{"a.go": "package m\n"},
		args:  []string{"-explain", "nope"},
		want:  []string{`ctrllint: -explain: unknown analyzer "nope" (known: ` + knownRealAnalyzers() + ")"},
	}, {
		name:  "unknown format",
		files: map[string]string{"a.go": "package m\n"},
		args:  []string{"-f", "xml", "./..."},
		want:  []string{`ctrllint: unknown output format -f "xml"`},
	}, {
		name:  "bad -C",
		files: map[string]string{"a.go": "package m\n"},
		args:  []string{"-C", "nosuchdir", "./..."},
		want:  []string{"ctrllint: -C: ", "nosuchdir"},
	}, {
		name:  "not in a module",
		files: map[string]string{"go.mod": "", "a.go": "package m\n"},
		args:  []string{"./..."},
		want:  []string{"ctrllint: "},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := testanalyzers.WriteModule(t, tc.files)
			r := runBinary(t, ctrllintBin, dir, nil, tc.args...)
			if r.code != exitError {
				t.Errorf("exit code %d, want %d", r.code, exitError)
			}
			rest := r.stderr
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("stderr does not contain %q (in order):\n%s", w, r.stderr)
				}
				rest = rest[i+len(w):]
			}
			for _, bad := range []string{"panic", "goroutine ", ".go:0"} {
				if strings.Contains(r.stderr+r.stdout, bad) {
					t.Errorf("output contains %q:\n%s%s", bad, r.stdout, r.stderr)
				}
			}
			if r.stdout != "" && !strings.HasPrefix(r.stderr, "flag provided") {
				t.Errorf("stdout not empty: %q", r.stdout)
			}
		})
	}
}

func TestExplainListVersion(t *testing.T) {
	dir := t.TempDir()
	all := analyzers.All()
	if len(all) == 0 {
		t.Fatal("no analyzers")
	}
	name := all[0].Name
	info, _ := analyzers.Lookup(name)

	r := runBinary(t, ctrllintBin, dir, nil, "-explain", name)
	if r.code != 0 || !strings.HasPrefix(r.stdout, name+": "+info.Summary+"\n\n") ||
		!strings.Contains(r.stdout, info.Text) || !strings.HasSuffix(r.stdout, "\nOnline documentation: "+info.URL+"\n") {
		t.Errorf("-explain %s: exit %d\n%s%s", name, r.code, r.stdout, r.stderr)
	}

	r = runBinary(t, ctrllintBin, dir, nil, "-list")
	if r.code != 0 || len(strings.Split(strings.TrimSpace(r.stdout), "\n")) != len(all) {
		t.Errorf("-list: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, a := range all {
		in, _ := analyzers.Lookup(a.Name)
		line := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(a.Name) + `\s+enabled\s+` + regexp.QuoteMeta(in.Summary) + `$`)
		if !line.MatchString(r.stdout) {
			t.Errorf("-list lacks %s enabled with its summary:\n%s", a.Name, r.stdout)
		}
	}
	r = runBinary(t, ctrllintBin, dir, nil, "-list", "-disable", name)
	if r.code != 0 || !regexp.MustCompile(`(?m)^`+regexp.QuoteMeta(name)+`\s+disabled\s`).MatchString(r.stdout) {
		t.Errorf("-list -disable: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	for _, flag := range []string{"-V", "-version"} {
		r = runBinary(t, ctrllintBin, dir, nil, flag)
		if r.code != 0 || !strings.HasPrefix(r.stdout, "ctrllint version ") {
			t.Errorf("%s: exit %d %q %q", flag, r.code, r.stdout, r.stderr)
		}
	}
	r = runBinary(t, ctrllintBin, dir, nil, "-h")
	if r.code != 0 || !strings.Contains(r.stderr, "usage: ctrllint") {
		t.Errorf("-h: exit %d %q", r.code, r.stderr)
	}
}

// The real analyzers on clean code: exit 0 and no output, in every format.
func TestCleanModule(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{"a.go": "package m\n\nfunc F() {}\n", "a_test.go": "package m\n"})
	clean := map[string]string{
		"text":       "",
		"json":       "[]\n",
		"github":     "",
		"checkstyle": "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\"></checkstyle>\n",
	}
	for _, f := range formats {
		r := runBinary(t, ctrllintBin, dir, nil, "-f", f, "./...")
		if r.code != exitClean || r.stderr != "" {
			t.Errorf("-f %s: exit %d, stderr %q", f, r.code, r.stderr)
		}
		if want, ok := clean[f]; ok && r.stdout != want {
			t.Errorf("-f %s: stdout %q, want %q", f, r.stdout, want)
		}
	}
}
