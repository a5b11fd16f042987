package goplsproxy

import (
	"encoding/json"
	"path/filepath"
	"sync"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// merger keeps the last list of diagnostics each source published for each
// document and publishes their union whenever either changes: both publish
// whole lists, so forwarding either alone would erase the other's.
type merger struct {
	// mu is held while a merged list is written, so that the client gets
	// the lists in the order the state changed.
	mu   sync.Mutex
	docs map[string]*merged // by file path (the sources may spell a URI differently)
}

type merged struct {
	uri      json.RawMessage   // as gopls last spelled it; else ctrllint's
	version  json.RawMessage   // of gopls's last list, if it gave one
	fromGo   []json.RawMessage // gopls's, as it sent them
	ctrllint []json.RawMessage
}

func newMerger() *merger { return &merger{docs: make(map[string]*merged)} }

// docKey identifies a document whichever source names it.
func docKey(u string) string {
	if parsed := uri.URI(u); parsed.IsFile() {
		return filepath.Clean(parsed.FsPath())
	}
	return u
}

// gopls records gopls's publication (its params, and the whole message
// body) and sends the union; the message as it is when ctrllint has
// nothing for the document.
func (m *merger) gopls(params json.RawMessage, body []byte, send func([]byte)) {
	var p struct {
		URI         json.RawMessage   `json:"uri"`
		Version     json.RawMessage   `json:"version"`
		Diagnostics []json.RawMessage `json:"diagnostics"`
	}
	var u string
	if json.Unmarshal(params, &p) != nil || json.Unmarshal(p.URI, &u) != nil {
		send(body) // the client makes of it what it can
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	key := docKey(u)
	d := m.docs[key]
	if d == nil {
		d = &merged{}
		m.docs[key] = d
	}
	d.uri, d.version, d.fromGo = p.URI, p.Version, p.Diagnostics
	if len(d.ctrllint) == 0 {
		if len(d.fromGo) == 0 {
			delete(m.docs, key)
		}
		send(body)
		return
	}
	send(d.message())
}

// ctrllint records ctrllint's list for u and sends the union.
func (m *merger) ctrllint(u uri.URI, diags []protocol.Diagnostic, send func([]byte)) error {
	raw := make([]json.RawMessage, 0, len(diags))
	for _, d := range diags {
		b, err := protocol.Marshal(d)
		if err != nil {
			return err
		}
		raw = append(raw, b)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	key := docKey(string(u))
	d := m.docs[key]
	if d == nil {
		b, err := json.Marshal(string(u))
		if err != nil {
			return err
		}
		d = &merged{uri: b}
		m.docs[key] = d
	}
	d.ctrllint = raw
	send(d.message())
	if len(d.fromGo) == 0 && len(d.ctrllint) == 0 {
		delete(m.docs, key)
	}
	return nil
}

// message is the publishDiagnostics notification of the union.
func (d *merged) message() []byte {
	all := make([]json.RawMessage, 0, len(d.fromGo)+len(d.ctrllint))
	all = append(append(all, d.fromGo...), d.ctrllint...)
	params := struct {
		URI         json.RawMessage   `json:"uri"`
		Version     json.RawMessage   `json:"version,omitempty"`
		Diagnostics []json.RawMessage `json:"diagnostics"`
	}{d.uri, d.version, all}
	b, _ := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params"`
	}{"2.0", "textDocument/publishDiagnostics", params})
	return b
}
