package goplsproxy

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/ctrllint/ctrllint/internal/lsp"
)

// The proxy passes gopls's answers through, errors included; what it
// answers itself (the merged replies) and what it decides itself
// (ctrllint's side of the lifecycle, the exit status) follow JSON-RPC 2.0
// and LSP 3.17 as ctrllint lsp does.

// step is a part of a scripted gopls: once it has read the client's
// first `after` messages, it writes out.
type step struct {
	after []string // bodies, the client's, as the proxy forwards them
	out   []string // bodies, gopls's
}

// scriptedGopls writes a gopls that plays steps, then reads its input
// until it ends.
func scriptedGopls(t *testing.T, steps ...step) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake gopls is a shell script")
	}
	dir := t.TempDir()
	var script strings.Builder
	script.WriteString("#!/bin/sh\n")
	for i, st := range steps {
		n := 0
		for _, b := range st.after {
			n += len(frame(b))
		}
		var out strings.Builder
		for _, b := range st.out {
			out.WriteString(frame(b))
		}
		file := filepath.Join(dir, fmt.Sprint("out", i))
		if err := os.WriteFile(file, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		// dd reads byte by byte: nothing past the step's messages.
		fmt.Fprintf(&script, "dd bs=1 count=%d of=/dev/null 2>/dev/null\ncat %q\n", n, file)
	}
	script.WriteString("cat >/dev/null\n")
	gopls := filepath.Join(dir, "gopls")
	if err := os.WriteFile(gopls, []byte(script.String()), 0o755); err != nil {
		t.Fatal(err)
	}
	return gopls
}

// recorder is ctrllint's side, recording the documents it is told of and
// offering fixes.
type recorder struct {
	noAnalyzer
	fixes []protocol.CommandOrCodeAction
	diags []protocol.Diagnostic

	mu     sync.Mutex
	opened []uri.URI
}

func (r *recorder) DidOpen(p *protocol.DidOpenTextDocumentParams) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.opened = append(r.opened, p.TextDocument.URI)
}

func (r *recorder) CodeAction(*protocol.CodeActionParams) ([]protocol.CommandOrCodeAction, error) {
	return r.fixes, nil
}

func (r *recorder) Diagnostics(uri.URI) []protocol.Diagnostic { return r.diags }

// startScripted runs the proxy between a test client and gopls, with an
// as ctrllint's side.
func startScripted(t *testing.T, gopls string, an Analyzer) *session {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &session{in: inW, exit: make(chan int, 1), err: &syncBuffer{}}
	go func() {
		s.exit <- Run(context.Background(), inR, outW, Options{
			Gopls: gopls, Stderr: s.err,
			Analyzer: func(context.Context, lsp.Client) Analyzer { return an },
		})
		outW.Close()
	}()
	s.c = newTestClient(t, inW, outR)
	t.Cleanup(func() {
		inW.Close()
		outR.Close()
	})
	return s
}

func didOpen(u uri.URI) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":%q,"languageId":"go","version":1,"text":"package a\n"}}}`, u)
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`

// ctrllint's side is told of documents only once gopls has answered the
// client's initialize with a result: before, LSP has the server drop
// notifications (and ctrllint's diagnostics would reach the client before
// the InitializeResult), and after a refused initialize there is no
// session.
func TestNotificationsBeforeInitialize(t *testing.T) {
	early, late := uri.File("/early/a.go"), uri.File("/late/a.go")
	for _, tc := range []struct {
		name   string
		answer string
		want   []uri.URI
	}{
		{"initialized", `{"jsonrpc":"2.0","id":1,"result":{"capabilities":{}}}`, []uri.URI{late}},
		{"refused", `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"no"}}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gopls := scriptedGopls(t, step{after: []string{didOpen(early), initialize}, out: []string{tc.answer}})
			an := &recorder{}
			s := startScripted(t, gopls, an)
			s.c.write([]byte(didOpen(early)))
			s.c.write([]byte(initialize))
			s.c.reply("1")
			s.c.write([]byte(didOpen(late)))
			s.c.close()
			s.stop(t, 1)
			an.mu.Lock()
			defer an.mu.Unlock()
			if !slices.Equal(an.opened, tc.want) {
				t.Errorf("ctrllint's side was told of %v, want %v", an.opened, tc.want)
			}
		})
	}
}

// The exit status is 0 only after a shutdown gopls answered with a
// result: a refused one (gopls refuses it before initialize) is none.
func TestShutdownRefused(t *testing.T) {
	const shutdown = `{"jsonrpc":"2.0","id":2,"method":"shutdown"}`
	for _, tc := range []struct {
		name   string
		answer string
		want   int
	}{
		{"answered", `{"jsonrpc":"2.0","id":2,"result":null}`, 0},
		{"refused", `{"jsonrpc":"2.0","id":2,"error":{"code":-32002,"message":"not initialized"}}`, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gopls := scriptedGopls(t, step{after: []string{shutdown}, out: []string{tc.answer}})
			s := startScripted(t, gopls, noAnalyzer{})
			s.c.write([]byte(shutdown))
			s.c.reply("2")
			s.c.write([]byte(`{"jsonrpc":"2.0","method":"exit"}`))
			s.stop(t, tc.want)
		})
	}
}

