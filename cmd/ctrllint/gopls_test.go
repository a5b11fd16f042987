package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/ctrllint/ctrllint/internal/goplsproxy"
	"github.com/ctrllint/ctrllint/internal/lsp"
)

// A bad command line, or no gopls to start, is exit status 2 with a
// message naming what is wrong, before anything is started.
func TestGoplsCommandLine(t *testing.T) {
	for _, tc := range []struct {
		args []string
		env  string
		want string
	}{
		{[]string{"-enable", "nope"}, "", `ctrllint gopls: enable: unknown analyzer "nope"`},
		{[]string{"-gopls", filepath.Join(t.TempDir(), "nope")}, "", "ctrllint gopls: -gopls: stat "},
		{[]string{"-gopls", t.TempDir()}, "", "ctrllint gopls: -gopls: is a directory"},
		{[]string{"-config", filepath.Join(t.TempDir(), "none.yml")}, "", "-config"},
		{[]string{"-nope"}, "", "flag provided but not defined: -nope"},
		{nil, "1", "started by ctrllint gopls: the gopls it found is ctrllint"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Setenv(goplsproxy.GuardEnv, tc.env)
			if tc.env == "" {
				os.Unsetenv(goplsproxy.GuardEnv)
			}
			var stderr bytes.Buffer
			code := runGopls(context.Background(), tc.args, io.NopCloser(strings.NewReader("")), io.Discard, &stderr, testSuite())
			if code != exitError || !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("gopls %v: exit %d, stderr %q; want exit %d and %q", tc.args, code, stderr.String(), exitError, tc.want)
			}
		})
	}
}

// Named ctrllint-gopls, ctrllint is the proxy with every argument gopls's:
// VS Code starts its gopls with gopls's flags.
func TestProxyArgs(t *testing.T) {
	for _, tc := range []struct {
		argv0 string
		args  []string
		want  []string
	}{
		{"/usr/local/bin/ctrllint-gopls", []string{"-mode=stdio"}, []string{"gopls", "--", "-mode=stdio"}},
		{"/x/ctrllint-gopls.exe", nil, []string{"gopls", "--"}},
		{"ctrllint", []string{"gopls", "-gopls", "x"}, []string{"gopls", "-gopls", "x"}},
		{"/bin/gopls", []string{"-mode=stdio"}, []string{"-mode=stdio"}},
	} {
		if got := proxyArgs(filepath.FromSlash(tc.argv0), tc.args); !slices.Equal(got, tc.want) {
			t.Errorf("proxyArgs(%q, %q) = %q, want %q", tc.argv0, tc.args, got, tc.want)
		}
	}
}

