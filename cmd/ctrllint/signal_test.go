//go:build linux

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

// (Linux only: the test finds the processes a run started in /proc.)

// A signal stops a run, whether the go command is still compiling for
// the listing (on a cold build cache) or packages are being analysed:
// it exits with 128+signal and says why, prints no findings, leaves no
// process it started running, and the result cache it leaves gives the
// same output as no cache at all.
func TestInterrupt(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("finds the processes left behind in /proc")
	}
	files := map[string]string{}
	const n = 6
	for i := range n {
		files[fmt.Sprintf("p%d/p.go", i)] = fmt.Sprintf("package p%d\n\nimport \"fmt\"\n\nfunc bad() {}\n\nfunc F() { bad(); fmt.Println() }\n", i)
	}
	dir := testanalyzers.WriteModule(t, files)
	cache := t.TempDir()
	args := []string{"-C", dir, "-enable", "badcall,slow", "./..."}
	env := []string{suiteEnv + "=slow", "CTRLLINT_CACHE=" + cache, "GOMAXPROCS=2", "GOTOOLCHAIN=local"}

	for _, tc := range []struct {
		name string
		sig  syscall.Signal
		// cold runs the go command on an empty build cache, so that the
		// listing compiles the standard library.
		cold bool
		// ready says when to send the signal.
		ready func(marker, slowDir string) bool
	}{
		{"SIGINT while compiling", syscall.SIGINT, true, compiling},
		{"SIGTERM while compiling", syscall.SIGTERM, true, compiling},
		// Two workers: after three packages started, one is done (and
		// stored in the cache), two are being analysed, three are not
		// started.
		{"SIGINT while analysing", syscall.SIGINT, false, started(3)},
		// The cache is used now: a run analyses what it missed.
		{"SIGINT while analysing again", syscall.SIGINT, false, started(1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			slowDir := t.TempDir()
			env := append(env, slowDirEnv+"="+slowDir)
			if tc.cold {
				env = append(env, "GOCACHE="+t.TempDir())
			}
			r := interrupt(t, env, args, tc.sig, func(marker string) bool { return tc.ready(marker, slowDir) })
			want := 128 + int(tc.sig)
			name := map[syscall.Signal]string{syscall.SIGINT: "SIGINT", syscall.SIGTERM: "SIGTERM"}[tc.sig]
			if r.code != want || r.stdout != "" || r.stderr != "ctrllint: stopped by "+name+"\n" {
				t.Errorf("exit %d (want %d)\nstdout %q\nstderr %q", r.code, want, r.stdout, r.stderr)
			}
			entries, _ := filepath.Glob(filepath.Join(cache, "results", "*", "*.json"))
			t.Logf("%d of %d packages in the result cache", len(entries), n)
		})
	}

	cached := runBinary(t, os.Args[0], dir, env, args...)
	uncached := runBinary(t, os.Args[0], dir, env, append([]string{"-cache=false"}, args...)...)
	if cached != uncached || cached.code != exitFindings || strings.Count(cached.stdout, "\n") != n {
		t.Errorf("with the cache left by the interrupted runs:\n%+v\nwithout a cache:\n%+v", cached, uncached)
	}
}

// interrupt starts the command in a process group of its own, as a shell
// does, sends sig to the group once ready says so, and checks that no
// process it started outlives it. ready is given a string in the
// environment of every process the command starts.
func interrupt(t *testing.T, env, args []string, sig syscall.Signal, ready func(marker string) bool) result {
	t.Helper()
	marker := fmt.Sprintf("CTRLLINT_INTERRUPT_TEST=%d.%d", os.Getpid(), time.Now().UnixNano())
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), env...), marker)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		// Whatever happened, leave nothing running.
		for _, p := range marked(marker) {
			syscall.Kill(p.pid, syscall.SIGKILL)
		}
	}()

	deadline := time.After(2 * time.Minute)
wait:
	for !ready(marker) {
		select {
		case err := <-exited:
			t.Fatalf("the command ended (%v) before it could be interrupted\n%s%s", err, &stdout, &stderr)
		case <-deadline:
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			t.Fatal("never ready to be interrupted")
		case <-time.After(5 * time.Millisecond):
			continue wait
		}
	}
	if err := syscall.Kill(-cmd.Process.Pid, sig); err != nil {
		t.Fatal(err)
	}
	var err error
	select {
	case err = <-exited:
	case <-time.After(time.Minute):
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		t.Fatal("the command did not exit within a minute of the signal")
	}
	// The signal went to the whole process group, compilers included: one
	// the kernel has not reaped yet when the command exits is on its way
	// out, not left behind, so give the group a moment (seen on a loaded
	// machine: a compile still in /proc as the command returned).
	left := marked(marker)
	for deadline := time.Now().Add(2 * time.Second); len(left) > 0 && time.Now().Before(deadline); left = marked(marker) {
		time.Sleep(50 * time.Millisecond)
	}
	if len(left) > 0 {
		t.Errorf("still running after the command exited: %v", left)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode() // -1 when the signal killed it
	} else if err != nil {
		t.Fatal(err)
	}
	return result{stdout.String(), stderr.String(), code}
}

type process struct {
	pid  int
	comm string
}

func (p process) String() string { return fmt.Sprintf("%d %s", p.pid, p.comm) }

// marked lists the live processes whose environment holds marker.
func marked(marker string) []process {
	ents, _ := os.ReadDir("/proc")
	var out []process
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || !bytes.Contains(env, []byte(marker+"\x00")) {
			continue // gone, a zombie (no environment), or not ours
		}
		comm, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "comm"))
		out = append(out, process{pid, strings.TrimSpace(string(comm))})
	}
	return out
}

// compiling: the go command is compiling for the listing.
func compiling(marker, _ string) bool {
	for _, p := range marked(marker) {
		if p.comm == "compile" {
			return true
		}
	}
	return false
}

// started: the slow analyzer has started on n packages.
func started(n int) func(marker, slowDir string) bool {
	return func(_, slowDir string) bool {
		ents, _ := os.ReadDir(slowDir)
		return len(ents) >= n
	}
}

// SIGTERM, which editors send to a server they are done with, ends the
// language server cleanly, with the signal's status and a word why.
func TestLSPTerminated(t *testing.T) {
	p := startServer(t, "lsp")
	p.initialize(t)
	go io.Copy(io.Discard, p.out)
	cmd, stderr := p.cmd, p.stderr
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	code := exitOf(t, cmd)
	if code != 143 || stderr.String() != "ctrllint lsp: stopped by SIGTERM\n" {
		t.Errorf("exit %d (want 143), stderr %q", code, stderr)
	}
}
