package testanalyzers

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// FixtureModule copies the package pkg of the fixture module
// testdata/src/current (its files, each with extra[name] appended) into a
// fresh module with that module's go.mod and go.sum, and returns the
// copy's directory: the editor tests edit it.
func FixtureModule(t testing.TB, pkg string, extra map[string]string) string {
	t.Helper()
	_, self, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("no caller information to find testdata by")
	}
	src := filepath.Join(filepath.Dir(self), "..", "..", "testdata", "src", "current")
	mod := t.TempDir()
	dir := filepath.Join(mod, pkg)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile := func(from, to, add string) {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, append(b, add...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyFile(filepath.Join(src, "go.mod"), filepath.Join(mod, "go.mod"), "")
	copyFile(filepath.Join(src, "go.sum"), filepath.Join(mod, "go.sum"), "")
	entries, err := os.ReadDir(filepath.Join(src, pkg))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			copyFile(filepath.Join(src, pkg, e.Name()), filepath.Join(dir, e.Name()), extra[e.Name()])
		}
	}
	return dir
}
