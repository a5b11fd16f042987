//go:build unix

package baseline

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A named pipe is refused at once, not read: nobody writing to it, the
// read would block for ever.
func TestReadFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "baseline")
	if err := syscall.Mkfifo(fifo, 0o666); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := Read(fifo)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || err.Error() != "open "+fifo+": a named pipe (FIFO), not a regular file" {
			t.Errorf("%v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Read still waiting after 10s")
	}
}
