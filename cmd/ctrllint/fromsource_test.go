package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// A first run on a machine that built nothing type-checks the
// dependencies from source and keeps their export data; the next decodes
// that. Both must find, on both fixture modules, exactly what a run from
// the go command's export data finds (issue 32). Export data is kept for
// the module cache and the standard library only: a package of the
// analysed module that a root imports without being that root (p, beside
// the root "p [p.test]" of a package with in-package tests, imported by a
// command of the module) is type-checked from source on every such run,
// so the second run may type-check at most the module's own packages.
func TestFromSourceFindsTheSame(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks both fixture modules' dependencies from source")
	}
	fromSource := regexp.MustCompile(`type-checked (\d+) the go command had not built from source`)
	for _, mod := range []string{"current", "v017"} {
		dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "src", mod))
		if err != nil {
			t.Fatal(err)
		}
		args := []string{"-f", "json", "-v", "./..."}
		want := runBinary(t, ctrllintBin, dir, []string{"GOPROXY=off"}, append([]string{"-cache=false"}, args...)...)
		if want.code != exitFindings {
			t.Fatalf("%s: export data: exit %d\n%s", mod, want.code, want.stderr)
		}
		if m := fromSource.FindStringSubmatch(want.stderr); m != nil {
			t.Fatalf("%s: the go command has not built the fixture (make testdata): %s", mod, m[0])
		}
		cache := t.TempDir()
		env := []string{"GOPROXY=off", "CTRLLINT_FROM_SOURCE=1", "CTRLLINT_CACHE=" + cache}
		for _, step := range []struct {
			name   string
			source bool // dependencies type-checked from source
		}{{"from source", true}, {"from kept export data", false}} {
			// Results would be the first run's: only export data is kept.
			if err := os.RemoveAll(filepath.Join(cache, "results")); err != nil {
				t.Fatal(err)
			}
			got := runBinary(t, ctrllintBin, dir, env, args...)
			if got.code != want.code || got.stdout != want.stdout {
				t.Errorf("%s, %s: exit %d, findings\n%s\nwant exit %d, findings\n%s\nstderr:\n%s", mod, step.name, got.code, got.stdout, want.code, want.stdout, got.stderr)
			}
			m := fromSource.FindStringSubmatch(got.stderr)
			switch {
			case step.source && m == nil:
				t.Errorf("%s, %s: -v says nothing was type-checked from source", mod, step.name)
			case !step.source && m != nil:
				if n, _ := strconv.Atoi(m[1]); n > ownPackages(t, dir) {
					t.Errorf("%s, %s: -v says %q: more than the module's own packages, whose export data is not kept", mod, step.name, m)
				}
			}
		}
	}
}

// ownPackages is the number of packages of the module in dir.
func ownPackages(t *testing.T, dir string) int {
	t.Helper()
	cmd := exec.Command("go", "list", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOWORK=off")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./... in %s: %v", dir, err)
	}
	return len(strings.Fields(string(out)))
}
