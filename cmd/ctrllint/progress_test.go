package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/creack/pty"

	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

// progressModule is a module of n packages with a finding each, which the
// slow analyzer takes its time over (slowDirEnv), so that a run lasts long
// enough for its status line to be drawn.
func progressModule(t *testing.T, n int) (dir string, env, args []string) {
	t.Helper()
	files := map[string]string{}
	for i := range n {
		files[fmt.Sprintf("p%d/p.go", i)] = fmt.Sprintf("package p%d\n\nimport \"strings\"\n\nfunc bad() {}\n\nfunc F() string { bad(); return strings.ToUpper(\"x\") }\n", i)
	}
	dir = testanalyzers.WriteModule(t, files)
	env = []string{suiteEnv + "=slow", slowDirEnv + "=" + t.TempDir(), "GOMAXPROCS=2", "TERM=xterm"}
	// No result cache: every run analyses, slowly.
	return dir, env, []string{"-cache=false", "-enable", "badcall,slow", "./..."}
}

// ptyRun runs the command (the test binary as ctrllint) with stderr a
// pseudo-terminal cols wide and stdout a pipe, calling during, if not nil,
// once it started. It returns what the terminal received.
func ptyRun(t *testing.T, dir string, env, args []string, cols int, during func(*exec.Cmd)) (term string, r result) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 24, Cols: uint16(cols)}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, tty
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close() // the command's copy is the last: reading ends when it exits
	var out bytes.Buffer
	read := make(chan struct{})
	go func() {
		io.Copy(&out, ptmx) // EIO once the command is gone
		close(read)
	}()
	if during != nil {
		during(cmd)
	}
	err = cmd.Wait()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	select {
	case <-read:
	case <-time.After(10 * time.Second):
		t.Fatal("the terminal was not closed after the command exited")
	}
	return out.String(), result{stdout: stdout.String(), code: code}
}

// statusDraws are the texts of the status line's draws in what a terminal
// received.
var statusDraws = regexp.MustCompile(`\r(ctrllint: \[[^\r\x1b]*)\x1b\[K`)

// On a terminal, the status line shows the run's phases, fits the
// terminal's width, and is gone when the run ends: the terminal shows only
// what the command printed, and stdout, a pipe, holds exactly the findings.
func TestProgressOnTerminal(t *testing.T) {
	dir, env, args := progressModule(t, 4)
	plain := runBinary(t, os.Args[0], dir, env, args...)
	if plain.code != exitFindings || strings.Count(plain.stdout, "\n") != 4 || plain.stderr != "" {
		t.Fatalf("with stderr a pipe: %+v", plain)
	}
	for _, tc := range []struct {
		name    string
		cols    int
		verbose bool
	}{
		{"wide", 200, false},
		{"narrow", 30, false},
		{"-v", 120, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := args
			if tc.verbose {
				args = append([]string{"-v"}, args...)
			}
			term, r := ptyRun(t, dir, env, args, tc.cols, nil)
			if r.code != exitFindings || r.stdout != plain.stdout {
				t.Errorf("exit %d, stdout\n%s\nwant exit 1 and\n%s", r.code, r.stdout, plain.stdout)
			}
			draws := statusDraws.FindAllStringSubmatch(term, -1)
			seen := false
			for _, d := range draws {
				if n := utf8.RuneCountInString(d[1]); n >= tc.cols {
					t.Errorf("a draw of %d columns on a terminal of %d: %q", n, tc.cols, d[1])
				}
				seen = seen || strings.Contains(d[1], "analysing packages")
			}
			if !seen && tc.cols > 60 {
				t.Errorf("the analysis never shown; the terminal received %q", term)
			}
			if len(draws) == 0 {
				t.Errorf("no status line; the terminal received %q", term)
			}
			var want []string
			if tc.verbose {
				want = append(want, "ctrllint: no configuration file", "ctrllint: listed ")
			}
			lines := screen(term)
			var shown []string
			for _, l := range lines {
				if l != "" {
					shown = append(shown, l)
				}
			}
			if len(shown) != len(want) {
				t.Fatalf("the terminal shows %q at the end, want lines beginning %q; it received %q", shown, want, term)
			}
			for i, w := range want {
				if !strings.HasPrefix(shown[i], w) {
					t.Errorf("line %d: %q, want it to begin %q", i, shown[i], w)
				}
			}
		})
	}
}

