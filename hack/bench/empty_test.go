package main

import (
	"strings"
	"testing"
	"time"
)

// The empty-cache report gives each tool's ratio to the source floor and
// says whether ctrllint's first run meets issue 32's target.
func TestEmptyMarkdown(t *testing.T) {
	target := func(first time.Duration) *targetResult {
		tr := &targetResult{Entry: "e", Patterns: []string{"./..."}, ExportBytes: 16 << 20}
		tr.row(toolSource, stateNone).Samples = []sample{{Wall: 10 * time.Second, CPU: 20 * time.Second}}
		tr.row(toolCtrllint, stateFirst).Samples = []sample{{Wall: 12 * time.Second, CPU: first}}
		tr.row(toolCtrllint, stateSecond).Samples = []sample{{Wall: time.Second, CPU: 2 * time.Second}}
		return tr
	}
	md := emptyMarkdown([]*targetResult{target(30 * time.Second)})
	for _, want := range []string{"| ctrllint (first run)", "1.50x", "0.10x", "16 MB", "first run at most 2x the source floor's CPU: 1.50x, met."} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	if md := emptyMarkdown([]*targetResult{target(50 * time.Second)}); !strings.Contains(md, "2.50x, NOT met.") {
		t.Errorf("a first run at 2.5x the floor is not reported as missing the target:\n%s", md)
	}
}
