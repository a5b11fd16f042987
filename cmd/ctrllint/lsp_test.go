package main

import (
	"bytes"
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/ctrllint/ctrllint/analyzers"
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
