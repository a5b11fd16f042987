package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ctrllint/ctrllint/internal/finding"
	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

func TestVetHandshake(t *testing.T) {
	dir := t.TempDir()
	r := runBinary(t, ctrllintBin, dir, nil, "-V=full")
	// The go command keys its vet cache on this line: "<path> version
	// devel ... buildID=<hex>" (cmd/go/internal/work.(*Builder).toolID).
	if r.code != 0 || !regexp.MustCompile(`^\S+ version devel .*buildID=[0-9a-f]+\n$`).MatchString(r.stdout) {
		t.Errorf("-V=full: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}

	r = runBinary(t, ctrllintBin, dir, nil, "-flags")
	var flags []struct {
		Name string
		Bool bool
	}
	if err := json.Unmarshal([]byte(r.stdout), &flags); r.code != 0 || err != nil {
		t.Fatalf("-flags: exit %d, %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	var names []string
	for _, f := range flags {
		names = append(names, f.Name)
	}
	for _, want := range []string{"enable", "disable", "tombstone", "json"} {
		if !slices.Contains(names, want) {
			t.Errorf("-flags lacks %q: %v", want, names)
		}
	}
}

// go vet runs the real binary over a clean module: exit 0, no output;
// -enable/-disable are accepted and checked.
func TestVetMode(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{
		"a.go":      "package m\n\nimport \"fmt\"\n\nfunc F() { fmt.Println(1) }\n",
		"a_test.go": "package m\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) { F() }\n",
	})
	for _, args := range [][]string{nil, {"-enable=tombstone"}, {"-disable", "tombstone"}} {
		out, code := goVet(t, dir, ctrllintBin, nil, append(args, "./...")...)
		if code != 0 || out != "" {
			t.Errorf("go vet %v: exit %d\n%s", args, code, out)
		}
	}
	out, code := goVet(t, dir, ctrllintBin, nil, "-enable=nope", "./...")
	if code == 0 || !strings.Contains(out, `unknown analyzer "nope"`) {
		t.Errorf("go vet -enable=nope: exit %d\n%s", code, out)
	}
	// The selection rule is analyzers.Select's, which every front end shares.
	out, code = goVet(t, dir, ctrllintBin, nil, "-enable=tombstone,forget", "-disable=forget", "./...")
	if code == 0 || !strings.Contains(out, "forget both enabled and disabled") {
		t.Errorf("go vet -enable=tombstone,forget -disable=forget: exit %d\n%s", code, out)
	}
}

// Both front ends must report the same findings on the same code. The
// test analyzers stand in for the real ones until fixtures exist that
// make the real ones fire; for those, call findingsBothModes with
// ctrllintBin and a fixture module.
func TestVetMatchesStandalone(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{
		"a.go":      "package m\n\nfunc bad() {}\n\nfunc F() { bad() }\n",
		"a_test.go": "package m\n\nfunc helper() { bad() }\n",
		"x_test.go": "package m_test\n\nfunc bad() {}\n\nfunc X() { bad() }\n",
		"sub/s.go":  "package sub\n\nfunc bad() {}\n\nfunc S() { _ = \"é\"; bad() }\n",
	})
	standalone, vet := findingsBothModes(t, os.Args[0], []string{suiteEnv + "=1"}, dir, "./...")
	var want []string
	for _, pos := range []string{"a.go:5:12", "a_test.go:3:17", "sub/s.go:5:22", "x_test.go:5:12"} {
		for _, a := range []string{"badcall", "badcalltwin", "badcallwhole"} {
			want = append(want, pos+": call of bad ("+a+")")
		}
	}
	if !slices.Equal(standalone, want) {
		t.Errorf("standalone:\n%s\nwant:\n%s", strings.Join(standalone, "\n"), strings.Join(want, "\n"))
	}
	if !slices.Equal(vet, standalone) {
		t.Errorf("go vet:\n%s\nstandalone:\n%s", strings.Join(vet, "\n"), strings.Join(standalone, "\n"))
	}
}

// go vet's lines name their analyzer as the command's do, "(badcall)"
// after the message (go vet prints only the message).
func TestVetTextNamesAnalyzer(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{"a.go": "package m\n\nfunc bad() {}\n\nfunc F() { bad() }\n"})
	out, code := goVet(t, dir, os.Args[0], []string{suiteEnv + "=1"}, "-enable=badcall,badcallwhole", "./...")
	var got []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "call of bad") {
			got = append(got, strings.TrimPrefix(l, "./")) // before Go 1.26, vet wrote "./a.go"
		}
	}
	slices.Sort(got)
	want := []string{"a.go:5:12: call of bad (badcall)", "a.go:5:12: call of bad (badcallwhole)"}
	if code == 0 || !slices.Equal(got, want) {
		t.Errorf("go vet: exit %d\n%s\nwant the lines\n%s", code, out, strings.Join(want, "\n"))
	}
}

