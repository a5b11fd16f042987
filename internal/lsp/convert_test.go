package lsp

import (
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/ctrllint/ctrllint/internal/finding"
)

func pos(line, char uint32) protocol.Position { return protocol.Position{Line: line, Character: char} }

func TestMapperPosition(t *testing.T) {
	// "é" is 2 bytes and 1 UTF-16 unit; "😀" is 4 bytes and 2 units
	// (a surrogate pair); "世" is 3 bytes and 1 unit.
	const src = "package p\n\nvar s = \"é😀世\" + x\r\ny\rz"
	m := newMapper([]byte(src))
	for _, tc := range []struct {
		at   string // the text the offset is at (its first occurrence)
		want protocol.Position
	}{
		{"package", pos(0, 0)},
		{"p\n", pos(0, 8)},
		{"\n\nvar", pos(0, 9)},
		{"\nvar", pos(1, 0)},
		{"var", pos(2, 0)},
		{"é", pos(2, 9)},
		{"😀", pos(2, 10)},
		{"世", pos(2, 12)},
		{"\" + x", pos(2, 13)},
		{"x\r", pos(2, 17)},
		{"\r\n", pos(2, 18)},
		{"y", pos(3, 0)}, // \r\n is one line break
		{"z", pos(4, 0)}, // so is a lone \r
	} {
		off := strings.Index(src, tc.at)
		got, err := m.position(off)
		if err != nil || got != tc.want {
			t.Errorf("position(%d) at %q = %v, %v; want %v", off, tc.at, got, err, tc.want)
		}
	}
	if got, err := m.position(len(src)); err != nil || got != pos(4, 1) {
		t.Errorf("position at EOF = %v, %v; want 4:1", got, err)
	}
	for _, off := range []int{-1, len(src) + 1} {
		if _, err := m.position(off); err == nil {
			t.Errorf("position(%d) outside the file: no error", off)
		}
	}
	// An empty file, and one ending in a newline.
	if got, err := newMapper(nil).position(0); err != nil || got != pos(0, 0) {
		t.Errorf("empty file: %v, %v", got, err)
	}
	if got, err := newMapper([]byte("a\n")).position(2); err != nil || got != pos(1, 0) {
		t.Errorf("after the last newline: %v, %v", got, err)
	}
}

func TestDiagnostic(t *testing.T) {
	src := []byte("package p\n\nfunc f() { ö := obj.(*v1.Pod) }\n")
	start := strings.Index(string(src), "obj")
	f := finding.Finding{
		Analyzer: "tombstone",
		Message:  "the assertion fails",
		Pos:      finding.Position{File: "/m/p/a.go", Offset: start},
		End:      finding.Position{File: "/m/p/a.go", Offset: start + len("obj.(*v1.Pod)")},
	}
	d, err := diagnostic(f, newMapper(src), "https://example.com/tombstone.md", "warning")
	if err != nil {
		t.Fatal(err)
	}
	// "ö" is two bytes but one UTF-16 unit: obj is at byte 17 of its
	// line and at character 16.
	if want := (protocol.Range{Start: pos(2, 16), End: pos(2, 29)}); d.Range != want {
		t.Errorf("range %v, want %v", d.Range, want)
	}
	if d.Code != protocol.String("tombstone") || d.Message != protocol.String("the assertion fails") ||
		d.CodeDescription.Href != "https://example.com/tombstone.md" || d.Severity != protocol.DiagnosticSeverityWarning {
		t.Errorf("diagnostic %+v", d)
	}
	if src, ok := d.Source.Get(); !ok || src != "ctrllint" {
		t.Errorf("source %q", src)
	}
	if d, _ := diagnostic(f, newMapper(src), "", "warning"); !d.CodeDescription.Href.IsZero() {
		t.Errorf("codeDescription without a URL: %v", d.CodeDescription)
	}
	f.End.Offset = len(src) + 10
	if _, err := diagnostic(f, newMapper(src), "", "warning"); err == nil {
		t.Error("a finding beyond the end of the file: no error")
	}
}

