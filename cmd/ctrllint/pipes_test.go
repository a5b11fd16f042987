//go:build unix

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ctrllint/ctrllint/internal/lsp"
)

// pidGopls wraps gopls in a script that records its process id, which
// the returned function reads: exec keeps the id.
func pidGopls(t *testing.T, gopls string) (wrapper string, pid func() int) {
	t.Helper()
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	wrapper = filepath.Join(dir, "gopls")
	if err := os.WriteFile(wrapper, fmt.Appendf(nil, "#!/bin/sh\necho $$ >%q\nexec %q \"$@\"\n", pidFile, gopls), 0o755); err != nil {
		t.Fatal(err)
	}
	return wrapper, func() int {
		t.Helper()
		b, err := os.ReadFile(pidFile)
		if err != nil {
			t.Fatal(err)
		}
		n, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
}

// alive reports whether process pid is there (its parent has not reaped
// it): signal 0 tells.
func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	return err == nil && p.Signal(syscall.Signal(0)) == nil
}

// serverProc is the test binary started as a server (ctrllint lsp or
// gopls, with testSuite's analyzers), its output on a pipe whose read end
// the test holds.
type serverProc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	out    *os.File
	stderr *bytes.Buffer
}

func startServer(t *testing.T, args ...string) *serverProc {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), suiteEnv+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close() })
	out, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { out.Close() })
	cmd.Stdout = w
	s := &serverProc{cmd: cmd, stdin: stdin, out: out, stderr: &bytes.Buffer{}}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	return s
}

func (s *serverProc) send(body string) {
	fmt.Fprintf(s.stdin, "Content-Length: %d\r\n\r\n%s", len(body), body)
}

// initialize sends initialize and waits up to a minute for the answer:
// the server is up, listening for signals too.
func (s *serverProc) initialize(t *testing.T) {
	t.Helper()
	s.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}`)
	answered := make(chan error, 1)
	go func() {
		frames := lsp.NewFrameReader(s.out)
		for {
			b, err := frames.Read()
			if err != nil || strings.Contains(string(b), `"id":1`) {
				answered <- err
				return
			}
		}
	}()
	select {
	case err := <-answered:
		if err != nil {
			s.cmd.Process.Kill()
			t.Fatalf("no answer to initialize: %v; stderr %s", err, s.stderr)
		}
	case <-time.After(time.Minute):
		s.cmd.Process.Kill()
		t.Fatal("no answer to initialize within a minute")
	}
}

// exitOf waits up to a minute for cmd and returns its exit status.
func exitOf(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if ee, ok := err.(*exec.ExitError); ok {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				return 128 + int(ws.Signal())
			}
			return ee.ExitCode()
		}
		return 0
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		t.Fatal("still running a minute later")
		return -1
	}
}

// An editor that closes the server's output (its read end of the pipe)
// without closing its input: the next write fails, and the server, or the
// proxy with its gopls, ends with status 1, as when the editor goes away,
// instead of dying of SIGPIPE (141, the go command or gopls left behind)
// or running on for nobody.
func TestServerOutputClosed(t *testing.T) {
	type server struct {
		name string
		args func(t *testing.T) (args []string, gopls func() int)
	}
	servers := []server{
		{"lsp", func(*testing.T) ([]string, func() int) { return []string{"lsp", "-config", "none"}, nil }},
		{"gopls", func(t *testing.T) ([]string, func() int) {
			wrapper, pid := pidGopls(t, testGopls(t))
			return []string{"gopls", "-gopls", wrapper, "-config", "none"}, pid
		}},
	}
	for _, s := range servers {
		t.Run(s.name, func(t *testing.T) {
			args, goplsPid := s.args(t)
			p := startServer(t, args...)
			p.initialize(t)
			p.out.Close()
			// Requests until one's answer meets the closed pipe.
			p.send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
			for i := 2; i < 5; i++ {
				p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"workspace/symbol","params":{"query":"x"}}`, i))
			}
			stderr := p.stderr
			if code := exitOf(t, p.cmd); code != 1 {
				t.Errorf("exit %d, want 1; stderr:\n%s", code, stderr)
			}
			if !strings.Contains(stderr.String(), "broken pipe") {
				t.Errorf("stderr does not say the output broke:\n%s", stderr)
			}
			if goplsPid != nil {
				if pid := goplsPid(); alive(pid) {
					syscall.Kill(pid, syscall.SIGKILL)
					t.Errorf("gopls (pid %d) outlived the proxy", pid)
				}
			}
		})
	}
}

// SIGTERM ends the proxy with status 143 and its gopls with it: no gopls
// is left running.
func TestGoplsTerminated(t *testing.T) {
	wrapper, goplsPid := pidGopls(t, testGopls(t))
	p := startServer(t, "gopls", "-gopls", wrapper, "-config", "none")
	p.initialize(t)
	go io.Copy(io.Discard, p.out)
	cmd, stderr := p.cmd, p.stderr
	pid := goplsPid()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	code := exitOf(t, cmd)
	if code != 143 || !strings.Contains(stderr.String(), "ctrllint gopls: stopped by SIGTERM\n") {
		t.Errorf("exit %d (want 143), stderr %q", code, stderr)
	}
	if alive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("gopls (pid %d) outlived the proxy", pid)
	}
}
