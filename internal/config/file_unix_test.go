//go:build unix

package config

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ctrllint/ctrllint/analyzers"
)

// A named pipe, or a character device such as a terminal, is refused at
// once, not read: a pipe nobody writes to would block the load for ever.
func TestLoadNotRegular(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), ".ctrllint.yml")
	if err := syscall.Mkfifo(fifo, 0o666); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		fifo:       fifo + ": a named pipe (FIFO), not a regular file",
		os.DevNull: os.DevNull + ": a character device, not a regular file",
	} {
		done := make(chan error, 1)
		go func() {
			_, err := Load(path, path, analyzers.New())
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v, want %q", path, err, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Load still waiting after 10s", path)
		}
	}
}

// A dangling symbolic link is found, for Load to refuse, not skipped for
// the file above it.
func TestFindDangling(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, ".ctrllint.yml"), nil, 0o666); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "sub", ".ctrllint.yml")
	if err := os.Mkdir(filepath.Dir(link), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("nowhere.yml", link); err != nil {
		t.Fatal(err)
	}
	if got, err := Find(filepath.Dir(link)); got != link || err != nil {
		t.Errorf("found %q, %v; want the link", got, err)
	}
}

// A configuration file that exists but cannot be read is an error naming
// it, never no configuration.
func TestLoadUnreadable(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Mkdir(filepath.Join(dir, "dir.yml"), 0o777))
	must(os.Symlink("nowhere.yml", filepath.Join(dir, "dangling.yml")))
	must(os.Symlink("loop.yml", filepath.Join(dir, "loop.yml")))
	must(os.WriteFile(filepath.Join(dir, "unreadable.yml"), []byte("enable: [tombstone]\n"), 0))
	for _, tc := range []struct{ name, want string }{
		{"dir.yml", "a directory, not a regular file"},
		{"dangling.yml", "a symbolic link to nowhere.yml, which does not exist"},
		{"loop.yml", "too many levels of symbolic links"},
		{"unreadable.yml", "permission denied"},
		{"missing.yml", "no such file or directory"},
	} {
		if tc.name == "unreadable.yml" && os.Geteuid() == 0 {
			continue // root reads it
		}
		path := filepath.Join(dir, tc.name)
		f, err := Load(path, tc.name, analyzers.New())
		if err == nil || !strings.Contains(err.Error(), path+": "+tc.want) {
			t.Errorf("%s: %+v, %v; want an error naming it: %q", tc.name, f, err, tc.want)
		}
	}
}
