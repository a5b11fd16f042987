package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

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
								Name    string `json:"name"`
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
				// The rule's friendly name is its definition's.
				in, _ := analyzers.Lookup(rule)
				if !slices.ContainsFunc(run.Tool.Driver.Rules, func(r struct {
					ID      string `json:"id"`
					Name    string `json:"name"`
					HelpURI string `json:"helpUri"`
				}) bool {
					return r.ID == rule && r.Name == in.RuleName && strings.HasSuffix(r.HelpURI, "/docs/analyzers/"+rule+".md")
				}) {
					t.Errorf("no %s rule named %s with its help URI in %+v", rule, in.RuleName, run.Tool.Driver.Rules)
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
	moved := false
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
		after := runBinary(t, ctrllintBin, dir, []string{"GOPROXY=off"}, "-enable", tc.analyzer, "./"+tc.pkg)
		if after.code != fixed.code {
			t.Errorf("%s after -fix: exit %d, -fix exited %d\n%s%s", tc.pkg, after.code, fixed.code, after.stdout, after.stderr)
		}
		left := checkLeftovers(t, dir, fixed.stdout, after.stdout)
		if len(left) == 0 {
			continue
		}
		moved = moved || slices.ContainsFunc(left, func(l leftover) bool { return l.moved })
		// Every other format reports them at the same places.
		for _, format := range formats[1:] {
			copyPackageTree(t, src, dir, tc.pkg)
			r := runBinary(t, ctrllintBin, dir, []string{"GOPROXY=off"}, "-enable", tc.analyzer, "-fix", "-f", format, "./"+tc.pkg)
			if got, want := machinePositions(t, dir, format, r.stdout), textPositions(left); !slices.Equal(got, want) {
				t.Errorf("%s: -fix -f %s reports what is left at\n%s\nwant (as -f text)\n%s", tc.pkg, format, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
	}
	if !moved {
		t.Error("no finding left by -fix is below a fix that added or removed lines: nothing checks that its position moved")
	}
}

// leftover is a finding -f text printed after -fix.
type leftover struct {
	file          string
	line, col     int
	msg, analyzer string
	moved         bool // its line is not the one it had before the fixes
}

var leftoverLine = regexp.MustCompile(`^([^:]+):(\d+):(\d+): (.*) \((\w+)\)$`)

// checkLeftovers checks that each finding -fix reported (fixOut) is where
// it is in the file -fix wrote: on a line whose `// want` expects it (the
// fixtures keep their expectations through the fixes), and, when a run
// on the fixed files (afterOut) reports it on that line too, at the same
// column. -fix once printed them at their lines before the fixes.
func checkLeftovers(t *testing.T, dir, fixOut, afterOut string) []leftover {
	t.Helper()
	var left []leftover
	// The columns a run on the fixed files reports, by file:line analyzer.
	after := make(map[string][]string)
	for _, l := range strings.Split(afterOut, "\n") {
		if m := leftoverLine.FindStringSubmatch(l); m != nil {
			k := m[1] + ":" + m[2] + " " + m[5]
			after[k] = append(after[k], m[3])
		}
	}
	for _, l := range strings.Split(strings.TrimSuffix(fixOut, "\n"), "\n") {
		if l == "" {
			continue
		}
		m := leftoverLine.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("-fix printed %q, not file:line:col: message (analyzer)", l)
			continue
		}
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		lo := leftover{file: m[1], line: line, col: col, msg: m[4], analyzer: m[5]}
		data, err := os.ReadFile(filepath.Join(dir, lo.file))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		if line < 1 || line > len(lines) || !wantsMessage(lines[line-1], lo.msg) {
			t.Errorf("-fix reported %s, but line %d of the file it wrote does not expect it", l, line)
		}
		if col < 1 || line <= len(lines) && col > len(lines[line-1])+1 {
			t.Errorf("-fix reported %s, at a column off its line", l)
		}
		if cols := after[fmt.Sprintf("%s:%d %s", lo.file, line, lo.analyzer)]; cols != nil && !slices.Contains(cols, m[3]) {
			t.Errorf("-fix reported %s; a run on the fixed files reports it at column %v", l, cols)
		}
		orig, err := os.ReadFile(filepath.Join("..", "..", "testdata", "src", "current", lo.file))
		if err != nil {
			t.Fatal(err)
		}
		origLines := strings.Split(string(orig), "\n")
		lo.moved = line > len(origLines) || !wantsMessage(origLines[line-1], lo.msg)
		left = append(left, lo)
	}
	return left
}

// wantsMessage reports whether line has a `// want` whose pattern
// matches msg.
func wantsMessage(line, msg string) bool {
	m := wantComment.FindStringSubmatch(line)
	if m == nil {
		return false
	}
	for _, w := range wantPattern.FindAllStringSubmatch(m[1], -1) {
		if w[1] != "" {
			continue // a fact
		}
		pat := strings.Trim(w[2], "`")
		if strings.HasPrefix(w[2], `"`) {
			pat, _ = strconv.Unquote(w[2])
		}
		if re, err := regexp.Compile(pat); err == nil && re.MatchString(msg) {
			return true
		}
	}
	return false
}

func textPositions(left []leftover) []string {
	var out []string
	for _, l := range left {
		out = append(out, fmt.Sprintf("%s:%d:%d %s", l.file, l.line, l.col, l.analyzer))
	}
	slices.Sort(out)
	return out
}

// githubCommand reads the position and title of a -f github line.
var githubCommand = regexp.MustCompile(`^::\w+ file=([^,]*),line=(\d+),col=(\d+),.*title=ctrllint \((\w+)\)::`)

// machinePositions lists the file:line:column analyzer of each finding
// of a report in a machine format, with SARIF's UTF-16 columns turned
// back into bytes (the line read in dir) to compare with -f text's.
func machinePositions(t *testing.T, dir, format, out string) []string {
	t.Helper()
	var got []string
	switch format {
	case "github":
		// The fixtures' findings end on the line they start on, so
		// each has its column.
		for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			m := githubCommand.FindStringSubmatch(l)
			if m == nil {
				t.Fatalf("-f github line %q has no file, line, col and title", l)
			}
			got = append(got, fmt.Sprintf("%s:%s:%s %s", m[1], m[2], m[3], m[4]))
		}
	case "checkstyle":
		var report checkstyleReport
		if err := xml.Unmarshal([]byte(out), &report); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		for _, f := range report.Files {
			for _, e := range f.Errors {
				got = append(got, fmt.Sprintf("%s:%d:%d %s", f.Name, e.Line, e.Column, strings.TrimPrefix(e.Source, "ctrllint.")))
			}
		}
	case "json":
		var items []jsonFinding
		if err := json.Unmarshal([]byte(out), &items); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		for _, it := range items {
			got = append(got, fmt.Sprintf("%s:%d:%d %s", it.File, it.Line, it.Column, it.Analyzer))
		}
	case "sarif":
		var log struct {
			Runs []struct {
				Results []struct {
					RuleID    string `json:"ruleId"`
					Locations []struct {
						PhysicalLocation struct {
							ArtifactLocation struct {
								URI string `json:"uri"`
							} `json:"artifactLocation"`
							Region sarifRegion `json:"region"`
						} `json:"physicalLocation"`
					} `json:"locations"`
				} `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal([]byte(out), &log); err != nil || len(log.Runs) != 1 {
			t.Fatalf("%v\n%s", err, out)
		}
		for _, res := range log.Runs[0].Results {
			loc := res.Locations[0].PhysicalLocation
			data, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(loc.ArtifactLocation.URI)))
			lines := strings.Split(string(data), "\n")
			col := loc.Region.StartColumn
			if l := loc.Region.StartLine; l >= 1 && l <= len(lines) {
				col = byteColumn(lines[l-1], col)
			}
			got = append(got, fmt.Sprintf("%s:%d:%d %s", loc.ArtifactLocation.URI, loc.Region.StartLine, col, res.RuleID))
		}
	default:
		t.Fatalf("no reader for -f %s", format)
	}
	slices.Sort(got)
	return got
}

// byteColumn is the 1-based byte column of the 1-based UTF-16 column
// col of line.
func byteColumn(line string, col int) int {
	units := 0
	for i, r := range line {
		if units >= col-1 {
			return i + 1
		}
		units += utf16.RuneLen(r)
	}
	return len(line) + 1
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
