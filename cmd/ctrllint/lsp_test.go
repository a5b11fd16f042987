package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers"
	"github.com/ctrllint/ctrllint/internal/finding"
)

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// The editor server selects analyzers by the rule every front end shares
// (analyzers.Select).
func TestLSPSelection(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-enable", "badcall", "-disable", "badcall"}, "ctrllint lsp: badcall both enabled and disabled"},
		{[]string{"-enable", "nope"}, `ctrllint lsp: enable: unknown analyzer "nope"`},
	} {
		var stderr bytes.Buffer
		code := runLSP(context.Background(), append([]string{}, tc.args...), io.NopCloser(strings.NewReader("")), nopCloser{io.Discard}, &stderr, testSuite())
		if code != exitError || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("lsp %v: exit %d, stderr %q; want exit %d and %q", tc.args, code, stderr.String(), exitError, tc.want)
		}
	}
}

// The editor server decodes whole the packages whose scopes the analyzers
// read, as the command does.
func TestLSPWholePackages(t *testing.T) {
	opts := lspOptions(defaultSuite(), analyzers.All(), nil, true, io.Discard)
	if want := analyzers.WholePackages(); len(want) == 0 || !slices.Equal(opts.WholePackages, want) {
		t.Errorf("lsp.Options.WholePackages = %v, want %v", opts.WholePackages, want)
	}
}

// The editor server reads each package's configuration file as a command
// run in its directory would: selection, exclude-paths, severities and
// analyzer options, with the server's -disable over them. Options belong
// to the process, so a second file that sets others is an error.
func TestLSPSettings(t *testing.T) {
	all := analyzers.All()
	var lb *analysis.Analyzer
	for _, a := range all {
		if a.Name == "listerbypass" {
			lb = a
		}
	}
	t.Cleanup(func() { lb.Flags.Set("all", "false") })
	tmp := t.TempDir()
	write := func(path, text string) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root := filepath.Join(tmp, "repo")
	write(filepath.Join(root, ".ctrllint.yml"), "disable: [tombstone]\nexclude-paths: ['^gen/']\nseverity: {default: note, forget: error}\nlisterbypass: {all: true}\n")
	write(filepath.Join(tmp, "other", ".ctrllint.yml"), "listerbypass: {all: false}\n")
	sub := filepath.Join(root, "pkg", "sub")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}

	l := &lspSettings{o: &options{disable: "forget", set: map[string]bool{}}, all: all}
	st, err := l.settings(sub)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range st.Analyzers {
		if a.Name == "tombstone" || a.Name == "forget" {
			t.Errorf("%s runs: the file disables tombstone, the server forget", a.Name)
		}
	}
	if len(st.Analyzers) != len(all)-2 {
		t.Errorf("%d analyzers, want %d", len(st.Analyzers), len(all)-2)
	}
	at := func(rel string) finding.Finding {
		return finding.Finding{Pos: finding.Position{File: filepath.Join(root, rel)}}
	}
	if st.Keep(at("gen/zz.go")) || !st.Keep(at("pkg/sub/a.go")) {
		t.Errorf("exclude-paths ^gen/: keeps gen/zz.go %v, pkg/sub/a.go %v", st.Keep(at("gen/zz.go")), st.Keep(at("pkg/sub/a.go")))
	}
	if st.Severity("forget") != "error" || st.Severity("queuedone") != "note" {
		t.Errorf("severities forget %q, queuedone %q", st.Severity("forget"), st.Severity("queuedone"))
	}
	if got := lb.Flags.Lookup("all").Value.String(); got != "true" {
		t.Errorf("listerbypass's all is %s, want the file's true", got)
	}
	// The same file again: fine.
	if _, err := l.settings(root); err != nil {
		t.Errorf("the same file again: %v", err)
	}
	// Another file, other options; and no file at all (default options).
	for _, dir := range []string{filepath.Join(tmp, "other"), tmp} {
		if _, err := l.settings(dir); err == nil || !strings.Contains(err.Error(), "other options than") {
			t.Errorf("%s: err %v, want one about other options", dir, err)
		}
	}
	if got := lb.Flags.Lookup("all").Value.String(); got != "true" {
		t.Errorf("listerbypass's all changed to %s", got)
	}

	// A broken file is an error naming it.
	write(filepath.Join(tmp, "broken", ".ctrllint.yml"), "enable: [nope]\n")
	if _, err := (&lspSettings{o: &options{set: map[string]bool{}}, all: all}).settings(filepath.Join(tmp, "broken")); err == nil || !strings.Contains(err.Error(), `unknown analyzer "nope"`) {
		t.Errorf("broken file: %v", err)
	}
	// -config=none: every analyzer, no file read.
	st, err = (&lspSettings{o: &options{config: configNone, set: map[string]bool{}}, all: all}).settings(filepath.Join(tmp, "broken"))
	if err != nil || len(st.Analyzers) != len(all) {
		t.Errorf("-config=none: %d analyzers, %v", len(st.Analyzers), err)
	}

	// runLSP refuses a broken -config before serving.
	var stderr bytes.Buffer
	code := runLSP(context.Background(), []string{"-config", filepath.Join(tmp, "broken", ".ctrllint.yml")}, io.NopCloser(strings.NewReader("")), nopCloser{io.Discard}, &stderr, defaultSuite())
	if code != exitError || !strings.Contains(stderr.String(), `unknown analyzer "nope"`) {
		t.Errorf("lsp -config broken: exit %d, stderr %q", code, stderr.String())
	}
}
