package resultcache

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/ctrllint/ctrllint/internal/finding"
)

const fuzzEntryID = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func sampleEntry() entry {
	pos := finding.Position{File: "/src/a.go", Offset: 40, Line: 5, Column: 12}
	return entry{Findings: []finding.Finding{{
		Analyzer: "tombstone", Category: "delete", Message: "type assertion panics on the tombstone",
		URL: "https://example.com/tombstone", Pos: pos, End: pos, Package: "example.com/m/a",
		Fixes: []finding.Fix{{Message: "Use the tombstone", Edits: []finding.Edit{{Pos: pos, End: pos, NewText: "x"}}}},
	}}}
}

// FuzzDecodeEntry: no input makes the decoder panic, and what it accepts
// is exactly what encodeEntry writes for the decoded entry.
func FuzzDecodeEntry(f *testing.F) {
	good, err := encodeEntry(sampleEntry(), fuzzEntryID)
	if err != nil {
		f.Fatal(err)
	}
	empty, _ := encodeEntry(entry{}, fuzzEntryID)
	for _, seed := range [][]byte{good, empty, nil, []byte("null"), []byte("{}"), good[:len(good)/2],
		[]byte(entryMagic + " " + fuzzEntryID + " 4 x\nnull"), append(bytes.Clone(good), '\n')} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := decodeEntry(data, fuzzEntryID)
		if err != nil {
			return
		}
		again, err := encodeEntry(e, fuzzEntryID)
		if err != nil {
			t.Fatalf("accepted an entry it cannot write: %v", err)
		}
		if !bytes.Equal(again, data) {
			t.Fatalf("accepted\n%q\nwhich encodes as\n%q", data, again)
		}
	})
}

// FuzzEntryRoundTrip: every entry written is read back identical,
// whatever its strings hold.
func FuzzEntryRoundTrip(f *testing.F) {
	f.Add("tombstone", "type assertion panics\non the tombstone", "/src/a.go", 5, 12, "x := 1\x00é")
	f.Add("a", "\"quoted\" <html> \u2028", "C:\\src\\a.go", 1, 1, "")
	f.Fuzz(func(t *testing.T, analyzer, msg, file string, line, col int, text string) {
		e := sampleEntry()
		fd := &e.Findings[0]
		fd.Analyzer, fd.Message, fd.Pos.File, fd.Pos.Line, fd.Pos.Column = analyzer, msg, file, line, col
		fd.Fixes[0].Edits[0].NewText = text
		data, err := encodeEntry(e, fuzzEntryID)
		if err != nil {
			if e.check() == nil {
				t.Fatalf("a valid entry was not written: %v", err)
			}
			return
		}
		got, err := decodeEntry(data, fuzzEntryID)
		if err != nil {
			t.Fatalf("an entry written is not read back: %v\n%q", err, data)
		}
		// JSON holds strings as UTF-8: what Marshal made of invalid
		// UTF-8 is what must come back.
		var want entry
		b, _ := json.Marshal(e)
		json.Unmarshal(b, &want)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("read back\n%+v\nwant\n%+v", got, want)
		}
		if _, err := decodeEntry(data, "another"); err == nil {
			t.Fatal("an entry was accepted under another name")
		}
	})
}

// An entry whose header is right but whose findings could not come from
// an analysis (no position, the empty object) is refused.
func TestDecodeEntryChecksFindings(t *testing.T) {
	for name, payload := range map[string]string{
		"empty object":   `{}`,
		"null findings":  `{"Findings":null}`,
		"empty position": `{"Findings":[{"Analyzer":"a","Message":"m"}]}`,
		"no analyzer":    `{"Findings":[{"Message":"m","Pos":{"File":"/a.go","Line":1,"Column":1}}]}`,
		"unknown field":  `{"Findings":[],"Extra":1}`,
	} {
		data := rawEntry(payload)
		if _, err := decodeEntry(data, fuzzEntryID); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := decodeEntry(rawEntry(`{"Findings":[]}`), fuzzEntryID); err != nil {
		t.Errorf("a clean package's entry: %v", err)
	}
}

// rawEntry frames payload with a correct header.
func rawEntry(payload string) []byte {
	sum := sha256.Sum256([]byte(payload))
	return fmt.Appendf(nil, "%s %s %d %x\n%s", entryMagic, fuzzEntryID, len(payload), sum, payload)
}