// A fix edits two places of one file (adds an import, inserts a
// statement) and one place of another. The code action replaces the lines
// that change once the edits are applied and the result gofmt'ed, as
// ctrllint -fix would write it: the import goes in order.
func TestQuickFix(t *testing.T) {
	a := "package p\n\nimport (\n\t\"os\"\n)\n\nfunc f(obj any) {\n\t_ = obj // é\n\tos.Exit(1)\n}\n"
	b := "package p\n\n// 😀\nvar x = 1\n"
	files := map[string]string{"/m/p/a.go": a, "/m/p/b.go": b}
	targets := func(file string) (target, bool) {
		src, ok := files[file]
		return target{uri: uri.File(file), mapper: newMapper([]byte(src))}, ok
	}
	at := func(file, s string) finding.Position {
		return finding.Position{File: file, Offset: strings.Index(files[file], s)}
	}
	insert := func(file, before, text string) finding.Edit {
		return finding.Edit{Pos: at(file, before), End: at(file, before), NewText: text}
	}
	fix := finding.Fix{Message: "Unwrap the tombstone", Edits: []finding.Edit{
		insert("/m/p/a.go", "\n)", "\n\t\"k8s.io/client-go/tools/cache\""), // last in the block: out of order
		insert("/m/p/a.go", "_ = obj", "obj = unwrap(obj)\n  "),            // badly indented
		{Pos: at("/m/p/b.go", "1"), End: finding.Position{File: "/m/p/b.go", Offset: at("/m/p/b.go", "1").Offset + 1}, NewText: "2"},
	}}
	diag := protocol.Diagnostic{Message: protocol.String("m")}
	ca, err := quickFix(fix, "tombstone", diag, targets)
	if err != nil {
		t.Fatal(err)
	}
	if ca.Title != "Unwrap the tombstone" || ca.Kind == nil || *ca.Kind != protocol.CodeActionKindQuickFix || len(ca.Diagnostics) != 1 {
		t.Errorf("code action %+v", ca)
	}
	got := ca.Edit.Changes
	wantA := []protocol.TextEdit{
		{Range: protocol.Range{Start: pos(3, 0), End: pos(3, 0)}, NewText: "\t\"k8s.io/client-go/tools/cache\"\n"},
		{Range: protocol.Range{Start: pos(7, 0), End: pos(7, 0)}, NewText: "\tobj = unwrap(obj)\n"},
	}
	wantB := []protocol.TextEdit{{Range: protocol.Range{Start: pos(3, 0), End: pos(4, 0)}, NewText: "var x = 2\n"}}
	if len(got) != 2 || !equalEdits(got[uri.File("/m/p/a.go")], wantA) || !equalEdits(got[uri.File("/m/p/b.go")], wantB) {
		t.Errorf("changes %v\nwant a.go %v\nb.go %v", got, wantA, wantB)
	}
	want := "package p\n\nimport (\n\t\"k8s.io/client-go/tools/cache\"\n\t\"os\"\n)\n\nfunc f(obj any) {\n\tobj = unwrap(obj)\n\t_ = obj // é\n\tos.Exit(1)\n}\n"
	if got := applyLSP(t, a, got[uri.File("/m/p/a.go")]); got != want {
		t.Errorf("applied:\n%s\nwant:\n%s", got, want)
	}

	bad := fix
	bad.Edits = append(slices.Clone(fix.Edits), insert("/elsewhere.go", "", "x"))
	if _, err := quickFix(bad, "tombstone", diag, targets); err == nil {
		t.Error("a fix editing an unknown file: no error")
	}
	bad.Edits = []finding.Edit{{Pos: finding.Position{File: "/m/p/b.go", Offset: len(b) + 1}, End: finding.Position{File: "/m/p/b.go", Offset: len(b) + 1}}}
	if _, err := quickFix(bad, "tombstone", diag, targets); err == nil {
		t.Error("a fix beyond the end of the file: no error")
	}
	untitled := finding.Fix{Edits: fix.Edits[2:]}
	if ca, err := quickFix(untitled, "tombstone", diag, targets); err != nil || ca.Title != "Apply the fix suggested by tombstone" {
		t.Errorf("untitled fix: %v, %v", ca, err)
	}
}

