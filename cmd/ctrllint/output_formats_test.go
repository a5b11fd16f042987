package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/ctrllint/ctrllint/analyzers"
	"github.com/ctrllint/ctrllint/internal/finding"
	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/outputs from the current output")

// The machine formats of one run over the fixture, byte for byte: a
// change to any of them shows in review as a diff of these files
// (go test -run TestOutputGolden -update rewrites them).
func TestOutputGolden(t *testing.T) {
	dir := fixture(t)
	for _, tc := range []struct{ format, file string }{
		{"json", "fixture.json"},
		{"github", "fixture.github"},
		{"checkstyle", "fixture.checkstyle.xml"},
	} {
		t.Run(tc.format, func(t *testing.T) {
			r := runInProcess("-C", dir, "-enable", "badcall,badcallwhole", "-f", tc.format, "./...")
			if r.code != exitFindings || r.stderr != "" {
				t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
			}
			golden := filepath.Join("testdata", "outputs", tc.file)
			if *updateGolden {
				if err := os.WriteFile(golden, []byte(r.stdout), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if r.stdout != string(want) {
				t.Errorf("-f %s differs from %s:\n%s", tc.format, golden, r.stdout)
			}
		})
	}
}

// brokenModule has a finding in a package that compiles and a type error
// in one that does not.
func brokenModule(t *testing.T) string {
	return testanalyzers.WriteModule(t, map[string]string{
		"a.go":   "package m\n\nfunc bad() {}\n\nfunc F() { bad() }\n",
		"b/b.go": "package b\n\nvar x int = \"s\"\n",
	})
}

// A package that does not compile is an element of the JSON array, not
// only a line on stderr: stdout alone does not read as clean. With -fix
// too, which rewrites the findings it reports.
func TestJSONLoadError(t *testing.T) {
	dir := brokenModule(t)
	for _, extra := range [][]string{nil, {"-fix"}} {
		args := append(append([]string{"-C", dir, "-enable", "badcall", "-f", "json"}, extra...), "./...")
		r := runInProcess(args...)
		if r.code != exitError || !strings.Contains(r.stderr, "ctrllint: b/b.go:3:13: cannot use") {
			t.Fatalf("%v: exit %d, stderr %q", extra, r.code, r.stderr)
		}
		var got []map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
			t.Fatalf("%v: %v\n%s", extra, err, r.stdout)
		}
		var load map[string]any
		for _, e := range got {
			if e["analyzer"] == "ctrllint" {
				load = e
			}
		}
		if load == nil {
			t.Fatalf("%v: no problem element:\n%s", extra, r.stdout)
		}
		msg, _ := load["message"].(string)
		delete(load, "message")
		want := map[string]any{"analyzer": "ctrllint", "category": "load", "severity": "error",
			"file": "b/b.go", "line": 3.0, "column": 13.0, "endLine": 3.0, "endColumn": 13.0, "fixes": []any{}}
		if !reflect.DeepEqual(load, want) || !strings.HasPrefix(msg, `cannot use "s"`) {
			t.Errorf("%v: problem element %v %q\nwant %v", extra, load, msg, want)
		}
		if extra == nil && (len(got) != 2 || got[0]["file"] != "a.go" || got[0]["analyzer"] != "badcall") {
			t.Errorf("the healthy package's finding, sorted before b/b.go:\n%s", r.stdout)
		}
	}
}

// An analyzer that fails is an "internal" element at the code it was
// analysing; the message is stderr's without the position.
func TestJSONAnalyzerError(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{"boom/boom.go": "package boom\n\nfunc bad() {}\n\nfunc B() { bad() }\n"})
	r := runInProcess("-C", dir, "-enable", "badcall,panicky", "-f", "json", "./...")
	var got []jsonFinding
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	want := jsonFinding{Analyzer: "ctrllint", Category: "internal", Severity: "error",
		Message: "internal error: analyzer panicky failed on package example.com/m/boom: panic: assignment to entry in nil map",
		File:    "boom/boom.go", Line: 5, Column: 1, EndLine: 5, EndColumn: 1, Fixes: []jsonFix{}}
	if r.code != exitError || len(got) != 2 || !reflect.DeepEqual(got[0], want) || got[1].Analyzer != "badcall" {
		t.Errorf("exit %d\n%s\nwant first %+v", r.code, r.stdout, want)
	}
}

