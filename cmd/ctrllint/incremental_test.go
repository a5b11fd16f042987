package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

// After each edit, a run with the result cache says exactly what a run
// without it says, output and exit status, though it lists the edited
// packages without export data and type-checks their importers against
// their source (internal/driver/load/split.go).
func TestCachedRunAfterEdits(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{
		"lib/lib.go":    "package lib\n\nfunc L() {}\n",
		"lib/x_test.go": "package lib_test\n\nimport \"example.com/m/lib\"\n\nfunc bad() {}\n\nfunc init() { bad(); lib.L() }\n",
		"a/a.go":        "package a\n\nimport \"example.com/m/lib\"\n\nfunc bad() {}\n\nfunc A() { bad(); lib.L() }\n",
	})
	t.Setenv("CTRLLINT_CACHE", t.TempDir())
	args := []string{"-C", dir, "-enable", "badcall", "./..."}
	for i, lib := range []string{
		"package lib\n\nfunc L() {}\n",
		"package lib\n\nfunc bad() {}\n\nfunc L() { bad() }\n", // a finding in lib
		"package lib\n\nfunc M() {}\n",                         // a and lib's test no longer type-check
		"package lib\n\nfunc bad() {}\n\nfunc L() { bad(); bad() }\n",
	} {
		name := filepath.Join(dir, "lib", "lib.go")
		if err := os.WriteFile(name, []byte(lib), 0o644); err != nil {
			t.Fatal(err)
		}
		testanalyzers.Settle(t, name)
		cached := runInProcess(args...)
		fresh := runInProcess(append([]string{"-cache=false"}, args...)...)
		if cached != fresh {
			t.Errorf("edit %d: with the cache\n%+v\nwithout\n%+v", i, cached, fresh)
		}
		if want := []int{exitFindings, exitFindings, exitError, exitFindings}[i]; fresh.code != want {
			t.Errorf("edit %d: exit %d, want %d: %+v", i, fresh.code, want, fresh)
		}
	}
}
