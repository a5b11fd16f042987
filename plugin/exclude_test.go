package plugin

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/ctrllint/ctrllint/internal/config"
)

var flagNames = config.FlagNames

// exclude-paths drop the diagnostics of files they match, by the path
// relative to the file's module root (testdata/src/current): a pattern on
// that path drops the tombstone fixture's findings, one that does not
// match keeps them, and so does one on the path from the repository's root.
func TestExcludePaths(t *testing.T) {
	count := func(t *testing.T, pattern string) int {
		t.Helper()
		p, err := New(map[string]any{"enable": []any{"tombstone"}, "exclude-paths": []any{pattern}})
		if err != nil {
			t.Fatal(err)
		}
		as, _ := p.BuildAnalyzers()
		if len(as) != 1 {
			t.Fatalf("analyzers %v", names(as))
		}
		r := &recorder{} // the fixture's expectations are unmet when excluded
		n := 0
		for _, res := range analysistest.Run(r, fixture(), as[0], "./tombstone") {
			n += len(res.Diagnostics)
		}
		return n
	}
	kept := count(t, "^nomatch/")
	if kept == 0 {
		t.Fatal("the tombstone fixture reports nothing")
	}
	for _, tc := range []struct {
		pattern string
		want    int
	}{
		{`^tombstone/`, 0},
		{`^testdata/src/current/tombstone/`, kept},
	} {
		if got := count(t, tc.pattern); got != tc.want {
			t.Errorf("exclude-paths [%q]: %d diagnostics, want %d", tc.pattern, got, tc.want)
		}
	}
}

// severity is refused, with the golangci-lint setting to use instead.
func TestSeverityRefused(t *testing.T) {
	_, err := New(map[string]any{"severity": map[string]any{"tombstone": "error"}, "enable": []any{"nosuch"}})
	if err == nil {
		t.Fatal("severity accepted")
	}
	for _, want := range []string{
		"ctrllint settings: severity: a golangci-lint module plugin cannot set a finding's severity: use golangci-lint's own severity.rules",
		`ctrllint settings: enable: unknown analyzer "nosuch"`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q\ndoes not say %q", err, want)
		}
	}
	if _, err := New(map[string]any{"exclude-paths": []any{"("}}); err == nil || !strings.Contains(err.Error(), "ctrllint settings: exclude-paths: item 1: error parsing regexp") {
		t.Errorf("bad regexp: %v", err)
	}
}