// The command runs the proxy: gopls started with the arguments after --,
// initialize answered by gopls, shutdown and exit ending it with status 0.
func TestGoplsSession(t *testing.T) {
	gopls := testGopls(t)
	// A client that waits for each answer, as editors do: gopls exits
	// at once on exit.
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- runGopls(context.Background(), []string{"-gopls", gopls, "-config", "none", "--", "serve"}, inR, outW, &stderr, testSuite())
		outW.Close()
	}()
	frames := lsp.NewFrameReader(outR)
	send := func(body string) {
		fmt.Fprintf(inW, "Content-Length: %d\r\n\r\n%s", len(body), body)
	}
	await := func(want string) string {
		t.Helper()
		for {
			b, err := frames.Read()
			if err != nil {
				t.Fatalf("waiting for %s: %v; stderr:\n%s", want, err, stderr.String())
			}
			if strings.Contains(string(b), want) {
				return string(b)
			}
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}`)
	if res := await(`"id":1`); !strings.Contains(res, `"name":"gopls"`) {
		t.Errorf("initialize: %s", res)
	}
	send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)
	await(`"id":2`)
	send(`{"jsonrpc":"2.0","method":"exit"}`)
	go io.Copy(io.Discard, outR)
	if code := <-done; code != exitClean {
		t.Errorf("exit status %d, want 0; stderr:\n%s", code, stderr.String())
	}
}

// gopls version, which the Go extension runs with the program it was
// given for gopls, is gopls's own, not a proxy session.
func TestGoplsVersion(t *testing.T) {
	gopls := testGopls(t)
	var out, stderr bytes.Buffer
	code := runGopls(context.Background(), []string{"-gopls", gopls, "--", "version"}, io.NopCloser(strings.NewReader("")), &out, &stderr, testSuite())
	if code != exitClean || !strings.Contains(out.String(), "golang.org/x/tools/gopls v") {
		t.Errorf("gopls version: exit %d, stdout %q, stderr %q", code, out.String(), stderr.String())
	}
}

// With no gopls on PATH (nor in GOBIN, GOPATH/bin, GOROOT/bin), the command
// starts the one make gopls built: in $CTRLLINT_CACHE/gopls-<version>/, or
// ~/.cache/ctrllint/gopls-<version>/ without CTRLLINT_CACHE; one on PATH
// comes first. The stand-in gopls prints its path and arguments.
func TestGoplsFindsMakeGopls(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in gopls is a shell script")
	}
	stub := func(dir string) string {
		t.Helper()
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "gopls")
		if err := os.WriteFile(path, []byte("#!/bin/sh\necho \"$0 $*\"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return path
	}
	home, cache, path := t.TempDir(), t.TempDir(), t.TempDir()
	inHome := stub(filepath.Join(home, ".cache", "ctrllint", "gopls-v0.23.0"))
	inCache := stub(filepath.Join(cache, "gopls-v0.23.0"))
	stub(filepath.Join(cache, "gopls-v0.9.0")) // older, though later in lexical order
	// No go command on PATH: GOBIN, GOPATH and GOROOT are the environment's.
	env := []string{"PATH=" + path, "GOBIN=", "GOPATH=" + t.TempDir(), "GOROOT=" + t.TempDir(), "HOME=" + home, goplsproxy.GuardEnv + "="}
	for _, tc := range []struct {
		name, cache, want string
	}{
		{"CTRLLINT_CACHE", cache, inCache},
		{"home", "", inHome},
	} {
		r := runBinary(t, ctrllintBin, t.TempDir(), append(env, "CTRLLINT_CACHE="+tc.cache), "gopls", "--", "version", "-json")
		if want := tc.want + " version -json\n"; r.code != exitClean || r.stdout != want {
			t.Errorf("%s: ctrllint gopls -- version -json: exit %d, stdout %q, stderr %q; want exit 0 and %q", tc.name, r.code, r.stdout, r.stderr, want)
		}
	}
	onPath := stub(path)
	r := runBinary(t, ctrllintBin, t.TempDir(), append(env, "CTRLLINT_CACHE="+cache), "gopls", "--", "version")
	if want := onPath + " version\n"; r.code != exitClean || r.stdout != want {
		t.Errorf("gopls on PATH too: exit %d, stdout %q, stderr %q; want PATH's, %q", r.code, r.stdout, r.stderr, want)
	}
	os.Remove(onPath)
	empty := t.TempDir()
	r = runBinary(t, ctrllintBin, t.TempDir(), append(env, "CTRLLINT_CACHE="+empty), "gopls", "--", "version")
	if want := "ctrllint gopls: no gopls in GOBIN, GOPATH/bin, GOROOT/bin, PATH or " + filepath.Join(empty, "gopls-<version>"); r.code != exitError || !strings.Contains(r.stderr, want) {
		t.Errorf("no gopls anywhere: exit %d, stderr %q; want exit %d and %q", r.code, r.stderr, exitError, want)
	}
}

// testGopls is the gopls make gopls builds (CTRLLINT_GOPLS: another); the
// test skips without one unless CTRLLINT_REQUIRE_GOPLS is set, as make
// gopls-e2e sets it.
func testGopls(t *testing.T) string {
	t.Helper()
	gopls := os.Getenv("CTRLLINT_GOPLS")
	if gopls == "" {
		home, _ := os.UserHomeDir()
		gopls = filepath.Join(home, ".cache", "ctrllint", "gopls-v0.23.0", "gopls")
	}
	if _, err := os.Stat(gopls); err != nil {
		if os.Getenv("CTRLLINT_REQUIRE_GOPLS") != "" {
			t.Fatal(err)
		}
		t.Skipf("no gopls (make gopls builds it): %v", err)
	}
	t.Setenv(goplsproxy.GuardEnv, "")
	os.Unsetenv(goplsproxy.GuardEnv)
	return gopls
}
