package manual

import "testing"

// FuzzParse: any doc.go text parses or fails with an error — never a
// panic — and a parsed page renders.
func FuzzParse(f *testing.F) {
	f.Add(good)
	f.Add("package x\n")
	f.Add("// # Analyzer x\n//\n// x: y\npackage x\n")
	f.Add("// Package x.\n//\n// # Analyzer x\n//\n// x: summary\n//\n// Why.\n//\n// # Wrong\npackage x\n")
	f.Fuzz(func(t *testing.T, src string) {
		p, err := Parse("x", src)
		if err != nil {
			return
		}
		if p.Name != "x" || p.Summary == "" {
			t.Fatalf("parsed page without name or summary: %+v", p)
		}
		_ = p.Markdown()
		_ = p.Text()
		_ = p.AnalyzerDoc()
	})
}