func TestGitHubOutputLoadError(t *testing.T) {
	r := runInProcess("-C", brokenModule(t), "-enable", "badcall", "-f", "github", "./...")
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if r.code != exitError || len(lines) != 2 {
		t.Fatalf("exit %d\n%s", r.code, r.stdout)
	}
	if want := "::warning file=a.go,line=5,col=12,endLine=5,endColumn=17,title=ctrllint (badcall)::call of bad"; lines[0] != want {
		t.Errorf("finding:\n%s\nwant\n%s", lines[0], want)
	}
	if want := `::error file=b/b.go,line=3,col=13,endLine=3,endColumn=13,title=ctrllint (load)::cannot use "s"`; !strings.HasPrefix(lines[1], want) {
		t.Errorf("load error:\n%s\nwant it to start with\n%s", lines[1], want)
	}
}

func TestCheckstyleOutputLoadError(t *testing.T) {
	r := runInProcess("-C", brokenModule(t), "-enable", "badcall", "-f", "checkstyle", "./...")
	var got checkstyleReport
	if err := xml.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	if r.code != exitError || len(got.Files) != 2 || got.Files[1].Name != "b/b.go" || len(got.Files[1].Errors) != 1 {
		t.Fatalf("exit %d\n%s", r.code, r.stdout)
	}
	e := got.Files[1].Errors[0]
	if e.Line != 3 || e.Column != 13 || e.Severity != "error" || e.Source != "ctrllint.load" || !strings.HasPrefix(e.Message, `cannot use "s"`) {
		t.Errorf("load error: %+v", e)
	}
	if f := got.Files[0]; f.Name != "a.go" || len(f.Errors) != 1 || f.Errors[0].Source != "ctrllint.badcall" || f.Errors[0].Severity != "warning" {
		t.Errorf("finding: %+v", f)
	}
}

// The writers on what the command cannot produce today: a problem without
// a position, a finding over several lines, an analyzer configured as a
// note or an error, and a severity no format carries.
func TestWritersSeverityAndPositions(t *testing.T) {
	wd := "/w"
	findings := []finding.Finding{
		{Analyzer: "badcall", Message: "spans", Pos: finding.Position{File: "/w/a.go", Line: 2, Column: 3}, End: finding.Position{File: "/w/a.go", Line: 4, Column: 1}},
		{Analyzer: "badcalltwin", Message: "point", Pos: finding.Position{File: "/w/a.go", Line: 9, Column: 2}, End: finding.Position{File: "/w/a.go", Line: 9, Column: 2}},
	}
	problems := []runProblem{{category: categoryLoad, msg: "pattern ./x: no such directory"}}
	severityOf := func(a string) string {
		if a == "badcall" {
			return severityNote
		}
		return severityError
	}
	rel := relativizer(wd)

	var gh bytes.Buffer
	if err := writeGitHub(&gh, findings, problems, rel, severityOf); err != nil {
		t.Fatal(err)
	}
	want := "::error title=ctrllint (load)::pattern ./x: no such directory\n" +
		"::notice file=a.go,line=2,endLine=4,title=ctrllint (badcall)::spans\n" +
		"::error file=a.go,line=9,col=2,endLine=9,endColumn=2,title=ctrllint (badcalltwin)::point\n"
	if gh.String() != want {
		t.Errorf("github:\n%s\nwant:\n%s", &gh, want)
	}

	var cs bytes.Buffer
	if err := writeCheckstyle(&cs, findings, problems, rel, severityOf); err != nil {
		t.Fatal(err)
	}
	want = `<?xml version="1.0" encoding="UTF-8"?>
<checkstyle version="4.3">
  <file name="">
    <error line="0" column="0" severity="error" message="pattern ./x: no such directory" source="ctrllint.load"></error>
  </file>
  <file name="a.go">
    <error line="2" column="3" severity="info" message="spans" source="ctrllint.badcall"></error>
    <error line="9" column="2" severity="error" message="point" source="ctrllint.badcalltwin"></error>
  </file>
</checkstyle>
`
	if cs.String() != want {
		t.Errorf("checkstyle:\n%s\nwant:\n%s", &cs, want)
	}

	var js bytes.Buffer
	if err := writeJSON(&js, findings, problems, rel, severityOf); err != nil {
		t.Fatal(err)
	}
	var got []jsonFinding
	json.Unmarshal(js.Bytes(), &got)
	if len(got) != 3 || got[0].Analyzer != "ctrllint" || got[0].File != "" || got[0].Line != 0 || got[1].Severity != "note" || got[2].Severity != "error" {
		t.Errorf("json:\n%s", &js)
	}

	bogus := func(string) string { return "fatal" }
	for name, write := range map[string]func() error{
		"json":       func() error { return writeJSON(&bytes.Buffer{}, findings, nil, rel, bogus) },
		"github":     func() error { return writeGitHub(&bytes.Buffer{}, findings, nil, rel, bogus) },
		"checkstyle": func() error { return writeCheckstyle(&bytes.Buffer{}, findings, nil, rel, bogus) },
	} {
		if err := write(); err == nil || err.Error() != `severity "fatal" of analyzer badcall is not error, warning or note` {
			t.Errorf("%s: severity \"fatal\": %v", name, err)
		}
	}
}

