package manual

import (
	"strings"
	"testing"
)

const good = `// Package x is an example.
//
// # Analyzer x
//
// x: report things
//
// Why it matters.
//
// # Wrong
//
//	bad()
//
// # Right
//
//	good()
//
// # Fix
//
// Do it right.
//
// # Suppress
//
// With a reason.
//
// # Not reported
//
//   - fine things
package x
`

func TestParse(t *testing.T) {
	p, err := Parse("x", good)
	if err != nil {
		t.Fatal(err)
	}
	if p.Summary != "report things" {
		t.Errorf("Summary = %q", p.Summary)
	}
	if len(p.Sections) != len(Required) {
		t.Errorf("got %d sections, want %d", len(p.Sections), len(Required))
	}
	md := p.Markdown()
	for _, want := range []string{"# x\n\nreport things", "## Wrong", "\tbad()", "## Not reported", "  - fine things"} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
	if txt := p.Text(); !strings.Contains(txt, "WRONG") || !strings.Contains(txt, "Why it matters.") {
		t.Errorf("Text is missing parts:\n%s", txt)
	}
	if !strings.HasPrefix(p.AnalyzerDoc(), "report things\n\n") {
		t.Errorf("AnalyzerDoc does not start with the summary line")
	}
}

func TestParseRejects(t *testing.T) {
	for name, src := range map[string]string{
		"no comment":      "package x\n",
		"no heading":      "// Package x.\npackage x\n",
		"wrong name":      strings.Replace(good, "x: report", "y: report", 1),
		"missing section": strings.Replace(good, "// # Fix\n//\n// Do it right.\n", "", 1),
		"no why":          strings.Replace(good, "// Why it matters.\n//\n", "", 1),
		"reordered":       strings.Replace(strings.Replace(good, "# Wrong", "# TMP", 1), "# Right", "# Wrong", 1),
	} {
		if _, err := Parse("x", src); err == nil {
			t.Errorf("%s: Parse accepted it", name)
		}
	}
}
