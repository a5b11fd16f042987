package driver_test

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrllint/ctrllint/internal/driver"
	"github.com/ctrllint/ctrllint/internal/finding"
	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

// The fix of a real analyzer, planned from a real load and written.
func TestFixEndToEnd(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{"a.go": badGo, "a_test.go": "package m\n\nfunc helper() { bad() }\n"})
	res, err := analyze(t, dir, driver.Config{Tests: true})
	if err != nil {
		t.Fatal(err)
	}
	plan := finding.PlanFixes(res.Findings, finding.PlanOptions{Analysed: res.Analysed})
	if len(plan.Skipped) != 0 || len(plan.Files) != 2 {
		t.Fatalf("plan: skipped %v, files %d", plan.Skipped, len(plan.Files))
	}
	if err := plan.Write(); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "a.go"))
	want := strings.ReplaceAll(strings.Replace(badGo, "if true { bad() }", "if true {\n\t\tgood()\n\t}", 1), "\tbad()", "\tgood()")
	if string(got) != want {
		t.Errorf("a.go after fix:\n%s\nwant:\n%s", got, want)
	}
	res, err = analyze(t, dir, driver.Config{Tests: true})
	if err != nil || len(res.Findings) != 0 {
		t.Errorf("after fix: %v %v", err, res.Findings)
	}
}

// Result.Analysed gives each file's content as analysed, whether the
// findings were found in this run or taken from the result cache, so that
// -fix can refuse a file saved since (TestFixSavedDuringAnalysis in
// cmd/ctrllint runs the command on one).
func TestAnalysedDigests(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{"a.go": badGo, "a_test.go": "package m\n\nfunc helper() { bad() }\n"})
	cfg := driver.Config{Tests: true, CacheDir: t.TempDir()}
	for _, run := range []string{"fresh", "cached"} {
		res, err := analyze(t, dir, cfg)
		if err != nil || len(res.Findings) != 3 {
			t.Fatalf("%s: %v %v", run, err, res.Findings)
		}
		for _, f := range res.Findings {
			src, _ := os.ReadFile(f.Pos.File)
			if d, ok := res.Analysed(f.Pos.File); !ok || d != sha256.Sum256(src) {
				t.Errorf("%s: Analysed(%s) = %x, %v; want the digest of its content", run, filepath.Base(f.Pos.File), d, ok)
			}
		}
		if _, ok := res.Analysed(filepath.Join(dir, "go.mod")); ok {
			t.Errorf("%s: go.mod counts as analysed", run)
		}
	}
	res, err := analyze(t, dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("// saved\n"+badGo), 0o644); err != nil {
		t.Fatal(err)
	}
	plan := finding.PlanFixes(res.Findings, finding.PlanOptions{Analysed: res.Analysed})
	if len(plan.Stale) != 1 || filepath.Base(plan.Stale[0]) != "a.go" || plan.Write() == nil {
		t.Errorf("a.go saved after a cached run: stale %v", plan.Stale)
	}
}
