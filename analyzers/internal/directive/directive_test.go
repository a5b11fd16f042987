package directive

import (
	"go/token"
	"slices"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		text   string
		ok     bool
		verb   string
		names  []string
		reason string
	}{
		{"//ctrllint:ignore tombstone the fake never re-lists", true, lineVerb, []string{"tombstone"}, "the fake never re-lists"},
		{"//ctrllint:ignore tombstone,forget  two   spaces", true, lineVerb, []string{"tombstone", "forget"}, "two spaces"},
		{"//ctrllint:file-ignore tombstone generated", true, fileVerb, []string{"tombstone"}, "generated"},
		{"//ctrllint:ignore tombstone", true, lineVerb, []string{"tombstone"}, ""},
		{"//ctrllint:ignore", true, lineVerb, nil, ""},
		{"//ctrllint:ignored tombstone x", false, "", nil, ""},
		{"// ctrllint:ignore tombstone x", false, "", nil, ""}, // directives have no space, like //go:
		{"//nolint:ctrllint", false, "", nil, ""},
	} {
		verb, names, reason, ok := Parse(tc.text)
		if ok != tc.ok || verb != tc.verb || !slices.Equal(names, tc.names) || reason != tc.reason {
			t.Errorf("Parse(%q) = %q, %q, %q, %v; want %q, %q, %q, %v", tc.text, verb, names, reason, ok, tc.verb, tc.names, tc.reason, tc.ok)
		}
	}
}

func TestOwnLine(t *testing.T) {
	src := []byte("package p\n\t//ctrllint:ignore x y\nvar v = 1 //ctrllint:ignore x y\n")
	fset := token.NewFileSet()
	tf := fset.AddFile("p.go", -1, len(src))
	tf.SetLinesForContent(src)
	own := tf.Pos(11)      // the comment on line 2
	trailing := tf.Pos(43) // the comment after `var v = 1`
	if !ownLine(src, tf, own) {
		t.Errorf("a comment alone on its line is not seen as such")
	}
	if ownLine(src, tf, trailing) {
		t.Errorf("a trailing comment is seen as alone on its line")
	}
	d := &directive{file: "p.go", line: 3, lastLine: 3}
	if !d.covers("p.go", 3) || d.covers("p.go", 4) || d.covers("q.go", 3) {
		t.Errorf("line directive covers the wrong lines")
	}
	if (&directive{file: "p.go", malformed: true}).covers("p.go", 0) {
		t.Errorf("a directive without a reason suppresses")
	}
	if !(&directive{file: "p.go"}).covers("p.go", 99) {
		t.Errorf("a file directive does not cover the file")
	}
}
