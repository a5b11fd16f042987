package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

func TestCompiledPackage(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want string
	}{
		{[]string{"/usr/local/go/pkg/tool/linux_amd64/compile", "-o", "/tmp/go-build1/b001/_pkg_.a", "-trimpath", "x", "-p", "k8s.io/api/core/v1", "-lang=go1.24", "a.go"}, "k8s.io/api/core/v1"},
		{[]string{"/go/pkg/tool/windows_amd64/compile.exe", "-p", "main"}, "main"},
		{[]string{"/usr/local/go/pkg/tool/linux_amd64/asm", "-p", "runtime"}, ""}, // not the compiler
		{[]string{"/usr/bin/compile"}, ""}, // no package
		{[]string{"/usr/bin/compile", "-p"}, ""},
		{nil, ""},
	} {
		got, ok := compiledPackage(tc.argv)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("%q: %q, %v; want %q", tc.argv, got, ok, tc.want)
		}
	}
	if got := compilingText([]string{"a", "b", "c"}); got != "compiling a and 2 more" {
		t.Errorf("three packages: %q", got)
	}
}

// A compiler among this process' descendants is seen, named by the
// package it compiles, and forgotten once it exits: here a shell under the
// compiler's name, with its -p argument, waiting on its stdin.
func TestCompilingNow(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip(err)
	}
	fake := filepath.Join(t.TempDir(), "compile")
	if err := os.Symlink(sh, fake); err != nil {
		t.Fatal(err)
	}
	const pkg = "example.com/being/compiled"
	// sh's child, so that descendants beyond children count too.
	cmd := exec.Command(sh, "-c", `"$0" -c 'read x || :' -p "$1"`, fake, pkg)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	seen := false
	for deadline := time.Now().Add(20 * time.Second); !seen && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		seen = slices.Contains(compilingNow(), pkg)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if !seen {
		t.Errorf("the compiler of %s was never seen", pkg)
	}
	if got := compilingNow(); slices.Contains(got, pkg) {
		t.Errorf("still seen after it exited: %q", got)
	}
}

// On a cold build cache, the status line names what the go command
// compiles for the listing, and is gone at the end.
func TestProgressCompiling(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	dir := testanalyzers.WriteModule(t, map[string]string{"a.go": "package m\n\nimport \"errors\"\n\nvar E = errors.New(\"x\")\n"})
	env := []string{suiteEnv + "=1", "TERM=xterm", "GOCACHE=" + t.TempDir(), "GOTOOLCHAIN=local"}
	term, r := ptyRun(t, dir, env, []string{"-cache=false", "-enable", "badcall", "./..."}, 200, nil)
	if r.code != exitClean || r.stdout != "" {
		t.Errorf("exit %d, stdout %q; want 0 and nothing", r.code, r.stdout)
	}
	compiling := regexp.MustCompile(`\(go list -export\): compiling (runtime|internal/\S+|errors)`)
	if !compiling.MatchString(term) {
		t.Errorf("no compiler named; the terminal received %q", term)
	}
	for _, l := range screen(term) {
		if l != "" {
			t.Errorf("the terminal shows %q at the end; it received %q", l, term)
		}
	}
}
