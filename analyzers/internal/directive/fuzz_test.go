package directive

import (
	"strings"
	"testing"
)

// FuzzParse: any comment text either is not a directive or splits into a
// known verb, clean names and a trimmed reason — never a panic.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"//ctrllint:ignore tombstone the fake never re-lists",
		"//ctrllint:file-ignore tombstone,forget generated",
		"//ctrllint:ignore",
		"//ctrllint:ignore ,,, reason",
		"//ctrllint:ignored x y",
		"// ctrllint:ignore x y",
		"//ctrllint:ignore\ttombstone\treason\twith\ttabs",
		"/*ctrllint:ignore x y*/",
		"//nolint:ctrllint",
		"",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		verb, names, reason, ok := Parse(text)
		if !ok {
			if verb != "" || names != nil || reason != "" {
				t.Fatalf("not a directive, yet %q %q %q", verb, names, reason)
			}
			return
		}
		if verb != lineVerb && verb != fileVerb {
			t.Fatalf("unknown verb %q", verb)
		}
		if !strings.HasPrefix(text, verb) {
			t.Fatalf("verb %q is not the text's prefix", verb)
		}
		for _, n := range names {
			if n == "" || strings.ContainsAny(n, ", \t\n") {
				t.Fatalf("bad analyzer name %q", n)
			}
		}
		if reason != strings.TrimSpace(reason) {
			t.Fatalf("reason %q is not trimmed", reason)
		}
	})
}
