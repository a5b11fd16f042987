package goplsproxy

import (
	"encoding/json"
	"slices"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// Each source's publication replaces only its own part of the document's
// list: neither erases the other's, and a document ctrllint has nothing
// for gets gopls's message byte for byte.
func TestMerger(t *testing.T) {
	m := newMerger()
	var sent [][]byte
	send := func(b []byte) { sent = append(sent, b) }
	last := func() (u string, version json.RawMessage, msgs []string) {
		t.Helper()
		var n struct {
			Method string
			Params struct {
				URI         string
				Version     json.RawMessage
				Diagnostics []struct{ Message string }
			}
		}
		if err := json.Unmarshal(sent[len(sent)-1], &n); err != nil || n.Method != "textDocument/publishDiagnostics" {
			t.Fatalf("sent %s: %v", sent[len(sent)-1], err)
		}
		for _, d := range n.Params.Diagnostics {
			msgs = append(msgs, d.Message)
		}
		return n.Params.URI, n.Params.Version, msgs
	}
	fromGopls := func(u string, version int, msgs ...string) []byte {
		diags := make([]map[string]any, 0, len(msgs))
		for _, s := range msgs {
			diags = append(diags, map[string]any{"range": map[string]any{"start": map[string]int{"line": 0, "character": 0}, "end": map[string]int{"line": 0, "character": 1}}, "message": s, "source": "compiler"})
		}
		params, _ := json.Marshal(map[string]any{"uri": u, "version": version, "diagnostics": diags})
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": json.RawMessage(params)})
		m.gopls(params, body, send)
		return body
	}
	fromCtrllint := func(u uri.URI, msgs ...string) {
		var diags []protocol.Diagnostic
		for _, s := range msgs {
			diags = append(diags, protocol.Diagnostic{Message: protocol.String(s), Source: protocol.NewOptional("ctrllint")})
		}
		if err := m.ctrllint(u, diags, send); err != nil {
			t.Fatal(err)
		}
	}
	check := func(step string, want ...string) {
		t.Helper()
		_, _, got := last()
		if !slices.Equal(got, want) {
			t.Errorf("%s: published %q, want %q", step, got, want)
		}
	}

	// gopls spells the path percent-encoded, ctrllint plainly: one document.
	goplsURI := "file:///w/a%20b/x.go"
	ours := uri.File("/w/a b/x.go")

	body := fromGopls(goplsURI, 1, "g1")
	if string(sent[len(sent)-1]) != string(body) {
		t.Errorf("gopls's message alone was not passed as it is: %s", sent[len(sent)-1])
	}
	fromCtrllint(ours, "c1", "c2")
	check("ctrllint after gopls", "g1", "c1", "c2")
	if u, v, _ := last(); u != goplsURI || string(v) != "1" {
		t.Errorf("merged publication for %s version %s, want gopls's URI and version", u, v)
	}
	fromGopls(goplsURI, 2)
	check("gopls clears its own", "c1", "c2")
	fromGopls(goplsURI, 3, "g2")
	check("gopls again", "g2", "c1", "c2")
	fromCtrllint(ours)
	check("ctrllint clears its own", "g2")
	body = fromGopls(goplsURI, 4, "g3")
	if string(sent[len(sent)-1]) != string(body) {
		t.Errorf("with ctrllint's list empty, gopls's message was not passed as it is: %s", sent[len(sent)-1])
	}

	// A document only ctrllint has diagnostics for.
	other := uri.File("/w/y.go")
	fromCtrllint(other, "c3")
	if u, v, msgs := last(); u != string(other) || v != nil || !slices.Equal(msgs, []string{"c3"}) {
		t.Errorf("ctrllint alone: %s %s %q", u, v, msgs)
	}
	fromCtrllint(other)
	check("ctrllint alone, cleared")
	if len(m.docs) != 1 {
		t.Errorf("%d documents kept, want 1 (x.go): cleared ones are forgotten", len(m.docs))
	}
}