func TestLineEdits(t *testing.T) {
	for _, tc := range []struct{ old, new string }{
		{"", ""},
		{"a\n", "a\n"},
		{"", "a\nb\n"},
		{"a\nb\n", ""},
		{"a\nb\nc\n", "a\nx\nc\n"},
		{"a\nb\nc\nd\ne\n", "x\na\nc\nd\ny\ne\nz\n"},
		{"a\nb", "a\nb\n"}, // a final newline added
		{"a\nb\n", "a\nc"}, // and removed
		{"same\nsame\nsame\n", "same\nsame\n"},
	} {
		edits := lineEdits([]byte(tc.old), []byte(tc.new))
		got, last := "", 0
		for _, e := range edits {
			if e.start < last || e.end < e.start {
				t.Errorf("%q → %q: edits out of order or overlapping: %v", tc.old, tc.new, edits)
			}
			got += tc.old[last:e.start] + e.text
			last = e.end
		}
		got += tc.old[last:]
		if got != tc.new {
			t.Errorf("%q → %q: edits %v give %q", tc.old, tc.new, edits, got)
		}
		if tc.old == tc.new && len(edits) > 0 {
			t.Errorf("%q unchanged: edits %v", tc.old, edits)
		}
	}
	// Changes far apart are separate edits; unchanged lines between them
	// are left alone.
	if edits := lineEdits([]byte("a\nb\nc\nd\n"), []byte("A\nb\nc\nD\n")); len(edits) != 2 {
		t.Errorf("two changed lines: %v", edits)
	}
}

func equalEdits(a, b []protocol.TextEdit) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestTouchesAndKinds(t *testing.T) {
	diag := protocol.Range{Start: pos(9, 12), End: pos(9, 25)}
	for _, tc := range []struct {
		r    protocol.Range
		want bool
	}{
		{protocol.Range{Start: pos(9, 12), End: pos(9, 12)}, true}, // cursor at the start
		{protocol.Range{Start: pos(9, 25), End: pos(9, 25)}, true}, // and at the end
		{protocol.Range{Start: pos(9, 20), End: pos(9, 20)}, true},
		{protocol.Range{Start: pos(0, 0), End: pos(20, 0)}, true}, // the whole file
		{protocol.Range{Start: pos(9, 0), End: pos(9, 11)}, false},
		{protocol.Range{Start: pos(9, 26), End: pos(10, 0)}, false},
		{protocol.Range{Start: pos(8, 30), End: pos(8, 30)}, false},
	} {
		if got := touches(diag, tc.r); got != tc.want {
			t.Errorf("touches(%v, %v) = %v", diag, tc.r, got)
		}
	}
	if !wantsQuickFix(nil) || !wantsQuickFix([]protocol.CodeActionKind{"refactor", "quickfix"}) || wantsQuickFix([]protocol.CodeActionKind{"source.organizeImports"}) {
		t.Error("wantsQuickFix")
	}
}

// applyLSP applies LSP text edits to src as a client does: positions are
// resolved against the original text, then the edits applied from last to
// first.
func applyLSP(t *testing.T, src string, edits []protocol.TextEdit) string {
	t.Helper()
	offset := func(p protocol.Position) int {
		line := 0
		i := 0
		for line < int(p.Line) {
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				t.Fatalf("line %d beyond the end", p.Line)
			}
			i += j + 1
			line++
		}
		units := 0
		for _, r := range src[i:] {
			if units >= int(p.Character) {
				break
			}
			units++
			if r >= 0x10000 {
				units++
			}
			i += len(string(r))
		}
		return i
	}
	type span struct {
		start, end int
		text       string
	}
	var spans []span
	for _, e := range edits {
		spans = append(spans, span{offset(e.Range.Start), offset(e.Range.End), e.NewText})
	}
	for i := len(spans) - 1; i >= 0; i-- {
		s := spans[i]
		src = src[:s.start] + s.text + src[s.end:]
	}
	return src
}
