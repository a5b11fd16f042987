package goplsproxy

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// Which gopls command lines are a server to proxy, and which run as they
// are: the Go extension runs `gopls version` with the same program.
func TestServes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{nil, true},
		{[]string{"-mode=stdio"}, true},
		{[]string{"serve"}, true},
		{[]string{"-rpc.trace", "serve", "-logfile", "x"}, true},
		{[]string{"-logfile", "serve.log"}, true},
		{[]string{"-logfile", "/tmp/x", "version"}, false},
		{[]string{"version"}, false},
		{[]string{"-v", "version"}, false},
		{[]string{"check", "a.go"}, false},
		{[]string{"-h"}, false},
		{[]string{"--help"}, false},
	} {
		if got := Serves(tc.args); got != tc.want {
			t.Errorf("Serves(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}

// Find looks where VS Code's Go extension looks, GOBIN first, and skips
// the running executable (a ctrllint installed as gopls).
func TestFind(t *testing.T) {
	gobin, path := t.TempDir(), t.TempDir()
	for _, d := range []string{gobin, path} {
		if err := os.WriteFile(filepath.Join(d, "gopls"), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GOBIN", gobin)
	t.Setenv("GOPATH", t.TempDir())
	t.Setenv("PATH", path+string(os.PathListSeparator)+os.Getenv("PATH"))
	got, err := Find("", "")
	if err != nil || got != filepath.Join(gobin, "gopls") {
		t.Errorf("Find = %q, %v; want GOBIN's", got, err)
	}
	got, err = Find(filepath.Join(gobin, "gopls"), "")
	if err != nil || got != filepath.Join(path, "gopls") {
		t.Errorf("Find skipping GOBIN's (itself) = %q, %v; want PATH's", got, err)
	}
	t.Setenv("GOBIN", "")
	t.Setenv("PATH", t.TempDir())
	t.Setenv("GOROOT", t.TempDir())
	if got, err := Find("", ""); err == nil {
		t.Errorf("Find with no gopls anywhere = %q, want an error", got)
	}
}

// scriptGopls writes an executable named gopls into dir.
func scriptGopls(t *testing.T, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "gopls")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// After PATH, Find takes the newest gopls make gopls built into the cache
// (gopls-<version>/gopls, versions compared as semantic versions); one on
// PATH comes first, and with neither the error names the cache.
func TestFindBuilt(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake gopls is a shell script")
	}
	cache := t.TempDir()
	for _, v := range []string{"v0.9.0", "v0.23.0", "v0.10.1"} {
		scriptGopls(t, filepath.Join(cache, "gopls-"+v))
	}
	// Not builds of make gopls: no version, a directory with no gopls.
	scriptGopls(t, filepath.Join(cache, "gopls-latest"))
	if err := os.MkdirAll(filepath.Join(cache, "gopls-v0.99.0"), 0o755); err != nil {
		t.Fatal(err)
	}
	want := []string{"v0.99.0", "v0.23.0", "v0.10.1", "v0.9.0"}
	for i, v := range want {
		want[i] = filepath.Join(cache, "gopls-"+v)
	}
	if got := built(cache); !slices.Equal(got, want) {
		t.Errorf("built = %q, want %q", got, want)
	}

	path := t.TempDir()
	t.Setenv("GOBIN", "")
	t.Setenv("GOPATH", t.TempDir())
	t.Setenv("GOROOT", t.TempDir())
	t.Setenv("PATH", path) // no go command: GOPATH and GOROOT are the environment's
	got, err := Find("", cache)
	if wantPath := filepath.Join(cache, "gopls-v0.23.0", "gopls"); err != nil || got != wantPath {
		t.Errorf("Find = %q, %v; want the newest build, %q", got, err, wantPath)
	}
	got, err = Find(filepath.Join(cache, "gopls-v0.23.0", "gopls"), cache)
	if wantPath := filepath.Join(cache, "gopls-v0.10.1", "gopls"); err != nil || got != wantPath {
		t.Errorf("Find skipping itself = %q, %v; want %q", got, err, wantPath)
	}
	onPath := scriptGopls(t, path)
	if got, err := Find("", cache); err != nil || got != onPath {
		t.Errorf("Find with a gopls on PATH = %q, %v; want PATH's, %q", got, err, onPath)
	}
	os.Remove(onPath)
	empty := t.TempDir()
	_, err = Find("", empty)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(empty, "gopls-<version>")) || !strings.Contains(err.Error(), "make gopls") {
		t.Errorf("Find with no gopls anywhere: %v; want an error naming %s and make gopls", err, filepath.Join(empty, "gopls-<version>"))
	}
}
