package main

import (
	"strings"
	"testing"
)

// ctrllint -h lists every command with its summary, and each command it
// lists is one: ctrllint NAME -h prints that command's usage and exits 0.
func TestUsageListsCommands(t *testing.T) {
	if len(commands) == 0 {
		t.Fatal("no commands to list")
	}
	r := runBinary(t, ctrllintBin, t.TempDir(), nil, "-h")
	if r.code != exitClean {
		t.Fatalf("ctrllint -h: exit %d\n%s", r.code, r.stderr)
	}
	head, _, ok := strings.Cut(r.stderr, "\nFlags:\n")
	if !ok {
		t.Fatalf("ctrllint -h has no Flags: section:\n%s", r.stderr)
	}
	lines := strings.Split(head, "\n")
	for _, c := range commands {
		listed, usage := false, false
		for _, l := range lines {
			f := strings.Fields(l)
			listed = listed || len(f) > 1 && f[0] == c.name && strings.Join(f[1:], " ") == c.summary
			usage = usage || strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(l, "usage:")), "ctrllint "+c.name+" ")
		}
		if !listed {
			t.Errorf("ctrllint -h does not list the command %s with its summary %q:\n%s", c.name, c.summary, head)
		}
		if !usage {
			t.Errorf("ctrllint -h has no usage line for ctrllint %s:\n%s", c.name, head)
		}
		sub := runBinary(t, ctrllintBin, t.TempDir(), nil, c.name, "-h")
		if sub.code != exitClean || !strings.HasPrefix(sub.stderr, "usage: ctrllint "+c.name+" ") {
			t.Errorf("ctrllint %s -h: exit %d, stderr %q; want exit 0 and its usage", c.name, sub.code, sub.stderr)
		}
	}
}
