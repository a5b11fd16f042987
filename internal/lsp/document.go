package lsp

import (
	"fmt"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// document is an open document: the editor's text of it, which is what
// is analysed while it differs from the file (an overlay).
type document struct {
	uri     uri.URI // as the client names it
	version int32   // the client's, from didOpen and each didChange
	text    []byte  // never nil; replaced, never changed in place
	lost    bool    // a change could not be applied: text is not the editor's
}

// apply applies one didChange's changes, in order, as the protocol
// says: a change without a range replaces the whole text; one with a
// range replaces that range of the text as the changes before it left it.
func (d *document) apply(changes []protocol.TextDocumentContentChangeEvent) error {
	for _, c := range changes {
		switch c := c.(type) {
		case *protocol.TextDocumentContentChangeWholeDocument:
			d.text = append([]byte{}, c.Text...)
		case *protocol.TextDocumentContentChangePartial:
			m := newMapper(d.text)
			start, err := m.offset(c.Range.Start)
			if err != nil {
				return err
			}
			end, err := m.offset(c.Range.End)
			if err != nil {
				return err
			}
			if end < start {
				return fmt.Errorf("the range %v ends before it starts", c.Range)
			}
			text := make([]byte, 0, len(d.text)-(end-start)+len(c.Text))
			text = append(append(append(text, d.text[:start]...), c.Text...), d.text[end:]...)
			d.text = text
		default:
			return fmt.Errorf("unknown content change %T", c)
		}
	}
	return nil
}

// offset converts an LSP position into a byte offset, the inverse of
// position. A character past the end of its line means the line's end,
// as the protocol says, but a line past the last is an error: the
// editor's text and ours have diverged.
func (m *mapper) offset(p protocol.Position) (int, error) {
	if int(p.Line) >= len(m.lines) {
		return 0, fmt.Errorf("line %d is outside the document (%d lines)", p.Line+1, len(m.lines))
	}
	start := m.lines[p.Line]
	end := len(m.content)
	if int(p.Line)+1 < len(m.lines) {
		end = m.lines[p.Line+1]
	}
	// The line's end is before its terminator.
	for end > start && (m.content[end-1] == '\n' || m.content[end-1] == '\r') {
		end--
	}
	off, units := start, 0
	for off < end && units < int(p.Character) {
		r, size := utf8.DecodeRune(m.content[off:end])
		n := utf16.RuneLen(r)
		if n < 0 {
			n = 1
		}
		units += n
		off += size
	}
	return off, nil
}
