package plugin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers"
)

// The plugin under a real golangci-lint: the binary hack/golangci/build.sh
// builds from .custom-gcl.yml, run with .golangci-example.yml on the
// fixture module. `make golangci` builds the binary and runs this test with
// CTRLLINT_GOLANGCI_LINT set to it; without that variable the test skips.
// CTRLLINT_GOLANGCI_LINT_CACHE, if set, is golangci-lint's cache directory.

// analyzerFixtures are the analyzer fixtures in the module at dir, whose
// expectations name no analyzer (the directory does): each analyzer's of
// analyzers.All (analyzers' TestFixturesExist keeps them there) and its
// NAMEfix directory of suggested fixes, if it has one; then the plugin's
// own fixture, whose expectations do.
func analyzerFixtures(t *testing.T, dir string) []string {
	var pkgs []string
	for _, a := range analyzers.All() {
		for _, d := range []string{a.Name, a.Name + "fix"} {
			if _, err := os.Stat(filepath.Join(dir, d)); err == nil {
				pkgs = append(pkgs, "./"+d)
			} else if d == a.Name {
				t.Fatalf("analyzer %s has no fixture directory %s", a.Name, filepath.Join(dir, d))
			}
		}
	}
	return append(pkgs, "./golangci")
}

// Flags for every run: only the plugin, every finding (golangci-lint's
// defaults drop repeated texts and all but one finding per line), as JSON.
var golangciFlags = []string{
	"--enable-only=ctrllint",
	"--max-issues-per-linter=0", "--max-same-issues=0", "--uniq-by-line=false",
	"--output.json.path=stdout", "--show-stats=false", "--path-mode=abs",
	// golangci-lint takes a machine-wide lock and fails when another run
	// holds it; each run here has its own cache, so they may overlap.
	"--allow-parallel-runners",
}

func TestGolangci(t *testing.T) {
	bin := os.Getenv("CTRLLINT_GOLANGCI_LINT")
	if bin == "" {
		t.Skip("CTRLLINT_GOLANGCI_LINT is not set: `make golangci` builds golangci-lint with the plugin and runs this test")
	}
	example, err := os.ReadFile(filepath.Join("..", ".golangci-example.yml"))
	if err != nil {
		t.Fatal(err)
	}
	dir, err := filepath.Abs(fixture())
	if err != nil {
		t.Fatal(err)
	}
	// golangci-lint's analysis cache: fresh, or the one check.sh keeps
	// beside the binary (golangci-lint salts it with the binary's version,
	// which hashes the plugin's sources, and with the linter settings; the
	// fixture files key each entry).
	cache := os.Getenv("CTRLLINT_GOLANGCI_LINT_CACHE")
	if cache == "" {
		cache = t.TempDir()
	}
	g := &golangci{bin: bin, dir: dir, cache: cache}
	fixturePackages := analyzerFixtures(t, dir)
	want := readExpectations(t, dir, fixturePackages)
	for _, a := range analyzers.All() {
		if !slices.ContainsFunc(want, func(e expectation) bool { return e.analyzer == a.Name }) {
			t.Fatalf("the fixtures expect no %s finding: the enable/disable checks would prove nothing", a.Name)
		}
	}

	t.Run("example config", func(t *testing.T) {
		got := g.findings(t, example, fixturePackages...)
		compare(t, got, want)
		checkSuppression(t, got, filepath.Join(dir, "golangci", "golangci.go"))
	})

	t.Run("disable", func(t *testing.T) {
		cfg := variant(t, example, "disable: []", "disable: [sharedowner]")
		compare(t, g.findings(t, cfg, fixturePackages...), only(want, allBut("sharedowner")...))
	})

	t.Run("enable", func(t *testing.T) {
		cfg := variant(t, example, "disable: []", "enable: [tombstone, forget]")
		compare(t, g.findings(t, cfg, fixturePackages...), only(want, "tombstone", "forget"))
	})

	// listerbypassall's expectation holds only with listerbypass's all.
	t.Run("listerbypass all", func(t *testing.T) {
		compare(t, g.findings(t, example, "./listerbypassall"), nil)
		cfg := variant(t, example, "all: false", "all: true")
		compare(t, g.findings(t, cfg, "./listerbypassall"), readExpectations(t, dir, []string{"./listerbypassall"}))
	})

	// exclude-paths are relative to the file's module root: the fixture
	// module's, here.
	t.Run("exclude-paths", func(t *testing.T) {
		cfg := variant(t, example, "disable: []", "exclude-paths: ['^tombstone/', '^forget/[^/]*\\.go$']")
		var kept []expectation
		for _, e := range want {
			if !strings.HasPrefix(e.file, "tombstone/") && !strings.HasPrefix(e.file, "forget/") {
				kept = append(kept, e)
			}
		}
		if len(kept) == len(want) {
			t.Fatal("no expectation in tombstone/ or forget/")
		}
		compare(t, g.findings(t, cfg, fixturePackages...), kept)
	})

	t.Run("severity refused", func(t *testing.T) {
		cfg := variant(t, example, "disable: []", "severity: {tombstone: error}")
		r := g.run(t, cfg, "./golangci")
		if r.code == 0 || r.code == 1 || !strings.Contains(r.stderr, "use golangci-lint's own severity.rules") {
			t.Errorf("exit %d with severity in the settings, want golangci-lint's failure status and the plugin's error; stderr:\n%s", r.code, r.stderr)
		}
	})

	t.Run("invalid settings", func(t *testing.T) {
		cfg := variant(t, example, "disable: []", "disable: [sharedowner, nosuch]")
		r := g.run(t, cfg, "./golangci")
		if r.code == 0 || r.code == 1 {
			t.Fatalf("exit %d with an unknown analyzer in the settings, want golangci-lint's failure status; stderr:\n%s", r.code, r.stderr)
		}
		if !strings.Contains(r.stderr, `unknown analyzer "nosuch"`) {
			t.Errorf("golangci-lint's error does not name the unknown analyzer:\n%s", r.stderr)
		}
	})
}