// With -fix on a terminal, what -fix says is on lines of its own, with
// nothing of the status line left around it.
func TestProgressFix(t *testing.T) {
	dir, env, args := progressModule(t, 3)
	term, r := ptyRun(t, dir, env, append([]string{"-fix"}, args...), 120, nil)
	if r.code != exitClean || r.stdout != "" {
		t.Errorf("exit %d, stdout %q; want 0 and nothing left to report", r.code, r.stdout)
	}
	if shown := screen(term); len(shown) != 2 || shown[0] != "ctrllint: applied 3 fixes to 3 files" || shown[1] != "" {
		t.Errorf("the terminal shows %q at the end; it received %q", shown, term)
	}
}

// A run interrupted on a terminal leaves "stopped by SIGINT" on a line of
// its own, and no status line.
func TestProgressInterrupted(t *testing.T) {
	dir, env, args := progressModule(t, 6)
	slowDir := strings.TrimPrefix(env[1], slowDirEnv+"=")
	term, r := ptyRun(t, dir, env, args, 120, func(cmd *exec.Cmd) {
		for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			if started, _ := filepath.Glob(filepath.Join(slowDir, "*")); len(started) > 0 {
				break
			}
		}
		time.Sleep(200 * time.Millisecond) // let the line be drawn
		cmd.Process.Signal(syscall.SIGINT)
	})
	if r.code != 130 || r.stdout != "" {
		t.Errorf("exit %d, stdout %q; want 130 and nothing", r.code, r.stdout)
	}
	if shown := screen(term); len(shown) != 2 || shown[0] != "ctrllint: stopped by SIGINT" || shown[1] != "" {
		t.Errorf("the terminal shows %q at the end; it received %q", shown, term)
	}
	if !strings.Contains(term, "analysing packages") {
		t.Errorf("the analysis never shown; the terminal received %q", term)
	}
}

// With stderr a pipe, or a terminal that cannot rewrite a line, the run
// prints nothing on stderr but what it has to say; -v adds the summary,
// and stdout is the same either way.
func TestProgressNotOnTerminal(t *testing.T) {
	dir, env, args := progressModule(t, 2)
	plain := runBinary(t, os.Args[0], dir, env, args...)
	if plain.code != exitFindings || strings.Count(plain.stdout, "\n") != 2 || plain.stderr != "" {
		t.Errorf("with stderr a pipe: exit %d, stdout %q, stderr %q; want 1, the findings, nothing", plain.code, plain.stdout, plain.stderr)
	}
	verbose := runBinary(t, os.Args[0], dir, env, append([]string{"-v"}, args...)...)
	summary := regexp.MustCompile(`^ctrllint: no configuration file \([^)]*\) in the working directory or above it\nctrllint: listed \d+ packages in \d+\.\ds, decoded (\d+) of (\d+) dependencies in \d+\.\ds, analysed 2 of 2 packages \(0 from cache\) in \d+\.\ds; 2 analyzers; total \d+\.\ds\n$`)
	if m := summary.FindStringSubmatch(verbose.stderr); m == nil || m[1] != m[2] || verbose.stdout != plain.stdout || verbose.code != exitFindings {
		t.Errorf("-v: exit %d, stdout %q, stderr %q; want the summary on stderr only", verbose.code, verbose.stdout, verbose.stderr)
	}

	// From the cache: nothing decoded, everything counted.
	cached := append([]string{"-v"}, args[1:]...)
	runBinary(t, os.Args[0], dir, env, cached...)
	r := runBinary(t, os.Args[0], dir, env, cached...)
	if !regexp.MustCompile(`^ctrllint: no configuration file \([^)]*\) in the working directory or above it\nctrllint: listed \d+ packages in \d+\.\ds, analysed 2 of 2 packages \(2 from cache\) in \d+\.\ds; 2 analyzers; total \d+\.\ds\n$`).MatchString(r.stderr) || r.stdout != plain.stdout {
		t.Errorf("-v from the cache: stdout %q, stderr %q", r.stdout, r.stderr)
	}

	term, r := ptyRun(t, dir, append(env, "TERM=dumb"), args, 120, nil)
	if term != "" || r.stdout != plain.stdout {
		t.Errorf("TERM=dumb: the terminal received %q, stdout %q", term, r.stdout)
	}
}
