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
			cmd := exec.Command(os.Args[0], args...)
			cmd.Env = append(os.Environ(), suiteEnv+"=1")
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			out, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stdout = w
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			w.Close()
			send := func(body string) {
				fmt.Fprintf(stdin, "Content-Length: %d\r\n\r\n%s", len(body), body)
			}
			send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}`)
			frames := lsp.NewFrameReader(out)
			for {
				b, err := frames.Read()
				if err != nil {
					cmd.Process.Kill()
					t.Fatalf("no answer to initialize: %v; stderr %s", err, &stderr)
				}
				if strings.Contains(string(b), `"id":1`) {
					break
				}
			}
			out.Close()
			// Requests until one's answer meets the closed pipe.
			send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
			for i := 2; i < 5; i++ {
				send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"workspace/symbol","params":{"query":"x"}}`, i))
			}
			if code := exitOf(t, cmd); code != 1 {
				t.Errorf("exit %d, want 1; stderr:\n%s", code, &stderr)
			}
			if !strings.Contains(stderr.String(), "broken pipe") {
				t.Errorf("stderr does not say the output broke:\n%s", &stderr)
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
	cmd := exec.Command(os.Args[0], "gopls", "-gopls", wrapper, "-config", "none")
	cmd.Env = append(os.Environ(), suiteEnv+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}`
	fmt.Fprintf(stdin, "Content-Length: %d\r\n\r\n%s", len(body), body)
	frames := lsp.NewFrameReader(stdout)
	for {
		b, err := frames.Read()
		if err != nil {
			cmd.Process.Kill()
			t.Fatalf("no answer to initialize: %v; stderr %s", err, &stderr)
		}
		if strings.Contains(string(b), `"id":1`) {
			break
		}
	}
	go io.Copy(io.Discard, stdout)
	pid := goplsPid()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	code := exitOf(t, cmd)
	if code != 143 || !strings.Contains(stderr.String(), "ctrllint gopls: stopped by SIGTERM\n") {
		t.Errorf("exit %d (want 143), stderr %q", code, &stderr)
	}
	if alive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("gopls (pid %d) outlived the proxy", pid)
	}
}