// A failed write is an error, as for the other formats.
func TestWritersWriteError(t *testing.T) {
	f := []finding.Finding{{Analyzer: "badcall", Message: "m", Pos: finding.Position{File: "/w/a.go", Line: 1, Column: 1}}}
	for name, write := range map[string]func(w *failWriter) error{
		"json":       func(w *failWriter) error { return writeJSON(w, f, nil, relativizer("/w"), defaultSeverity) },
		"github":     func(w *failWriter) error { return writeGitHub(w, f, nil, relativizer("/w"), defaultSeverity) },
		"checkstyle": func(w *failWriter) error { return writeCheckstyle(w, f, nil, relativizer("/w"), defaultSeverity) },
	} {
		if err := write(&failWriter{}); !errors.Is(err, errDiskFull) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

var errDiskFull = errors.New("no space left on device")

type failWriter struct{}

func (*failWriter) Write([]byte) (int, error) { return 0, errDiskFull }

// The list of formats is one: the usage, the error for an unknown one,
// docs/README.md's flags table and run's switch (each format writes
// something of its own) all follow formats.
func TestFormatList(t *testing.T) {
	r := runInProcess("-h")
	if want := "output format: " + formatList(); !strings.Contains(r.stderr, want) {
		t.Errorf("usage lacks %q:\n%s", want, r.stderr)
	}
	r = runInProcess("-f", "yaml", "./...")
	if want := `ctrllint: unknown output format -f "yaml" (want ` + formatList() + ")\n"; r.code != exitError || r.stderr != want {
		t.Errorf("unknown format: exit %d %q, want %q", r.code, r.stderr, want)
	}
	if formatList() != "text, json, sarif, github or checkstyle" {
		t.Errorf("formatList() = %q", formatList())
	}

	readme, err := os.ReadFile(filepath.Join("..", "..", "docs", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `-f ([^`]*)` \\|").FindSubmatch(readme)
	if row == nil {
		t.Fatal("docs/README.md has no -f row in its flags table")
	}
	if got, want := string(row[1]), strings.Join(formats, `\|`); got != want {
		t.Errorf("docs/README.md's -f row lists %s, want %s", got, want)
	}
	for _, f := range formats {
		if !strings.Contains(string(readme), fmt.Sprintf("- `%s`", f)) {
			t.Errorf("docs/README.md's output formats section has no item for %s", f)
		}
	}

	dir := fixture(t)
	seen := make(map[string]string)
	for _, f := range formats {
		r := runInProcess("-C", dir, "-enable", "badcall", "-test=false", "-f", f, "./...")
		if r.code != exitFindings || r.stdout == "" {
			t.Errorf("-f %s: exit %d, stdout %q", f, r.code, r.stdout)
		}
		if other, ok := seen[r.stdout]; ok {
			t.Errorf("-f %s writes what -f %s writes: is it in run's switch?", f, other)
		}
		seen[r.stdout] = f
	}
}

// A problem's analyzer and categories are no analyzer's names, so that
// checkstyle's source and GitHub's title tell a problem from a finding.
func TestProblemSourcesAreNoAnalyzers(t *testing.T) {
	for _, a := range analyzers.All() {
		switch a.Name {
		case problemSource, categoryLoad, categoryInternal:
			t.Errorf("analyzer %s has the name of a problem's source or category", a.Name)
		}
	}
}
