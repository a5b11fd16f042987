package regular

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("data\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("file", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"file", "link"} {
		if b, err := ReadFile(filepath.Join(dir, name)); err != nil || string(b) != "data\n" {
			t.Errorf("%s: %q, %v", name, b, err)
		}
	}
}

// What is not a regular file is refused with a PathError naming it and
// saying what it is; a missing file is fs.ErrNotExist, a dangling link is
// not.
func TestRefused(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "dir"), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("nowhere", filepath.Join(dir, "dangling")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("loop", filepath.Join(dir, "loop")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, want string
		notExist   bool
	}{
		{filepath.Join(dir, "missing"), "no such file or directory", true},
		{filepath.Join(dir, "dir"), "a directory, not a regular file", false},
		{filepath.Join(dir, "dangling"), "a symbolic link to nowhere, which does not exist", false},
		{filepath.Join(dir, "loop"), "too many levels of symbolic links", false},
		{os.DevNull, "a character device, not a regular file", false},
	} {
		if runtime.GOOS == "windows" && (tc.path == os.DevNull || strings.HasSuffix(tc.path, "loop")) {
			continue
		}
		_, err := ReadFile(tc.path)
		var pe *fs.PathError
		if !errors.As(err, &pe) || pe.Path != tc.path || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want a PathError saying %q", tc.path, err, tc.want)
		}
		if errors.Is(err, fs.ErrNotExist) != tc.notExist {
			t.Errorf("%s: errors.Is(%v, fs.ErrNotExist) = %v", tc.path, err, !tc.notExist)
		}
	}
}