// findingsBothModes runs bin on patterns in dir standalone (-f json) and
// as go vet -vettool (-json), and returns each mode's findings as sorted,
// deduplicated "file:line:col: message (analyzer)" lines, file relative
// to dir. env is added to both runs' environment.
func findingsBothModes(t *testing.T, bin string, env []string, dir string, patterns ...string) (standalone, vet []string) {
	t.Helper()
	r := runBinary(t, bin, dir, env, append([]string{"-f", "json"}, patterns...)...)
	if r.code != exitClean && r.code != exitFindings {
		t.Fatalf("standalone: exit %d\n%s", r.code, r.stderr)
	}
	var fs []jsonFinding
	if err := json.Unmarshal([]byte(r.stdout), &fs); err != nil {
		t.Fatalf("standalone output: %v\n%s", err, r.stdout)
	}
	for _, f := range fs {
		standalone = append(standalone, fmt.Sprintf("%s:%d:%d: %s (%s)", filepath.ToSlash(f.File), f.Line, f.Column, f.Message, f.Analyzer))
	}

	out, code := goVet(t, dir, bin, env, append([]string{"-json"}, patterns...)...)
	if code != 0 {
		t.Fatalf("go vet: exit %d\n%s", code, out)
	}
	// The output is a stream of JSON objects, package -> analyzer ->
	// diagnostics (or {"error": ...}), interleaved with "# pkg" lines.
	var stream bytes.Buffer
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		if !strings.HasPrefix(sc.Text(), "#") {
			stream.WriteString(sc.Text() + "\n")
		}
	}
	rel := relativizer(dir)
	dec := json.NewDecoder(&stream)
	for dec.More() {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); err != nil {
			t.Fatalf("go vet output: %v\n%s", err, out)
		}
		for pkg, byAnalyzer := range tree {
			for analyzer, raw := range byAnalyzer {
				var diags []struct{ Posn, Message string }
				if err := json.Unmarshal(raw, &diags); err != nil {
					t.Errorf("go vet: %s on %s: %s", analyzer, pkg, raw)
					continue
				}
				for _, d := range diags {
					file, line, col := splitPosn(d.Posn)
					// The message names its analyzer under go vet (nameFindings).
					msg, ok := strings.CutSuffix(d.Message, " ("+analyzer+")")
					if !ok {
						t.Errorf("go vet: %s's message %q does not end with (%s)", analyzer, d.Message, analyzer)
					}
					vet = append(vet, fmt.Sprintf("%s:%d:%d: %s (%s)", filepath.ToSlash(rel(file)), line, col, msg, analyzer))
				}
			}
		}
	}
	return sortLines(standalone), sortLines(vet)
}

// sortLines orders lines as the driver orders findings (file, line,
// column, analyzer, message) and drops duplicates.
func sortLines(lines []string) []string {
	var fs []finding.Finding
	for _, l := range lines {
		pos, rest, _ := strings.Cut(l, ": ")
		file, line, col := splitPosn(pos)
		i := strings.LastIndex(rest, " (")
		fs = append(fs, finding.Finding{Pos: finding.Position{File: file, Line: line, Column: col}, Message: rest[:i], Analyzer: strings.TrimSuffix(rest[i+2:], ")")})
	}
	finding.Sort(fs)
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s:%d:%d: %s (%s)", f.Pos.File, f.Pos.Line, f.Pos.Column, f.Message, f.Analyzer))
	}
	return slices.Compact(out)
}

func splitPosn(s string) (file string, line, col int) {
	parts := strings.Split(s, ":")
	if len(parts) < 3 {
		return s, 0, 0
	}
	fmt.Sscan(parts[len(parts)-2], &line)
	fmt.Sscan(parts[len(parts)-1], &col)
	return strings.Join(parts[:len(parts)-2], ":"), line, col
}

