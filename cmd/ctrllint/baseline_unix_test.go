//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// -baseline naming a named pipe, or /dev/stdin on one, stops the run at
// once with exit 2 and a message naming it, as -config does
// (TestConfigFIFO): reading it used to wait for ever, deaf to SIGINT and
// SIGTERM.
func TestBaselineFIFO(t *testing.T) {
	dir := fixture(t)
	fifo := filepath.Join(dir, "baseline.json")
	if err := syscall.Mkfifo(fifo, 0o666); err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for _, tc := range []struct{ arg, want string }{
		{"baseline.json", "ctrllint: -baseline: open " + fifo + ": a named pipe (FIFO), not a regular file\n"},
		{"/dev/stdin", "ctrllint: -baseline: open /dev/stdin: a named pipe (FIFO), not a regular file\n"},
	} {
		res := runPrompt(t, dir, r, "-config=none", "-baseline", tc.arg, "./...")
		if res.code != exitError || res.stdout != "" || res.stderr != tc.want {
			t.Errorf("-baseline %s: exit %d\nstdout %q\nstderr %q\nwant   %q", tc.arg, res.code, res.stdout, res.stderr, tc.want)
		}
	}
}
