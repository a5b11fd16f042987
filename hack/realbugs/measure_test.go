package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrllint/ctrllint/hack/internal/bugs"
	"github.com/ctrllint/ctrllint/hack/internal/pinned"
)

// judge counts a finding only when it is the bug's analyzer's, in the bug's
// file at that version, inside the function; the fixed version is looked
// at under the function's new name.
func TestJudge(t *testing.T) {
	write := func(dir, src string) {
		if err := os.MkdirAll(filepath.Join(dir, "pkg"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "pkg", "c.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	buggyDir, fixedDir := t.TempDir(), t.TempDir()
	write(buggyDir, "package pkg\n\nfunc (c *C) onDelete(obj any) {\n\t_ = obj.(*T)\n}\n\nfunc other() {}\n")
	write(fixedDir, "package pkg\n\nfunc (c *C) deletePod(obj any) {\n\t_ = obj\n}\n\nfunc other() {}\n")
	b := bugs.Bug{Name: "b", Analyzer: "tombstone", Module: "example.com/m", Buggy: "v1.0.0", Fixed: "v1.0.1",
		Package: "example.com/m/pkg", File: "pkg/c.go", Function: "(*C).onDelete", FixedFunction: "(*C).deletePod"}
	at := func(v, analyzer string, line int) pinned.Finding {
		return pinned.Finding{Analyzer: analyzer, File: "example.com/m@" + v + "/pkg/c.go", Line: line}
	}
	for _, c := range []struct {
		name         string
		buggy, fixed []pinned.Finding
		detected     bool
		fixedClean   bool
	}{
		{"found", []pinned.Finding{at("v1.0.0", "tombstone", 4)}, nil, true, true},
		{"outside the function", []pinned.Finding{at("v1.0.0", "tombstone", 7)}, nil, false, true},
		{"another analyzer", []pinned.Finding{at("v1.0.0", "forget", 4)}, nil, false, true},
		{"another version's file", []pinned.Finding{at("v1.0.1", "tombstone", 4)}, nil, false, true},
		{"fixed reported", []pinned.Finding{at("v1.0.0", "tombstone", 4)}, []pinned.Finding{at("v1.0.1", "tombstone", 3)}, true, false},
	} {
		buggy := &version{module: b.Module, version: b.Buggy, dir: buggyDir, result: pinned.Result{Findings: c.buggy}}
		fixed := &version{module: b.Module, version: b.Fixed, dir: fixedDir, result: pinned.Result{Findings: c.fixed}}
		o := judge(b, buggy, fixed)
		if o.failure != "" || o.detected() != c.detected || (len(o.fixed) == 0) != c.fixedClean {
			t.Errorf("%s: detected %v, fixed %d, failure %q; want detected %v, fixed clean %v",
				c.name, o.detected(), len(o.fixed), o.failure, c.detected, c.fixedClean)
		}
	}
	// A caller named in also counts only when the finding names the
	// function.
	caller := b
	caller.Also = []bugs.Place{{File: "pkg/c.go", Function: "other"}}
	for _, c := range []struct {
		msg  string
		want bool
	}{{"obj is modified (c.onDelete(...), which does ...)", true}, {"obj is modified (c.update(...))", false}} {
		f := pinned.Finding{Analyzer: "tombstone", File: "example.com/m@v1.0.0/pkg/c.go", Line: 7, Message: c.msg}
		o := judge(caller, &version{module: b.Module, version: b.Buggy, dir: buggyDir, result: pinned.Result{Findings: []pinned.Finding{f}}},
			&version{module: b.Module, version: b.Fixed, dir: fixedDir})
		if o.failure != "" || o.detected() != c.want {
			t.Errorf("also, %q: detected %v, failure %q; want %v", c.msg, o.detected(), o.failure, c.want)
		}
	}
	// A function missing at a version, or a version that failed, is a
	// failure, never a miss.
	o := judge(bugs.Bug{Analyzer: "tombstone", Module: b.Module, File: "pkg/c.go", Function: "gone"},
		&version{module: b.Module, version: b.Buggy, dir: buggyDir}, &version{failure: "x"})
	if !strings.Contains(o.failure, "no function gone") || o.ok() {
		t.Errorf("missing function: failure %q", o.failure)
	}
	o = judge(b, &version{module: b.Module, version: b.Buggy, failure: "ctrllint exited 2"}, nil)
	if !strings.Contains(o.failure, "exited 2") || o.ok() {
		t.Errorf("failed version: failure %q", o.failure)
	}
}
