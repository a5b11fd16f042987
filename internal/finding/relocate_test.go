package finding_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ctrllint/ctrllint/internal/finding"
)

// at is the position of the first occurrence of s in src, as the driver
// gives it: offset, line and column.
func at(file, src, s string) finding.Position {
	off := strings.Index(src, s)
	if off < 0 {
		panic(s + " not in source")
	}
	line := strings.Count(src[:off], "\n") + 1
	return finding.Position{File: file, Offset: off, Line: line, Column: off - strings.LastIndex(src[:off], "\n")}
}

// A finding left unfixed is moved to where its code is in the file as
// written: below lines a fix inserted, and through gofmt, which
// re-indents what fixes insert, realigns their neighbours, drops tokens
// (the parentheses of an if's condition, a duplicate import) and sorts
// imports. Each case's finding is on the identifier target, at the
// first occurrence of mark ("target(" if not given).
func TestRelocate(t *testing.T) {
	const file = "/virtual/a.go"
	for _, tc := range []struct {
		name, src, mark string
		fixes           func(src string) []finding.Edit
		line, col       int // target's in the written file
	}{
		{
			name: "lines inserted above",
			src:  "package a\n\nfunc f(x int) {\n\tx++\n\ttarget(x)\n}\n\nfunc target(int) {}\n",
			fixes: func(src string) []finding.Edit {
				p := at(file, src, "\tx++").Offset
				return []finding.Edit{edit(file, p, p, "if x > 0 {\nx--\n}\n")} // re-indented by gofmt
			},
			line: 8, col: 2,
		},
		{
			name: "lines deleted above",
			src:  "package a\n\nfunc f(x int) {\n\tx++\n\tx++\n\ttarget(x)\n}\n\nfunc target(int) {}\n",
			fixes: func(src string) []finding.Edit {
				p := at(file, src, "\tx++").Offset
				return []finding.Edit{edit(file, p, p+len("\tx++\n\tx++\n"), "")}
			},
			line: 4, col: 2,
		},
		{
			name: "realigned by gofmt",
			src:  "package a\n\nvar (\n\ta = target\n\tb = 2\n)\n\nvar target = 1\n",
			mark: "target\n",
			fixes: func(src string) []finding.Edit {
				p := at(file, src, "\tb = 2").Offset
				return []finding.Edit{edit(file, p, p, "\tlonger = 3\n")}
			},
			line: 4, col: 11, // "\ta      = target"
		},
		{
			name: "parentheses and a trailing comma dropped",
			src:  "package a\n\nfunc f(x int) {\n\tg(x)\n\ttarget(x)\n}\n\nfunc g(int)      {}\nfunc target(int) {}\n",
			fixes: func(src string) []finding.Edit {
				p := at(file, src, "\tg(x)").Offset
				return []finding.Edit{edit(file, p, p+len("\tg(x)"), "if (x > 0) {\ng(x,)\n}")}
			},
			line: 7, col: 2,
		},
		{
			// Between two changes: found again after the first.
			name: "imports sorted and a duplicate dropped, parentheses below",
			src:  "package a\n\nimport (\n\t\"fmt\"\n)\n\nfunc f(x int) {\n\tfmt.Println()\n\ttarget(x)\n\tg(x)\n}\n\nfunc g(int)      {}\nfunc target(int) {}\n",
			fixes: func(src string) []finding.Edit {
				p := at(file, src, "\t\"fmt\"").Offset
				q := at(file, src, ")\n\nfunc f").Offset
				g := at(file, src, "\tg(x)").Offset
				return []finding.Edit{edit(file, p, p, "\t\"os\"\n"), edit(file, q, q, "\t\"fmt\"\n"), edit(file, g, g+len("\tg(x)"), "if (x > 0) {\ng(x)\n}")}
			},
			line: 10, col: 2,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			read := func(string) ([]byte, error) { return []byte(tc.src), nil }
			if tc.mark == "" {
				tc.mark = "target("
			}
			target := at(file, tc.src, tc.mark)
			left := finding.Finding{Analyzer: "test", Message: "left", Pos: target, End: target}
			fixed := withFix("fix", tc.fixes(tc.src)...)
			plan := finding.PlanFixes([]finding.Finding{fixed, left}, finding.PlanOptions{ReadFile: read})
			written := string(plan.Files[file])
			if !plan.Applied[0] || written == "" {
				t.Fatalf("the fix was not applied: %v", plan.Skipped)
			}
			got := plan.Relocate(left)
			want := at(file, written, tc.mark)
			if got.Pos != want || got.End != want || want.Line != tc.line || want.Column != tc.col {
				t.Errorf("relocated to %v, end %v; want %d:%d in\n%s", got.Pos, got.End, tc.line, tc.col, written)
			}
		})
	}
}

// The edits of a fix left unapplied move with the code; a fix that
// conflicts with one applied is dropped, having nothing left to edit.
// Files the plan does not write keep their positions.
func TestRelocateFixes(t *testing.T) {
	const file, other = "/virtual/a.go", "/virtual/b.go"
	src := "package a\n\nfunc f() {\n\tbad()\n\tbad()\n}\n\nfunc bad()  {}\nfunc good() {}\n"
	read := func(string) ([]byte, error) { return []byte(src), nil }
	first := at(file, src, "bad()")
	second := at(file, src, "bad()\n}")
	rename := func(p finding.Position) finding.Edit { return edit(file, p.Offset, p.Offset+3, "good") }
	insert := at(file, src, "\tbad()").Offset

	applied := withFix("insert", edit(file, insert, insert, "// one\n// two\n"), rename(first))
	conflicting := finding.Finding{Analyzer: "test", Message: "first", Pos: first, End: first,
		Fixes: []finding.Fix{{Message: "conflicts", Edits: []finding.Edit{edit(file, first.Offset, first.Offset+5, "good()")}}}}
	kept := finding.Finding{Analyzer: "test", Message: "second", Pos: second, End: second,
		Fixes: []finding.Fix{
			{Message: "a conflict of this one", Edits: []finding.Edit{rename(second), edit(file, first.Offset, first.Offset+1, "B")}},
			{Message: "rename", Edits: []finding.Edit{rename(second)}},
		}}
	elsewhere := finding.Finding{Analyzer: "test", Message: "elsewhere", Pos: at(other, src, "bad()"), End: at(other, src, "bad()")}
	plan := finding.PlanFixes([]finding.Finding{applied}, finding.PlanOptions{ReadFile: read})
	written := string(plan.Files[file])

	if got := plan.Relocate(conflicting); len(got.Fixes) != 0 || got.Pos != at(file, written, "good()") {
		t.Errorf("conflicting fix: %+v", got)
	}
	got := plan.Relocate(kept)
	want := at(file, written, "bad()")
	if got.Pos != want || len(got.Fixes) != 1 || got.Fixes[0].Message != "rename" {
		t.Fatalf("kept: %+v, want at %v", got, want)
	}
	e := got.Fixes[0].Edits[0]
	if applied := written[:e.Pos.Offset] + e.NewText + written[e.End.Offset:]; !strings.Contains(applied, "\tgood()\n\tgood()\n") {
		t.Errorf("the moved fix does not rename the second call:\n%s", applied)
	}
	if got := plan.Relocate(elsewhere); fmt.Sprint(got) != fmt.Sprint(elsewhere) {
		t.Errorf("a file not written: %+v", got)
	}
}
