package lsp

import (
	"testing"

	"go.lsp.dev/protocol"
)

func TestDocumentApply(t *testing.T) {
	partial := func(sl, sc, el, ec uint32, text string) protocol.TextDocumentContentChangeEvent {
		return &protocol.TextDocumentContentChangePartial{Range: protocol.Range{Start: pos(sl, sc), End: pos(el, ec)}, Text: text}
	}
	for _, tc := range []struct {
		name    string
		text    string
		changes []protocol.TextDocumentContentChangeEvent
		want    string
		wantErr bool
	}{
		{name: "whole", text: "a\nb\n", changes: []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangeWholeDocument{Text: "c\n"}}, want: "c\n"},
		{name: "insert", text: "ab\ncd\n", changes: []protocol.TextDocumentContentChangeEvent{partial(1, 1, 1, 1, "X")}, want: "ab\ncXd\n"},
		{name: "across lines", text: "ab\ncd\n", changes: []protocol.TextDocumentContentChangeEvent{partial(0, 1, 1, 1, "")}, want: "ad\n"},
		// Each change applies to the text the ones before it left.
		{name: "in order", text: "abc\n", changes: []protocol.TextDocumentContentChangeEvent{partial(0, 0, 0, 0, "X"), partial(0, 1, 0, 2, "")}, want: "Xbc\n"},
		// UTF-16 units: 😀 is two, é one, and both are several bytes.
		{name: "utf-16", text: "é😀x\n", changes: []protocol.TextDocumentContentChangeEvent{partial(0, 3, 0, 4, "y")}, want: "é😀y\n"},
		// A character past the line's end is its end, before \r\n.
		{name: "past the end of a line", text: "ab\r\ncd\r\n", changes: []protocol.TextDocumentContentChangeEvent{partial(0, 9, 0, 9, "!")}, want: "ab!\r\ncd\r\n"},
		{name: "append at the end", text: "ab\n", changes: []protocol.TextDocumentContentChangeEvent{partial(1, 0, 1, 0, "c\n")}, want: "ab\nc\n"},
		{name: "line outside", text: "ab\n", changes: []protocol.TextDocumentContentChangeEvent{partial(5, 0, 5, 0, "x")}, wantErr: true},
		{name: "backwards", text: "abc\n", changes: []protocol.TextDocumentContentChangeEvent{partial(0, 2, 0, 1, "x")}, wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &document{text: []byte(tc.text)}
			err := d.apply(tc.changes)
			if tc.wantErr {
				if err == nil {
					t.Errorf("no error; text %q", d.text)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(d.text) != tc.want {
				t.Errorf("text %q, want %q", d.text, tc.want)
			}
		})
	}
}
