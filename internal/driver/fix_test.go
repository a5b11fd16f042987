package driver_test

import (
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
	plan := finding.PlanFixes(res.Findings, nil)
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
