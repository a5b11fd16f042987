package goplsproxy

import (
	"os"
	"path/filepath"
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
	got, err := Find("")
	if err != nil || got != filepath.Join(gobin, "gopls") {
		t.Errorf("Find = %q, %v; want GOBIN's", got, err)
	}
	got, err = Find(filepath.Join(gobin, "gopls"))
	if err != nil || got != filepath.Join(path, "gopls") {
		t.Errorf("Find skipping GOBIN's (itself) = %q, %v; want PATH's", got, err)
	}
	t.Setenv("GOBIN", "")
	t.Setenv("PATH", t.TempDir())
	t.Setenv("GOROOT", t.TempDir())
	if got, err := Find(""); err == nil {
		t.Errorf("Find with no gopls anywhere = %q, want an error", got)
	}
}