// goVet runs go vet -vettool=tool in dir and returns its combined output.
func goVet(t *testing.T, dir, tool string, env []string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command("go", append([]string{"vet", "-vettool=" + tool}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return string(out), ee.ExitCode()
		}
		t.Fatalf("go vet: %v", err)
	}
	return string(out), 0
}

// The real analyzers on the analyzer fixtures: go vet and the standalone
// driver must agree. The standalone driver sees dependencies only as
// export data, so this is what guards against findings that depend on
// facts about other packages.
func TestVetMatchesStandaloneOnFixtures(t *testing.T) {
	if testing.Short() {
		t.Skip("go vet type-checks client-go from source: slow")
	}
	for _, mod := range []string{"current", "legacy"} {
		t.Run(mod, func(t *testing.T) {
			dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "src", mod))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
				t.Fatalf("no fixture module: %v", err)
			}
			standalone, vet := findingsBothModes(t, ctrllintBin, nil, dir, "./...")
			if len(standalone) == 0 {
				t.Errorf("no findings on the fixtures: the comparison proves nothing")
			}
			if !slices.Equal(vet, standalone) {
				t.Errorf("go vet:\n%s\nstandalone:\n%s", strings.Join(vet, "\n"), strings.Join(standalone, "\n"))
			}
		})
	}
}

// Facts cross packages under go vet as in the standalone driver: a
// finding in top needs what mid says of itself, and the standalone run
// analyses mid for it although the pattern names only top. mid's Chain
// calls bad only through low: mid's summary follows low's facts, under
// both, and the standalone run analyses low too, two levels below top.
func TestVetMatchesStandaloneWithFacts(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{
		"low/low.go": "package low\n\nfunc bad() {}\n\nfunc L() { bad() }\n",
		"mid/mid.go": "package mid\n\nimport \"example.com/m/low\"\n\nfunc bad() {}\n\nfunc M() { bad() }\n\nfunc Chain() { low.L() }\n",
		"top/top.go": "package top\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/m/mid\"\n)\n\nfunc Top() { mid.M(); mid.Chain(); fmt.Println() }\n",
	})
	standalone, vet := findingsBothModes(t, os.Args[0], []string{suiteEnv + "=facts"}, dir, "./top")
	want := []string{
		"top/top.go:1:9: sees facts of mid (callsbad)",
		"top/top.go:9:14: mid.M calls bad (bad) (callsbad)",
		"top/top.go:9:23: mid.Chain calls bad (low.L→bad) (callsbad)",
	}
	if !slices.Equal(standalone, want) {
		t.Errorf("standalone:\n%s\nwant:\n%s", strings.Join(standalone, "\n"), strings.Join(want, "\n"))
	}
	if !slices.Equal(vet, standalone) {
		t.Errorf("go vet:\n%s\nstandalone:\n%s", strings.Join(vet, "\n"), strings.Join(standalone, "\n"))
	}
}

// go vet asks for the types and facts of every dependency. One of another
// module (example.com/dep, required at a version and replaced by a
// directory) gets no facts, as in the standalone driver, which does not
// analyse it: without that, CallsBad, which summarises every package it
// is run on, would report d.D under go vet only.
func TestVetFactsOnlyForLocalModules(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.22\n\nrequire example.com/dep v1.0.0\n\nreplace example.com/dep => ./dep\n",
		"dep/go.mod": "module example.com/dep\n\ngo 1.22\n",
		"dep/d/d.go": "package d\n\nfunc bad() {}\n\nfunc D() { bad() }\n",
		"mid/mid.go": "package mid\n\nfunc bad() {}\n\nfunc M() { bad() }\n",
		"top/top.go": "package top\n\nimport (\n\t\"example.com/dep/d\"\n\t\"example.com/m/mid\"\n)\n\nfunc Top() { d.D(); mid.M() }\n",
	})
	standalone, vet := findingsBothModes(t, os.Args[0], []string{suiteEnv + "=facts"}, dir, "./top")
	want := []string{
		"top/top.go:1:9: sees facts of mid (callsbad)",
		"top/top.go:8:21: mid.M calls bad (bad) (callsbad)",
	}
	if !slices.Equal(standalone, want) {
		t.Errorf("standalone:\n%s\nwant:\n%s", strings.Join(standalone, "\n"), strings.Join(want, "\n"))
	}
	if !slices.Equal(vet, standalone) {
		t.Errorf("go vet:\n%s\nstandalone:\n%s", strings.Join(vet, "\n"), strings.Join(standalone, "\n"))
	}
}