type golangci struct {
	bin, dir, cache string
}

type result struct {
	code           int
	stdout, stderr string
}

// run runs the binary in the fixture module with the configuration cfg.
func (g *golangci) run(t *testing.T, cfg []byte, pkgs ...string) result {
	t.Helper()
	path := filepath.Join(t.TempDir(), ".golangci.yml")
	if err := os.WriteFile(path, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"run", "-c", path}, golangciFlags...)
	cmd := exec.Command(g.bin, append(args, pkgs...)...)
	cmd.Dir = g.dir
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=mod", "GOWORK=off", "GOLANGCI_LINT_CACHE="+g.cache)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("%s: %v", g.bin, err)
	}
	return result{code: cmd.ProcessState.ExitCode(), stdout: stdout.String(), stderr: stderr.String()}
}

// finding is one golangci-lint issue, the file relative to the fixture
// module.
type finding struct {
	file     string
	line     int
	analyzer string
	message  string
}

func (f finding) String() string {
	return fmt.Sprintf("%s:%d: %s: %s", f.file, f.line, f.analyzer, f.message)
}

// findings runs the binary and returns its issues, checking that each comes
// from the ctrllint linter and names a ctrllint analyzer.
func (g *golangci) findings(t *testing.T, cfg []byte, pkgs ...string) []finding {
	t.Helper()
	r := g.run(t, cfg, pkgs...)
	if r.code != 0 && r.code != 1 {
		t.Fatalf("golangci-lint exited %d; stderr:\n%s", r.code, r.stderr)
	}
	var out struct {
		Issues []struct {
			FromLinter string
			Text       string
			Pos        struct {
				Filename string
				Line     int
			}
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("golangci-lint's JSON output: %v\n%s\nstderr:\n%s", err, r.stdout, r.stderr)
	}
	if (r.code == 1) != (len(out.Issues) > 0) {
		t.Errorf("exit %d with %d issues", r.code, len(out.Issues))
	}
	var got []finding
	for _, is := range out.Issues {
		analyzer, msg, ok := strings.Cut(is.Text, ": ")
		if is.FromLinter != Name || !ok || !slices.ContainsFunc(analyzers.All(), func(a *analysis.Analyzer) bool { return a.Name == analyzer }) {
			t.Errorf("issue from linter %q with text %q: want linter %s and the analyzer's name before the message", is.FromLinter, is.Text, Name)
			continue
		}
		rel, err := filepath.Rel(g.dir, is.Pos.Filename)
		if err != nil || strings.HasPrefix(rel, "..") {
			t.Errorf("issue in %s, outside the fixture module", is.Pos.Filename)
			continue
		}
		got = append(got, finding{filepath.ToSlash(rel), is.Pos.Line, analyzer, msg})
	}
	return got
}

// expectation is one `// want` pattern of a fixture.
type expectation struct {
	file     string
	line     int
	analyzer string
	re       *regexp.Regexp
}

func (e expectation) String() string {
	return fmt.Sprintf("%s:%d: %s: /%s/", e.file, e.line, e.analyzer, e.re)
}

var (
	wantComment = regexp.MustCompile("(?://|/\\*) want (.*)")
	wantPattern = regexp.MustCompile("(\\w+:)?(`[^`]*`|\"(?:[^\"\\\\]|\\\\.)*\")") // a fact's after "name:"
)

// readExpectations reads the want comments of the packages. In an analyzer
// fixture the directory names the analyzer (tombstonefix and
// listerbypassall hold tombstone's and listerbypass's); in the plugin's
// fixture each pattern starts with it.
func readExpectations(t *testing.T, dir string, pkgs []string) []expectation {
	t.Helper()
	var out []expectation
	for _, pkg := range pkgs {
		base := strings.TrimPrefix(pkg, "./")
		analyzer := strings.TrimSuffix(strings.TrimSuffix(base, "fix"), "all")
		files, err := filepath.Glob(filepath.Join(dir, base, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no Go files in %s: %v", pkg, err)
		}
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			rel := base + "/" + filepath.Base(file)
			for i, line := range strings.Split(string(data), "\n") {
				m := wantComment.FindStringSubmatch(line)
				if m == nil {
					continue
				}
				for _, w := range wantPattern.FindAllStringSubmatch(m[1], -1) {
					if w[1] != "" {
						continue // an expected fact, which golangci-lint does not show
					}
					lit := w[2]
					pat := lit[1 : len(lit)-1]
					if lit[0] == '"' {
						if pat, err = strconv.Unquote(lit); err != nil {
							t.Fatalf("%s:%d: %v", rel, i+1, err)
						}
					}
					a := analyzer
					if base == "golangci" {
						var ok bool
						if a, pat, ok = strings.Cut(pat, ": "); !ok {
							t.Fatalf("%s:%d: want pattern %q does not start with an analyzer name", rel, i+1, pat)
						}
					}
					re, err := regexp.Compile(pat)
					if err != nil {
						t.Fatalf("%s:%d: %v", rel, i+1, err)
					}
					out = append(out, expectation{rel, i + 1, a, re})
				}
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("no expectations in %v: the fixtures are not being read", pkgs)
	}
	return out
}

// allBut are the names of the analyzers but those given.
func allBut(drop ...string) []string {
	var out []string
	for _, a := range analyzers.All() {
		if !slices.Contains(drop, a.Name) {
			out = append(out, a.Name)
		}
	}
	return out
}

// only keeps the expectations of the named analyzers.
func only(want []expectation, names ...string) []expectation {
	var out []expectation
	for _, e := range want {
		if slices.Contains(names, e.analyzer) {
			out = append(out, e)
		}
	}
	if len(out) == len(want) {
		panic("only: the selection removes no expectation")
	}
	return out
}

// compare matches findings to expectations one to one (same file, line and
// analyzer, message matching the pattern) and fails with a diff: - expected
// but not reported, + reported but not expected.
func compare(t *testing.T, got []finding, want []expectation) {
	t.Helper()
	used := make([]bool, len(want))
	var diff []string
	for _, f := range got {
		i := -1
		for j, e := range want {
			if !used[j] && e.file == f.file && e.line == f.line && e.analyzer == f.analyzer && e.re.MatchString(f.message) {
				i = j
				break
			}
		}
		if i < 0 {
			diff = append(diff, "+ "+f.String())
			continue
		}
		used[i] = true
	}
	for i, e := range want {
		if !used[i] {
			diff = append(diff, "- "+e.String())
		}
	}
	if len(diff) > 0 {
		slices.Sort(diff)
		t.Errorf("golangci-lint's findings differ from the expectations (%d findings, %d expected)\n(- expected, not reported; + reported, not expected)\n%s",
			len(got), len(want), strings.Join(diff, "\n"))
	}
}

// checkSuppression spells out what compare implies for the plugin's
// fixture: the line under //ctrllint:ignore and the line under
// //nolint:ctrllint are silent, while the same handler without either, and
// with //nolint:ANALYZER, is reported.
func checkSuppression(t *testing.T, got []finding, file string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	reported := func(line int) bool {
		return slices.ContainsFunc(got, func(f finding) bool { return f.file == "golangci/golangci.go" && f.line == line })
	}
	seen := map[string]bool{}
	for i, line := range strings.Split(string(data), "\n") {
		if !strings.Contains(line, "pod := obj.(*corev1.Pod)") {
			continue
		}
		switch {
		case strings.Contains(line, "//ctrllint:ignore tombstone"):
			seen["ctrllint:ignore"] = true
			if reported(i + 1) {
				t.Errorf("golangci.go:%d: //ctrllint:ignore tombstone did not suppress the finding under golangci-lint", i+1)
			}
		case strings.Contains(line, "//nolint:ctrllint"):
			seen["nolint:ctrllint"] = true
			if reported(i + 1) {
				t.Errorf("golangci.go:%d: //nolint:ctrllint did not silence the plugin", i+1)
			}
		case strings.Contains(line, "//nolint:tombstone"):
			seen["nolint:tombstone"] = true
			if !reported(i + 1) {
				t.Errorf("golangci.go:%d: //nolint:tombstone silenced the finding; golangci-lint has no linter of that name", i+1)
			}
		default:
			seen["none"] = true
			if !reported(i + 1) {
				t.Errorf("golangci.go:%d: the unsuppressed handler is not reported: the suppression checks prove nothing", i+1)
			}
		}
	}
	if len(seen) != 4 {
		t.Errorf("the plugin's fixture lacks a handler shape: found %v", seen)
	}
}

// variant is the example configuration with one line changed; the line must
// occur exactly once, so an edit of the example cannot silently turn a
// check into a rerun of the default.
func variant(t *testing.T, cfg []byte, old, new string) []byte {
	t.Helper()
	if n := bytes.Count(cfg, []byte(old)); n != 1 {
		t.Fatalf(".golangci-example.yml holds %q %d times, want once (the test derives its variants from it)", old, n)
	}
	return bytes.Replace(cfg, []byte(old), []byte(new), 1)
}
