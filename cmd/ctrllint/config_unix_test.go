//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runPrompt runs the real command in dir with stdin, and fails the test
// if it has not exited within 30 s (then killed): a run that cannot
// read its input must say so, not wait for it.
func runPrompt(t *testing.T, dir string, stdin *os.File, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, ctrllintBin, args...)
	cmd.Dir, cmd.Stdin = dir, stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%v: still running after 30 s (killed)\nstderr %q", args, stderr.String())
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{stdout.String(), stderr.String(), code}
}

// A named pipe as the configuration file, named by -config (/dev/stdin on
// a pipe too) or found as .ctrllint.yml, stops every front end at once
// with exit 2 and a message naming it. Reading it used to wait for ever
// for a writer, deaf to SIGINT and SIGTERM, which the command catches.
func TestConfigFIFO(t *testing.T) {
	dir := fixture(t)
	fifo := filepath.Join(dir, "pipe.yml")
	found := filepath.Join(dir, "sub", ".ctrllint.yml")
	for _, p := range []string{fifo, found} {
		if err := syscall.Mkfifo(p, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	// A pipe whose writer stays open and silent: /dev/stdin of the runs.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	const notRegular = ": a named pipe (FIFO), not a regular file\n"
	for _, tc := range []struct {
		name string
		args []string
		want string // the whole of stderr
	}{
		{"-config FIFO", []string{"-config", "pipe.yml", "./..."}, "ctrllint: -config: open " + fifo + notRegular},
		{"-config /dev/stdin", []string{"-config", "/dev/stdin", "./..."}, "ctrllint: -config: open /dev/stdin" + notRegular},
		{"found .ctrllint.yml", []string{"-C", "sub", "."}, "ctrllint: open " + found + notRegular},
		{"-list", []string{"-C", "sub", "-list"}, "ctrllint: open " + found + notRegular},
		{"lsp -config FIFO", []string{"lsp", "-config", "pipe.yml"}, "ctrllint: -config: open " + fifo + notRegular},
		{"gopls -config FIFO", []string{"gopls", "-config", "pipe.yml"}, "ctrllint: -config: open " + fifo + notRegular},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := runPrompt(t, dir, r, tc.args...)
			if res.code != exitError || res.stdout != "" || res.stderr != tc.want {
				t.Errorf("exit %d\nstdout %q\nstderr %q\nwant   %q", res.code, res.stdout, res.stderr, tc.want)
			}
		})
	}
}

// A configuration file that is there but cannot be read is an error
// naming it (exit 2), never a run with every analyzer's defaults, nor one
// with the file further up.
func TestConfigUnreadable(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(dir string) error
		args  []string
		want  string // stderr, with DIR for the module's directory
	}{
		{"dangling symbolic link", func(dir string) error {
			return os.Symlink("gone.yml", filepath.Join(dir, ".ctrllint.yml"))
		}, nil, "ctrllint: open DIR/.ctrllint.yml: a symbolic link to gone.yml, which does not exist\n"},
		{"dangling symbolic link found from below", func(dir string) error {
			return os.Symlink("../gone.yml", filepath.Join(dir, "sub", ".ctrllint.yml"))
		}, []string{"-C", "DIR/sub"}, "ctrllint: open DIR/sub/.ctrllint.yml: a symbolic link to ../gone.yml, which does not exist\n"},
		{"dangling -config", func(dir string) error {
			return os.Symlink("gone.yml", filepath.Join(dir, "ci.yml"))
		}, []string{"-config", "ci.yml"}, "ctrllint: -config: open DIR/ci.yml: a symbolic link to gone.yml, which does not exist\n"},
		{"dangling .ctrllint.yaml beside .ctrllint.yml", func(dir string) error {
			if err := os.WriteFile(filepath.Join(dir, ".ctrllint.yml"), []byte("enable: [badcall]\n"), 0o666); err != nil {
				return err
			}
			return os.Symlink("gone.yml", filepath.Join(dir, ".ctrllint.yaml"))
		}, nil, "ctrllint: both DIR/.ctrllint.yml and .ctrllint.yaml: keep one\n"},
		{"symbolic link loop", func(dir string) error {
			return os.Symlink(".ctrllint.yml", filepath.Join(dir, ".ctrllint.yml"))
		}, nil, "ctrllint: open DIR/.ctrllint.yml: too many levels of symbolic links\n"},
		{"directory", func(dir string) error {
			return os.Mkdir(filepath.Join(dir, ".ctrllint.yml"), 0o777)
		}, nil, "ctrllint: open DIR/.ctrllint.yml: a directory, not a regular file\n"},
		{"no read permission", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, ".ctrllint.yml"), []byte("enable: [badcall]\n"), 0)
		}, nil, "ctrllint: open DIR/.ctrllint.yml: permission denied\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "no read permission" && os.Geteuid() == 0 {
				t.Skip("root reads files without read permission")
			}
			dir := fixture(t)
			if err := tc.setup(dir); err != nil {
				t.Fatal(err)
			}
			want := strings.ReplaceAll(tc.want, "DIR", dir)
			for _, last := range []string{"./...", "-list"} {
				args := []string{"-C", dir}
				for _, a := range tc.args {
					args = append(args, strings.ReplaceAll(a, "DIR", dir))
				}
				r := runInProcess(append(args, last)...)
				if r.code != exitError || r.stdout != "" || r.stderr != want {
					t.Errorf("%v: exit %d\nstdout %q\nstderr %q\nwant   %q", args, r.code, r.stdout, r.stderr, want)
				}
			}
		})
	}
}

// The editor server reads each package's file as the command does: one
// that cannot be read is an error naming it.
func TestLSPSettingsUnreadable(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, ".ctrllint.yml")
	if err := os.Symlink("gone.yml", link); err != nil {
		t.Fatal(err)
	}
	l := &lspSettings{o: &options{set: map[string]bool{}}, all: testSuite().analyzers}
	if _, err := l.settings(dir); err == nil || err.Error() != "open "+link+": a symbolic link to gone.yml, which does not exist" {
		t.Errorf("settings: %v", err)
	}
}
