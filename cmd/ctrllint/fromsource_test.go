package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// A first run on a machine that built nothing type-checks the
// dependencies from source and keeps their export data; the next decodes
// that. Both must find, on both fixture modules, exactly what a run from
// the go command's export data finds (issue 32).
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
			if m := fromSource.FindStringSubmatch(got.stderr); (m != nil) != step.source {
				t.Errorf("%s, %s: -v says %q", mod, step.name, m)
			}
		}
	}
}
