package action

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ctrllint/ctrllint/analyzers"
	"github.com/ctrllint/ctrllint/internal/newcode/gittest"
)

// fixture is a git repository holding the bundled example controller
// (testdata/src/current/example: one finding of every analyzer, compiled
// against the real client-go from the module cache), a package with no
// findings (clean), and a .ctrllint.yml that disables sharedowner.
func fixture(t *testing.T) string {
	t.Helper()
	src := filepath.Join(root, "testdata", "src", "current")
	dir := t.TempDir()
	files := map[string]string{
		".ctrllint.yml":  "disable: [sharedowner]\n",
		"clean/clean.go": "package clean\n\nfunc Fine() {}\n",
	}
	for _, name := range []string{"go.mod", "go.sum"} {
		files[name] = read(t, filepath.Join(src, name))
	}
	names, err := filepath.Glob(filepath.Join(src, "example", "*.go"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no example in %s: %v", src, err)
	}
	for _, name := range names {
		files["example/"+filepath.Base(name)] = read(t, name)
	}
	// In the past: the result cache does not keep what it found in a
	// file that may still be being written.
	past := time.Now().Add(-time.Hour)
	for name, text := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, past, past); err != nil {
			t.Fatal(err)
		}
	}
	gittest.Isolate(t)
	r := gittest.Init(t, dir)
	r.Git("add", "-A")
	r.Git("commit", "-q", "-m", "fixture")
	return dir
}

func read(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// jobEnv is the test's environment without what a runner or a workflow
// would set, offline (the module cache only), with ctrllint's cache in
// cacheDir.
func jobEnv(cacheDir string, extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GITHUB_") || strings.HasPrefix(k, "RUNNER_") || strings.HasPrefix(k, "INPUT_") ||
			strings.HasPrefix(k, "CTRLLINT") || k == "GOFLAGS" || k == "GOPROXY" || k == "GOWORK" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, append([]string{"GOPROXY=off", "GOFLAGS=-mod=mod", "GOWORK=off", "CTRLLINT_CACHE=" + cacheDir}, extra...)...)
}

