package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fixtoolCommand is how docs/README.md spells the go fix command; the
// tests here run it with ctrllintBin for the tool.
const fixtoolCommand = "go fix -fixtool=$(command -v ctrllint)"

// requireGoFixtool skips the test when the installed go command's fix
// takes no analysis tool: go fix ran the old cmd/fix rewrites until Go
// 1.26, which made it a front end for analyzers, as go vet is.
func requireGoFixtool(t *testing.T) {
	t.Helper()
	out, err := exec.Command("go", "help", "fix").CombinedOutput()
	if err != nil {
		t.Fatalf("go help fix: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "-fixtool") {
		v, _ := exec.Command("go", "version").Output()
		t.Skipf("%s: its go fix has no -fixtool (Go 1.26 added it), so go fix -fixtool=ctrllint cannot run", strings.TrimSpace(string(v)))
	}
}

// goFix runs go fix -fixtool=ctrllintBin in dir, offline.
func goFix(t *testing.T, dir string, args ...string) result {
	t.Helper()
	return runBinary(t, "go", dir, []string{"GOPROXY=off"}, append([]string{"fix", "-fixtool=" + ctrllintBin}, args...)...)
}

// go fix -fixtool=ctrllint, every analyzer, on every fixture with golden
// files at once writes the golden files, and what ctrllint -fix writes on
// the same packages, file for file. With every analyzer each fixture still
// gets only its own analyzer's fixes, which its golden files hold.
func TestGoFixOnFixtures(t *testing.T) {
	requireGoFixtool(t)
	if testing.Short() {
		t.Skip("go fix type-checks client-go and controller-runtime from source: slow")
	}
	src, err := filepath.Abs(filepath.Join("..", "..", "testdata", "src", "current"))
	if err != nil {
		t.Fatal(err)
	}
	byGoFix, byCtrllint := t.TempDir(), t.TempDir()
	var pkgs []string
	fixtures := goldenFixtures(t, src)
	for _, dir := range []string{byGoFix, byCtrllint} {
		for _, name := range []string{"go.mod", "go.sum"} {
			copyFile(t, filepath.Join(src, name), filepath.Join(dir, name))
		}
		for _, tc := range fixtures {
			copyPackageTree(t, src, dir, tc.pkg)
		}
	}
	for _, tc := range fixtures {
		pkgs = append(pkgs, "./"+tc.pkg)
	}

	// go fix applies what it can and reports nothing else: exit 0 although
	// some findings have no fix.
	if r := goFix(t, byGoFix, pkgs...); r.code != 0 {
		t.Fatalf("go fix: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := runBinary(t, ctrllintBin, byCtrllint, []string{"GOPROXY=off"}, append([]string{"-fix"}, pkgs...)...); r.code != exitClean && r.code != exitFindings {
		t.Fatalf("ctrllint -fix: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, tc := range fixtures {
		goldens, _ := filepath.Glob(filepath.Join(src, tc.pkg, "*.go.golden"))
		for _, g := range goldens {
			checkFile(t, filepath.Join(byGoFix, tc.pkg, strings.TrimSuffix(filepath.Base(g), ".golden")), g, "go fix")
		}
	}
	compared := 0
	err = filepath.WalkDir(byGoFix, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		rel, _ := filepath.Rel(byGoFix, path)
		checkFile(t, path, filepath.Join(byCtrllint, rel), "go fix, against ctrllint -fix,")
		compared++
		return nil
	})
	if err != nil || compared == 0 {
		t.Fatalf("%d files compared: %v", compared, err)
	}
}

// checkFile reports an error unless file got has the content of file want.
func checkFile(t *testing.T, got, want, what string) {
	t.Helper()
	g, err := os.ReadFile(got)
	if err != nil {
		t.Fatal(err)
	}
	w, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	if string(g) != string(w) {
		t.Errorf("%s wrote %s:\n%s\nwant (%s):\n%s", what, got, g, want, w)
	}
}

// The analyzers go fix runs are chosen as under go vet, by unitchecker's
// -NAME and -NAME=false or by -enable and -disable: on a file with a
// tombstone fix and a forget fix, only the chosen analyzers' fixes are
// applied, as ctrllint -fix applies them with the same selection.
func TestGoFixSelectsAnalyzers(t *testing.T) {
	requireGoFixtool(t)
	if testing.Short() {
		t.Skip("go fix type-checks client-go from source: slow")
	}
	src, err := filepath.Abs(filepath.Join("..", "..", "testdata", "src", "current"))
	if err != nil {
		t.Fatal(err)
	}
	const file = "twofixes/controller.go"
	module := func() string {
		dir := t.TempDir()
		for _, name := range []string{"go.mod", "go.sum", file} {
			copyFile(t, filepath.Join(src, name), filepath.Join(dir, name))
		}
		return dir
	}

	// The fixture has what the test needs: one finding of each analyzer,
	// each with its fix.
	r := runBinary(t, ctrllintBin, module(), []string{"GOPROXY=off"}, "-f", "json", "./twofixes")
	var found []jsonFinding
	if err := json.Unmarshal([]byte(r.stdout), &found); r.code != exitFindings || err != nil {
		t.Fatalf("ctrllint: exit %d, %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	var fixable []string
	for _, f := range found {
		if len(f.Fixes) > 0 {
			fixable = append(fixable, f.Analyzer)
		}
	}
	slices.Sort(fixable)
	if len(found) != 2 || !slices.Equal(fixable, []string{"forget", "tombstone"}) {
		t.Fatalf("want a fixable finding of forget and one of tombstone in %s, got %+v", file, found)
	}

	for _, tc := range []struct {
		goFix, ctrllint []string
		golden          string // under twofixes/
		documented      bool   // docs/README.md shows the command
	}{
		{nil, nil, "controller.go.golden", true},
		{[]string{"-tombstone"}, []string{"-enable", "tombstone"}, "controller.go.tombstone.golden", true},
		{[]string{"-tombstone=false"}, []string{"-disable", "tombstone"}, "controller.go.forget.golden", false},
		{[]string{"-enable=forget"}, []string{"-enable", "forget"}, "controller.go.forget.golden", true},
		{[]string{"-disable=forget"}, []string{"-disable", "forget"}, "controller.go.tombstone.golden", true},
	} {
		golden := filepath.Join(src, "twofixes", tc.golden)
		dir := module()
		if r := goFix(t, dir, append(tc.goFix, "./twofixes")...); r.code != 0 {
			t.Fatalf("go fix %v: exit %d\n%s%s", tc.goFix, r.code, r.stdout, r.stderr)
		}
		checkFile(t, filepath.Join(dir, file), golden, "go fix "+strings.Join(tc.goFix, " "))

		dir = module()
		if r := runBinary(t, ctrllintBin, dir, []string{"GOPROXY=off"}, append(append(tc.ctrllint, "-fix"), "./twofixes")...); r.code != exitClean {
			t.Fatalf("ctrllint %v -fix: exit %d\n%s%s", tc.ctrllint, r.code, r.stdout, r.stderr)
		}
		checkFile(t, filepath.Join(dir, file), golden, "ctrllint -fix "+strings.Join(tc.ctrllint, " "))

		if tc.documented {
			checkDocumented(t, strings.Join(append(append([]string{fixtoolCommand}, tc.goFix...), "./..."), " "))
		}
	}

	// -diff prints the fixes instead of writing them, and exits 1.
	dir := module()
	r = goFix(t, dir, "-diff", "-forget", "./twofixes")
	if r.code != 1 || !strings.Contains(r.stdout, "+\tc.queue.Forget(key)\n") || strings.Contains(r.stdout, "DeletionHandling") {
		t.Errorf("go fix -diff -forget: exit %d, want 1 and the forget fix alone:\n%s%s", r.code, r.stdout, r.stderr)
	}
	checkFile(t, filepath.Join(dir, file), filepath.Join(src, file), "go fix -diff")
	checkDocumented(t, fixtoolCommand+" -diff ./...")

	// A selection the front ends refuse fails go fix, which writes nothing.
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-enable=nope"}, `unknown analyzer "nope"`},
		{[]string{"-enable=forget", "-disable=forget"}, "forget both enabled and disabled"},
		{[]string{"-nope"}, "flag provided but not defined: -nope"},
	} {
		dir := module()
		r := goFix(t, dir, append(tc.args, "./twofixes")...)
		if r.code == 0 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("go fix %v: exit %d, want an error %q:\n%s%s", tc.args, r.code, tc.want, r.stdout, r.stderr)
		}
		checkFile(t, filepath.Join(dir, file), filepath.Join(src, file), "go fix "+strings.Join(tc.args, " "))
	}
}

// checkDocumented reports an error unless docs/README.md shows command on
// a line of its own.
func checkDocumented(t *testing.T, command string) {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join("..", "..", "docs", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(readme), "\n") {
		if strings.TrimSpace(line) == command {
			return
		}
	}
	t.Errorf("docs/README.md does not show %q", command)
}
