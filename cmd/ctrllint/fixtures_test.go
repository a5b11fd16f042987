package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ctrllint/ctrllint/analyzers"
)

// wantPattern matches one expectation inside a `// want` comment: a
// diagnostic's pattern, or, after "name:", a fact's about the object name
// (analysistest's syntax), which no output shows.
var (
	wantComment = regexp.MustCompile("(?://|/\\*) want (.*)")
	wantPattern = regexp.MustCompile("(\\w+:)?(`[^`]*`|\"(?:[^\"\\\\]|\\\\.)*\")")
)

// TestSARIFOnFixtures runs the real binary, as a user would, with -f sarif
// on the analyzer fixtures compiled against the real client-go, and checks
// that every bad shape is reported exactly once, on the line that carries
// its expectation, and nothing else is: the good shapes stay silent.
func TestSARIFOnFixtures(t *testing.T) {
	for _, mod := range []string{"current", "legacy"} {
		t.Run(mod, func(t *testing.T) {
			dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "src", mod))
			if err != nil {
				t.Fatal(err)
			}
			// Each analyzer's fixture and its NAMEfix fixture of suggested
			// fixes, where the module has them (analyzers' TestFixturesExist
			// says which must be there).
			var pkgs []string
			for _, a := range analyzers.All() {
				for _, d := range []string{a.Name, a.Name + "fix"} {
					if _, err := os.Stat(filepath.Join(dir, d)); err == nil {
						pkgs = append(pkgs, "./"+d)
					}
				}
			}
			r := runBinary(t, ctrllintBin, dir, []string{"GOPROXY=off", "GOFLAGS=-mod=mod"}, append([]string{"-f", "sarif"}, pkgs...)...)
			if r.code != 1 {
				t.Fatalf("exit %d, want 1 (findings); stderr:\n%s", r.code, r.stderr)
			}
			checkSARIF(t, []byte(r.stdout))
			var log struct {
				Runs []struct {
					Tool struct {
						Driver struct {
							Rules []struct {
								ID      string `json:"id"`
								HelpURI string `json:"helpUri"`
							} `json:"rules"`
						} `json:"driver"`
					} `json:"tool"`
					Results []struct {
						RuleID    string `json:"ruleId"`
						Locations []struct {
							PhysicalLocation struct {
								ArtifactLocation struct {
									URI string `json:"uri"`
								} `json:"artifactLocation"`
								Region struct {
									StartLine int `json:"startLine"`
								} `json:"region"`
							} `json:"physicalLocation"`
						} `json:"locations"`
					} `json:"results"`
				} `json:"runs"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &log); err != nil {
				t.Fatal(err)
			}
			if len(log.Runs) != 1 {
				t.Fatalf("%d runs", len(log.Runs))
			}
			run := log.Runs[0]
			for _, a := range analyzers.All() {
				rule := a.Name
				if !slices.ContainsFunc(run.Tool.Driver.Rules, func(r struct {
					ID      string `json:"id"`
					HelpURI string `json:"helpUri"`
				}) bool {
					return r.ID == rule && strings.HasSuffix(r.HelpURI, "/docs/analyzers/"+rule+".md")
				}) {
					t.Errorf("no %s rule with its help URI in %+v", rule, run.Tool.Driver.Rules)
				}
			}
			var got []string
			for _, res := range run.Results {
				if len(res.Locations) != 1 {
					t.Fatalf("result with %d locations", len(res.Locations))
				}
				loc := res.Locations[0].PhysicalLocation
				if filepath.IsAbs(loc.ArtifactLocation.URI) {
					t.Errorf("absolute uri %s: want one relative to the working directory", loc.ArtifactLocation.URI)
				}
				got = append(got, fmt.Sprintf("%s:%d %s", loc.ArtifactLocation.URI, loc.Region.StartLine, res.RuleID))
			}
			want := expectations(t, dir, pkgs)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("SARIF results differ from the fixtures' expectations\ngot:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// expectations lists file:line ruleId once per expected diagnostic; the
// fixture directory names the analyzer (tombstonefix holds tombstone's).
func expectations(t *testing.T, dir string, pkgs []string) []string {
	t.Helper()
	var want []string
	for _, pkg := range pkgs {
		files, err := filepath.Glob(filepath.Join(dir, pkg, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no files in %s: %v", pkg, err)
		}
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(dir, file)
			for i, line := range strings.Split(string(data), "\n") {
				m := wantComment.FindStringSubmatch(line)
				if m == nil {
					continue
				}
				rule := strings.TrimSuffix(strings.TrimPrefix(pkg, "./"), "fix")
				for _, w := range wantPattern.FindAllStringSubmatch(m[1], -1) {
					if w[1] == "" { // not a fact
						want = append(want, fmt.Sprintf("%s:%d %s", filepath.ToSlash(rel), i+1, rule))
					}
				}
			}
		}
	}
	if len(want) < 5 {
		t.Fatalf("only %d expectations found: the fixtures are not being read", len(want))
	}
	slices.Sort(want)
	return want
}

// TestFixOnFixtures applies the tombstone fixes with the real binary on a
// copy of the fix fixture, and compares each file with its .golden twin
// (the same files analysistest checks the analyzer's edits against).
func TestFixOnFixtures(t *testing.T) {
	src, err := filepath.Abs(filepath.Join("..", "..", "testdata", "src", "current"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, name := range []string{"go.mod", "go.sum"} {
		copyFile(t, filepath.Join(src, name), filepath.Join(dir, name))
	}
	// Each fixture with golden files is fixed alone, with only its own
	// analyzer, as its golden files expect. Some also have findings -fix
	// cannot fix (a leak on the loop back to Get, a List, a spec sent with
	// UpdateStatus), so exit 1 is as good as 0 there: the golden files are
	// the check.
	for _, tc := range goldenFixtures(t, src) {
		goldens, _ := filepath.Glob(filepath.Join(src, tc.pkg, "*.go.golden"))
		copyPackageTree(t, src, dir, tc.pkg)
		fixed := runBinary(t, ctrllintBin, dir, []string{"GOPROXY=off"}, "-enable", tc.analyzer, "-fix", "./"+tc.pkg)
		if fixed.code != exitClean && fixed.code != exitFindings {
			t.Fatalf("%s: -fix exit %d, want %d or %d:\n%s%s", tc.pkg, fixed.code, exitClean, exitFindings, fixed.stdout, fixed.stderr)
		}
		for _, g := range goldens {
			want, _ := os.ReadFile(g)
			got, err := os.ReadFile(filepath.Join(dir, tc.pkg, strings.TrimSuffix(filepath.Base(g), ".golden")))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("%s after -fix:\n%s\nwant:\n%s", filepath.Base(g), got, want)
			}
		}
		// The fixed package still compiles, and findings remain only if -fix
		// reported some unfixed.
		if r := runBinary(t, ctrllintBin, dir, []string{"GOPROXY=off"}, "-enable", tc.analyzer, "./"+tc.pkg); r.code != fixed.code {
			t.Errorf("%s after -fix: exit %d, -fix exited %d\n%s%s", tc.pkg, r.code, fixed.code, r.stdout, r.stderr)
		}
	}
}

// goldenFixture is a fixture package with golden files and the analyzer
// whose fixes they hold.
type goldenFixture struct{ pkg, analyzer string }

// goldenFixtures lists the fixtures of the module src with golden files:
// an analyzer's NAMEfix directory, or else its own.
func goldenFixtures(t *testing.T, src string) []goldenFixture {
	t.Helper()
	var fixtures []goldenFixture
	for _, a := range analyzers.All() {
		pkg := a.Name + "fix"
		if _, err := os.Stat(filepath.Join(src, pkg)); err != nil {
			pkg = a.Name
		}
		if goldens, _ := filepath.Glob(filepath.Join(src, pkg, "*.go.golden")); len(goldens) > 0 {
			fixtures = append(fixtures, goldenFixture{pkg, a.Name})
		}
	}
	if len(fixtures) == 0 {
		t.Fatal("no fixture has golden files: the test checks nothing")
	}
	return fixtures
}

// copyPackageTree copies the Go files of package pkg of the module src,
// and of its sub-packages (helpers it imports), to the module dir.
func copyPackageTree(t *testing.T, src, dir, pkg string) {
	t.Helper()
	err := filepath.WalkDir(filepath.Join(src, pkg), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		copyFile(t, path, filepath.Join(dir, rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestAnalyzerFlags: an analyzer's own flag is spelled -NAME.FLAG on the
// command line, as under go vet.
func TestAnalyzerFlags(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "src", "current"))
	if err != nil {
		t.Fatal(err)
	}
	off := runBinary(t, ctrllintBin, dir, []string{"GOPROXY=off"}, "-enable", "listerbypass", "./listerbypassall")
	on := runBinary(t, ctrllintBin, dir, []string{"GOPROXY=off"}, "-enable", "listerbypass", "-listerbypass.all", "./listerbypassall")
	if off.code != 0 || on.code != 1 || !strings.Contains(on.stdout, "the controller has no informer of Secret: add one (a Secret lister from a shared informer factory) and read through it (listerbypass)") {
		t.Errorf("without the flag: exit %d %q; with it: exit %d %q %q", off.code, off.stdout, on.code, on.stdout, on.stderr)
	}
}
