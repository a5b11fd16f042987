package main

import (
	"strings"
	"testing"
	"time"
)

func TestEditMarkdown(t *testing.T) {
	target := func(cold, edited time.Duration) *targetResult {
		tr := &targetResult{Entry: "e", Patterns: []string{"./..."}}
		tr.row(toolFloor, stateNone).Samples = []sample{{Wall: time.Second, CPU: time.Second}}
		tr.row(toolCtrllint, stateCold).Samples = []sample{{Wall: cold, CPU: cold}}
		tr.row(toolCtrllint, stateEdited).Samples = []sample{{Wall: edited, CPU: edited}}
		return tr
	}
	for _, tc := range []struct {
		cold, edited time.Duration
		want         []string
	}{
		{2 * time.Second, time.Second, []string{"| ctrllint (edited) |", "costs less than a cold run (wall): met, 1.00 s vs 2.00 s (0.50x)"}},
		{time.Second, 2 * time.Second, []string{"NOT met, 2.00 s vs 1.00 s (2.00x)"}},
	} {
		got := editMarkdown(target(tc.cold, tc.edited))
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("cold %v, edited %v: no %q in\n%s", tc.cold, tc.edited, w, got)
			}
		}
	}
	// The flag's value is checked before anything is copied.
	b := &bench{o: &options{edit: "sample-controller"}}
	if _, _, err := b.editTarget(&corpusConfig{}); err == nil || !strings.Contains(err.Error(), "want ENTRY:FILE") {
		t.Errorf("-edit without a file: %v", err)
	}
}
