package testanalyzers

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// WriteModule writes a standard-library-only module example.com/m into a
// fresh directory and returns it: files maps slash paths to contents. A
// go.mod is added unless files has one; {"go.mod": ""} means no go.mod.
func WriteModule(t testing.TB, files map[string]string) string {
	t.Helper()
	// Resolve symlinks (macOS /var -> /private/var) so paths compare equal
	// to what the go command reports.
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	all := map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n"}
	for name, content := range files {
		all[name] = content
	}
	for name, content := range all {
		if content == "" {
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		Settle(t, p)
	}
	return dir
}

// Settle dates a file a minute back, as if it had been saved well before
// the run that reads it: the result cache does not store what it found in
// a file modified just before or during a run, since it cannot know which
// content was analysed.
func Settle(t testing.TB, name string) {
	t.Helper()
	then := time.Now().Add(-time.Minute)
	if err := os.Chtimes(name, then, then); err != nil {
		t.Fatal(err)
	}
}

// Age dates every file under dir an hour back, as the files of a
// repository opened in an editor are, and returns that time: a load does
// not trust a file written as it started (load.Stamp).
func Age(t testing.TB, dir string) time.Time {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(path, old, old)
	})
	if err != nil {
		t.Fatal(err)
	}
	return old
}