// The proxy's own replies, gopls's answers with ctrllint's part merged:
// gopls's id as it was written, a result and no error. gopls's error
// answers (a request cancelled, content modified) pass as they are, with
// nothing of ctrllint's added.
func TestMergedReplies(t *testing.T) {
	const params = `{"textDocument":{"uri":"file:///a.go"},"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"context":{"diagnostics":[]}}`
	requests := []string{
		initialize,
		`{"jsonrpc":"2.0","id":"ca<1>\u00e9","method":"textDocument/codeAction","params":` + params + `}`,
		`{"jsonrpc":"2.0","id":3,"method":"textDocument/codeAction","params":` + params + `}`,
		`{"jsonrpc":"2.0","id":4,"method":"textDocument/codeAction","params":` + params + `}`,
		`{"jsonrpc":"2.0","id":5,"method":"textDocument/diagnostic","params":{"textDocument":{"uri":"file:///a.go"}}}`,
		`{"jsonrpc":"2.0","id":6,"method":"textDocument/diagnostic","params":{"textDocument":{"uri":"file:///a.go"}}}`,
	}
	answers := []string{
		`{"jsonrpc":"2.0","id":1,"result":{"capabilities":{}}}`,
		`{"jsonrpc":"2.0","id":"ca<1>\u00e9","result":[{"title":"gopls's","kind":"quickfix"}]}`,
		`{"jsonrpc":"2.0","id":3,"result":null}`,
		`{"jsonrpc":"2.0","id":4,"error":{"code":-32800,"message":"cancelled"}}`,
		`{"jsonrpc":"2.0","id":5,"result":{"kind":"full","items":[]}}`,
		`{"jsonrpc":"2.0","id":6,"error":{"code":-32801,"message":"content modified"}}`,
	}
	gopls := scriptedGopls(t, step{after: requests, out: answers})
	quickfix := protocol.CodeActionKindQuickFix
	an := &recorder{
		fixes: []protocol.CommandOrCodeAction{&protocol.CodeAction{Title: "ctrllint's", Kind: &quickfix}},
		diags: []protocol.Diagnostic{{Message: protocol.String("ctrllint's"), Source: protocol.NewOptional("ctrllint")}},
	}
	s := startScripted(t, gopls, an)
	for _, r := range requests {
		s.c.write([]byte(r))
	}
	// The replies, by id as the test wrote it (the proxy may have
	// written it otherwise: that is checked below).
	s.c.await("the six replies", func() bool { return len(s.c.raw) == 6 })
	raw := map[string]string{}
	s.c.mu.Lock()
	for written, body := range s.c.raw {
		var id any
		json.Unmarshal([]byte(written), &id)
		raw[fmt.Sprint(id)] = string(body)
	}
	s.c.mu.Unlock()
	idOf := func(text string) string {
		var id any
		json.Unmarshal([]byte(text), &id)
		return fmt.Sprint(id)
	}

	// Merged: gopls's id byte for byte, a result, no error.
	for _, tc := range []struct {
		id     string
		titles string // of the result's code actions, or the report's items' messages
	}{
		{`"ca<1>\u00e9"`, `["gopls's","ctrllint's"]`},
		{`3`, `["ctrllint's"]`},
		{`5`, `["ctrllint's"]`},
	} {
		var m map[string]json.RawMessage
		body := raw[idOf(tc.id)]
		if err := json.Unmarshal([]byte(body), &m); err != nil {
			t.Fatalf("reply %s: %q: %v", tc.id, body, err)
		}
		var keys []string
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, []string{"id", "jsonrpc", "result"}) || string(m["jsonrpc"]) != `"2.0"` || string(m["id"]) != tc.id {
			t.Errorf("reply %s: %s; want gopls's id as it was written, jsonrpc 2.0 and a result only", tc.id, body)
		}
		var list []struct {
			Title   string `json:"title"`
			Message string `json:"message"`
		}
		result := m["result"]
		if tc.id == `5` {
			var report struct {
				Kind  string          `json:"kind"`
				Items json.RawMessage `json:"items"`
			}
			json.Unmarshal(result, &report)
			result = report.Items
		}
		if err := json.Unmarshal(result, &list); err != nil {
			t.Fatalf("reply %s: %s: %v", tc.id, body, err)
		}
		var titles []string
		for _, a := range list {
			titles = append(titles, a.Title+a.Message)
		}
		var want []string
		json.Unmarshal([]byte(tc.titles), &want)
		if !reflect.DeepEqual(titles, want) {
			t.Errorf("reply %s: %s; want %s", tc.id, body, tc.titles)
		}
	}
	// gopls's errors: as gopls wrote them.
	for i, id := range []string{`4`, `6`} {
		if want := answers[3+2*i]; raw[idOf(id)] != want {
			t.Errorf("reply %s: %s, want gopls's %s", id, raw[idOf(id)], want)
		}
	}
	s.c.close()
	select {
	case <-s.exit:
	case <-time.After(30 * time.Second):
		t.Fatalf("Run did not return; stderr:\n%s", s.err)
	}
}