func newRunner(t *testing.T, workspace string, env []string) *runner {
	r := &runner{t: t, workspace: workspace, temp: t.TempDir(), env: env, restoreHit: "false"}
	r.pathFile = filepath.Join(r.temp, "github_path")
	if err := os.WriteFile(r.pathFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return r
}

type sarifLog struct {
	Runs []struct {
		Results []struct {
			RuleID    string `json:"ruleId"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI string `json:"uri"`
					} `json:"artifactLocation"`
				} `json:"physicalLocation"`
			} `json:"locations"`
		} `json:"results"`
	} `json:"runs"`
}

func readSARIF(t *testing.T, path string) sarifLog {
	t.Helper()
	var log sarifLog
	if err := json.Unmarshal([]byte(read(t, path)), &log); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("%s: %d runs, want 1", path, len(log.Runs))
	}
	return log
}

// TestActionOnFixture uses the action on a fixture repository, as a
// workflow would: its install step builds ctrllint from this checkout,
// as version local does.
func TestActionOnFixture(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ctrllint and analyses the example against client-go")
	}
	a := readAction(t)
	ws := fixture(t)
	cache := t.TempDir()
	r := newRunner(t, ws, jobEnv(cache))

	t.Run("findings fail the job after the upload", func(t *testing.T) {
		r.t = t
		res := r.use(a, nil, "")
		if res.failed != "check" || res.code != 1 {
			t.Fatalf("step %q failed with %d, want check with 1 (findings)\n%s", res.failed, res.code, res.log)
		}
		if res.action["exit-code"] != "1" || res.action["sarif-file"] != "ctrllint.sarif" || !strings.HasPrefix(res.action["version"], "ctrllint version ") {
			t.Errorf("the action's outputs: %v", res.action)
		}
		// The repository's .ctrllint.yml is read: no sharedowner.
		found := map[string]bool{}
		for _, f := range readSARIF(t, filepath.Join(ws, "ctrllint.sarif")).Runs[0].Results {
			found[f.RuleID] = true
			if uri := f.Locations[0].PhysicalLocation.ArtifactLocation.URI; !strings.HasPrefix(uri, "example/") {
				t.Errorf("%s finding in %s, want a path relative to the repository, in example/", f.RuleID, uri)
			}
		}
		for _, an := range analyzers.All() {
			if found[an.Name] != (an.Name != "sharedowner") {
				t.Errorf("%s in the SARIF log: %v, want %v (.ctrllint.yml disables sharedowner)", an.Name, found[an.Name], !found[an.Name])
			}
		}
		if !strings.Contains(res.log, "(tombstone)\n") {
			t.Errorf("the findings are not in the log:\n%s", res.log)
		}
		for _, id := range []string{"restore", "save", "upload"} {
			if res.used[id] == nil {
				t.Errorf("step %s did not run", id)
			}
		}
		up := res.used["upload"]
		if up["sarif_file"] != "ctrllint.sarif" || up["category"] != "ctrllint" {
			t.Errorf("upload-sarif with %v", up)
		}
		restore, save := res.used["restore"], res.used["save"]
		sha := res.outputs["install"]["sha256"]
		if restore["key"] != save["key"] || restore["path"] != save["path"] || restore["key"] != "ctrllint-Linux-"+sha+"-HASH" {
			t.Errorf("restored %v, saved %v: want the same key (with the executable's hash %s) and paths", restore, save, sha)
		}
		// What is saved is where ctrllint wrote.
		gocache, err := exec.Command("go", "env", "GOCACHE").Output()
		if err != nil {
			t.Fatal(err)
		}
		paths := strings.Split(save["path"], "\n")
		for _, want := range []string{filepath.Join(cache, "results"), filepath.Join(cache, "tool"), strings.TrimSpace(string(gocache))} {
			if !slices.Contains(paths, want) {
				t.Errorf("cached paths %q leave out %s", paths, want)
			} else if _, err := os.Stat(want); err != nil {
				t.Errorf("cached path %s: %v", want, err)
			}
		}
		if got, want := read(t, r.pathFile), filepath.Dir(res.outputs["install"]["path"])+"\n"; got != want {
			t.Errorf("GITHUB_PATH: %q, want %q", got, want)
		}
	})

	t.Run("a new runner uses the restored results", func(t *testing.T) {
		r.t = t
		// As a new job installs it: the same build, written now.
		exe := filepath.Join(r.temp, "ctrllint-action", "bin", "ctrllint")
		now := time.Now()
		if err := os.Chtimes(exe, now, now); err != nil {
			t.Fatal(err)
		}
		r.restoreHit = "true"
		defer func() { r.restoreHit = "false" }()
		res := r.use(a, map[string]string{"fail-on-findings": "false", "args": "-v", "sarif-file": "out/ctrllint.sarif"}, "")
		if res.failed != "" || res.action["exit-code"] != "1" {
			t.Fatalf("step %q failed with %d, want none, and exit-code 1 (findings, not failing the job)\n%s", res.failed, res.code, res.log)
		}
		m := regexp.MustCompile(`analysed (\d+) of \d+ packages \((\d+) from cache\)`).FindStringSubmatch(res.log)
		if m == nil || m[1] != m[2] || m[1] == "0" {
			t.Errorf("the run did not answer from the restored cache:\n%s", res.log)
		}
		if res.used["save"] != nil {
			t.Error("saved the cache under the key it restored")
		}
		if n := len(readSARIF(t, filepath.Join(ws, "out", "ctrllint.sarif")).Runs[0].Results); n == 0 {
			t.Error("no findings in out/ctrllint.sarif")
		}
	})

	t.Run("clean code passes", func(t *testing.T) {
		r.t = t
		res := r.use(a, map[string]string{"packages": "./clean", "cache": "false", "upload-sarif": "false", "sarif-file": "clean.sarif"}, "")
		if res.failed != "" || res.action["exit-code"] != "0" {
			t.Fatalf("step %q failed with %d, exit-code %q, want none and 0\n%s", res.failed, res.code, res.action["exit-code"], res.log)
		}
		if n := len(readSARIF(t, filepath.Join(ws, "clean.sarif")).Runs[0].Results); n != 0 {
			t.Errorf("%d findings in clean.sarif", n)
		}
		if len(res.used) != 0 || res.outputs["dirs"]["paths"] != "" {
			t.Errorf("with cache and upload-sarif false, steps %v ran, caching %q", res.used, res.outputs["dirs"]["paths"])
		}
		// The step by hand, outside GitHub: its outputs on stdout.
		out, err := r.script("run.sh", "CTRLLINT="+res.outputs["install"]["path"], "INPUT_PACKAGES=./clean", "INPUT_SARIF_FILE=direct.sarif")
		if err != nil || !regexp.MustCompile(`(?m)^exit-code=0$`).MatchString(out) {
			t.Errorf("run.sh outside GitHub: %v\n%s", err, out)
		}
		if n := len(readSARIF(t, filepath.Join(ws, "direct.sarif")).Runs[0].Results); n != 0 {
			t.Errorf("%d findings in direct.sarif", n)
		}
	})

	t.Run("code that does not compile fails the run step", func(t *testing.T) {
		r.t = t
		broken := filepath.Join(ws, "broken")
		if err := os.MkdirAll(broken, 0o755); err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(broken)
		if err := os.WriteFile(filepath.Join(broken, "broken.go"), []byte("package broken\n\nfunc F() { undefined() }\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		res := r.use(a, map[string]string{"packages": "./clean ./broken"}, "")
		if res.failed != "run" || res.code != 2 || !strings.Contains(res.log, "undefined") {
			t.Fatalf("step %q failed with %d, want run with 2 and the compiler's error\n%s", res.failed, res.code, res.log)
		}
		if res.used["upload"] != nil || res.used["save"] != nil {
			t.Errorf("steps after the failed run ran: %v", res.used)
		}
	})
}

// TestActionBadInputs: an input of the wrong form fails the first step,
// naming it, before anything is installed.
func TestActionBadInputs(t *testing.T) {
	a := readAction(t)
	r := newRunner(t, t.TempDir(), jobEnv(t.TempDir()))
	for name, value := range map[string]string{
		"fail-on-findings": "yes",
		"upload-sarif":     "TRUE",
		"cache":            "",
		"version":          "-x",
		"packages":         "  ",
		"sarif-file":       "",
	} {
		res := r.use(a, map[string]string{name: value}, "inputs")
		if res.failed != "inputs" || res.code != 2 || !strings.Contains(res.log, "input "+name) {
			t.Errorf("%s: %q: step %q failed with %d, want inputs with 2, naming the input\n%s", name, value, res.failed, res.code, res.log)
		}
	}
}

// TestActionInstallVersion: a version other than local is go install's
// query for the module, run outside any module with the workflow's
// GOFLAGS but -mod. The module proxy cannot be reached from here: a go
// command of the test's answers that install and hands any other command
// to the real one.
func TestActionInstallVersion(t *testing.T) {
	realGo, err := exec.LookPath("go")
	if err != nil {
		t.Skip(err)
	}
	stub := t.TempDir()
	logFile := filepath.Join(stub, "log")
	script := `#!/bin/sh
if [ "$1" = install ] && [ "$2" = github.com/ctrllint/ctrllint/cmd/ctrllint@v0.9.9 ]; then
	printf '%s\n' "$PWD" "$GOBIN" "$GOFLAGS" "$GOWORK" >` + strconv.Quote(logFile) + `
	printf '#!/bin/sh\necho "ctrllint version v0.9.9 go1.99"\n' >"$GOBIN/ctrllint"
	chmod +x "$GOBIN/ctrllint"
	exit 0
fi
exec ` + strconv.Quote(realGo) + ` "$@"
`
	if err := os.WriteFile(filepath.Join(stub, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	a := readAction(t)
	env := jobEnv(t.TempDir(), "GOFLAGS=-mod=vendor -buildvcs=false", "PATH="+stub+string(os.PathListSeparator)+os.Getenv("PATH"))
	r := newRunner(t, t.TempDir(), env)
	res := r.use(a, map[string]string{"version": "v0.9.9"}, "install")
	if res.failed != "" {
		t.Fatalf("step %s failed with %d\n%s", res.failed, res.code, res.log)
	}
	bin := filepath.Join(r.temp, "ctrllint-action", "bin")
	// GOFLAGS appears twice in env (jobEnv's, then this test's): the last wins.
	want := strings.Join([]string{bin, bin, "-buildvcs=false", "off"}, "\n") + "\n"
	if got := read(t, logFile); got != want {
		t.Errorf("go install ran with (dir, GOBIN, GOFLAGS, GOWORK)\n%s\nwant\n%s", got, want)
	}
	if res.outputs["install"]["path"] != filepath.Join(bin, "ctrllint") || res.action["version"] != "ctrllint version v0.9.9 go1.99" {
		t.Errorf("install's outputs %v, the action's version %q", res.outputs["install"], res.action["version"])
	}
}

// TestActionCacheDir: with no CTRLLINT_CACHE the action caches where
// ctrllint keeps its cache by default, os.UserCacheDir()/ctrllint.
func TestActionCacheDir(t *testing.T) {
	for _, xdg := range []string{"", filepath.Join(t.TempDir(), "xdg")} {
		t.Setenv("XDG_CACHE_HOME", xdg)
		dir, err := os.UserCacheDir()
		if err != nil {
			t.Fatal(err)
		}
		want := filepath.Join(dir, "ctrllint")
		var env []string
		for _, kv := range jobEnv("") {
			if !strings.HasPrefix(kv, "CTRLLINT_CACHE=") {
				env = append(env, kv)
			}
		}
		r := newRunner(t, t.TempDir(), env)
		out, err := r.script("cachedirs.sh", "INPUT_CACHE=true")
		if err != nil {
			t.Fatalf("cachedirs.sh: %v\n%s", err, out)
		}
		if outs := parseOutputs(t, out); outs["ctrllint-cache"] != want || !strings.HasPrefix(outs["paths"], want+"/results\n") {
			t.Errorf("XDG_CACHE_HOME=%q: outputs %v, want ctrllint-cache %s", xdg, outs, want)
		}
	}
}

// script runs a script of hack/action as a person would outside GitHub:
// no GITHUB_OUTPUT, so the outputs are on its stdout.
func (r *runner) script(name string, env ...string) (string, error) {
	cmd := exec.Command(filepath.Join(root, "hack", "action", name))
	cmd.Dir = r.workspace
	cmd.Env = append(slices.Clone(r.env), env...)
	out, err := cmd.Output()
	return string(out), err
}
