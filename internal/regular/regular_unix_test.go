//go:build unix

package regular

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A named pipe nobody writes to is refused at once, whether Check sees it
// or it takes the file's place after Check.
func TestFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o666); err != nil {
		t.Fatal(err)
	}
	for name, read := range map[string]func(string) error{
		"ReadFile": func(p string) error { _, err := ReadFile(p); return err },
		// As if the file had been swapped for the pipe after Check.
		"after Check": func(p string) error {
			f, err := openChecked(p)
			if err == nil {
				f.Close()
			}
			return err
		},
	} {
		done := make(chan error, 1)
		go func() { done <- read(fifo) }()
		select {
		case err := <-done:
			var nr *NotRegularError
			if !errors.As(err, &nr) || !strings.Contains(err.Error(), fifo+": a named pipe (FIFO), not a regular file") {
				t.Errorf("%s: %v", name, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: still waiting on the pipe after 10s", name)
		}
	}
}

func TestUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads files without read permission")
	}
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, []byte("x"), 0); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(file); !errors.Is(err, os.ErrPermission) || !strings.Contains(err.Error(), file) {
		t.Errorf("%v, want permission denied naming the file", err)
	}
}
