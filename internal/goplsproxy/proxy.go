// Package goplsproxy is `ctrllint gopls`: the editor starts it in place of
// gopls, it starts the real gopls and passes every message between them
// through unchanged, byte for byte, except three: gopls's
// textDocument/publishDiagnostics, and its answers to the client's
// textDocument/codeAction and textDocument/diagnostic requests, into which
// it merges ctrllint's diagnostics and quick fixes. ctrllint's side is an
// Analyzer (internal/lsp's Engine) told of the documents the client opens,
// edits, saves and closes.
package goplsproxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"sync"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/ctrllint/ctrllint/internal/lsp"
)

// Analyzer is ctrllint's side of the proxy: what it needs of the engine.
type Analyzer interface {
	DidOpen(*protocol.DidOpenTextDocumentParams)
	DidChange(*protocol.DidChangeTextDocumentParams)
	DidSave(*protocol.DidSaveTextDocumentParams)
	DidClose(*protocol.DidCloseTextDocumentParams)
	// CodeAction returns the quick fixes for a codeAction request.
	CodeAction(*protocol.CodeActionParams) ([]protocol.CommandOrCodeAction, error)
	// Diagnostics returns a document's diagnostics, for pull diagnostics.
	Diagnostics(uri.URI) []protocol.Diagnostic
	// Shutdown stops the analyses; nothing is published after it.
	Shutdown()
}

// Options configure the proxy.
type Options struct {
	Gopls  string   // the gopls executable
	Args   []string // gopls's arguments
	Env    []string // gopls's environment; nil means the process's
	Stderr io.Writer
	// Analyzer makes ctrllint's side, which publishes to client.
	Analyzer func(ctx context.Context, client lsp.Client) Analyzer
	// ExitWait bounds how long gopls may take to exit once the client
	// has said exit or closed the connection; zero means 10s.
	ExitWait time.Duration
}

// GuardEnv is set in gopls's environment: a ctrllint gopls that finds it
// set was started by one, so "gopls" led back to ctrllint.
const GuardEnv = "CTRLLINT_GOPLS_PROXY"

// shutdownID is the id of the shutdown request the proxy sends gopls when
// the client goes away without one; no client request has it (they are
// the client's, and its answer is not forwarded).
const shutdownID = `"ctrllint-gopls-shutdown"`

// Run starts gopls and proxies between it and the client (in and out)
// until gopls ends, and returns the exit status: 0 if the client asked for
// shutdown (and gopls did not refuse it) before it said exit or closed the
// connection, 1 if it did not, or if gopls ended by itself (after telling
// the client), 2 if gopls could not be started.
func Run(ctx context.Context, in io.ReadCloser, out io.Writer, opts Options) int {
	if opts.ExitWait <= 0 {
		opts.ExitWait = 10 * time.Second
	}
	cmd := exec.Command(opts.Gopls, opts.Args...)
	env := opts.Env
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(slices.Clip(env), GuardEnv+"=1")
	cmd.Stderr = opts.Stderr
	// gopls's children (the go command, which it runs in a process group
	// of its own) may hold its stderr open after it is gone: Wait would
	// wait for them to end before the proxy could exit.
	cmd.WaitDelay = 2 * time.Second
	toGopls, err := cmd.StdinPipe()
	if err != nil {
		fmt.Fprintf(opts.Stderr, "ctrllint gopls: %v\n", err)
		return 2
	}
	fromGopls, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintf(opts.Stderr, "ctrllint gopls: %v\n", err)
		return 2
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(opts.Stderr, "ctrllint gopls: starting gopls: %v\n", err)
		return 2
	}

	p := &proxy{
		out:     out,
		gopls:   toGopls,
		stderr:  opts.Stderr,
		pending: make(map[string]pending),
		merged:  newMerger(),
		ending:  make(chan struct{}),
	}
	p.analyzer = opts.Analyzer(ctx, p)

	goplsDone := make(chan struct{})
	clientDone := make(chan struct{})
	go func() {
		defer close(goplsDone)
		if err := p.fromGopls(lsp.NewFrameReader(fromGopls)); err != nil {
			// Its output is lost (a broken frame, or one over the size
			// limit): gopls would block writing the next.
			fmt.Fprintf(opts.Stderr, "ctrllint gopls: reading from gopls: %v\n", err)
			cmd.Process.Kill()
		}
	}()
	go func() {
		defer close(clientDone)
		p.fromClient(lsp.NewFrameReader(in))
	}()

	// gopls ends after the client's exit, after the proxy's own shutdown
	// and exit when the client goes away, when it is killed, or by itself.
	var timeout <-chan time.Time
	ending := p.ending
	done := ctx.Done()
wait:
	for {
		select {
		case <-goplsDone:
			break wait
		case <-ending:
			ending = nil
			timeout = time.After(opts.ExitWait)
		case <-timeout:
			fmt.Fprintf(opts.Stderr, "ctrllint gopls: gopls did not exit within %v; killing it\n", opts.ExitWait)
			cmd.Process.Kill()
			timeout = nil
		case <-done:
			done = nil
			cmd.Process.Kill()
		}
	}
	waitErr := cmd.Wait()
	p.analyzer.Shutdown()

	p.mu.Lock()
	shutdown, ended := p.shutdown, p.ended
	p.mu.Unlock()
	code := 1
	switch {
	case ctx.Err() != nil:
	case !ended:
		status := "exit status 0"
		if waitErr != nil {
			status = waitErr.Error()
		}
		msg := fmt.Sprintf("gopls exited unexpectedly (%s); ctrllint gopls exits too, so that the editor restarts it", status)
		fmt.Fprintf(opts.Stderr, "ctrllint gopls: %s\n", msg)
		p.notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeError, Message: msg})
	case shutdown:
		code = 0
	}
	// The client's reader may still be blocked reading from the client.
	in.Close()
	select {
	case <-clientDone:
	case <-time.After(100 * time.Millisecond):
	}
	return code
}

// proxy is one session between the client and gopls.
type proxy struct {
	analyzer Analyzer
	stderr   io.Writer

	outMu    sync.Mutex // one message at a time to the client
	out      io.Writer
	lostOnce sync.Once // the client's output failed: gopls is ended once

	goplsMu sync.Mutex // one message at a time to gopls
	gopls   io.WriteCloser

	merged *merger

	mu          sync.Mutex
	pending     map[string]pending // the client's requests whose answers are merged, by id
	initID      string             // the id (idKey) of the client's initialize, "" before it
	initialized bool               // gopls answered it with a result
	shutdownID  string             // the id (idKey) of the client's shutdown, "" before it or if refused
	shutdown    bool               // gopls answered it with a result
	ended       bool               // the client said exit or went away: gopls is to end
	ending      chan struct{}      // closed when ended is set
}

// pending is a client request whose answer gets ctrllint's part.
type pending struct {
	method string
	params json.RawMessage
}

// message is what the proxy reads of every message: enough to tell
// requests, notifications and responses apart.
type message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

// fromClient passes the client's messages to gopls and tells the analyzer
// of the documents'.
func (p *proxy) fromClient(r *lsp.FrameReader) {
	for {
		body, err := r.Read()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				fmt.Fprintf(p.stderr, "ctrllint gopls: reading from the client: %v\n", err)
			}
			p.clientGone()
			return
		}
		var m message
		if json.Unmarshal(body, &m) != nil {
			p.toGopls(body) // gopls answers it
			continue
		}
		switch {
		case m.Method == "initialize" && m.ID != nil:
			p.mu.Lock()
			if !p.initialized {
				p.initID = idKey(m.ID)
			}
			p.mu.Unlock()
		case m.Method == "shutdown" && m.ID != nil:
			p.mu.Lock()
			p.shutdownID = idKey(m.ID)
			p.mu.Unlock()
		case (m.Method == "textDocument/codeAction" || m.Method == "textDocument/diagnostic") && m.ID != nil:
			p.mu.Lock()
			p.pending[idKey(m.ID)] = pending{method: m.Method, params: m.Params}
			p.mu.Unlock()
		}
		p.toGopls(body)
		if m.ID == nil {
			if m.Method == "exit" {
				p.end()
				return
			}
			// As LSP asks of a server, ctrllint's side drops
			// notifications before initialize (gopls answers the
			// client's requests then). Its own, from an analysis the
			// notification would start, would reach the client before
			// the InitializeResult, which LSP does not allow either.
			p.mu.Lock()
			initialized := p.initialized
			p.mu.Unlock()
			if initialized {
				p.observe(m.Method, m.Params)
			}
		}
	}
}

// observe tells the analyzer of a document notification.
func (p *proxy) observe(method string, params json.RawMessage) {
	var err error
	switch method {
	case "textDocument/didOpen":
		var v protocol.DidOpenTextDocumentParams
		if err = protocol.Unmarshal(params, &v); err == nil {
			p.analyzer.DidOpen(&v)
		}
	case "textDocument/didChange":
		var v protocol.DidChangeTextDocumentParams
		if err = protocol.Unmarshal(params, &v); err == nil {
			p.analyzer.DidChange(&v)
		}
	case "textDocument/didSave":
		var v protocol.DidSaveTextDocumentParams
		if err = protocol.Unmarshal(params, &v); err == nil {
			p.analyzer.DidSave(&v)
		}
	case "textDocument/didClose":
		var v protocol.DidCloseTextDocumentParams
		if err = protocol.Unmarshal(params, &v); err == nil {
			p.analyzer.DidClose(&v)
		}
	}
	if err != nil {
		fmt.Fprintf(p.stderr, "ctrllint gopls: ctrllint ignores a %s it cannot read: %v\n", method, err)
	}
}

// clientGone ends gopls when the client closed the connection without
// exit: shutdown (unless the client asked for it) and exit, as a client
// would, then end of input.
func (p *proxy) clientGone() {
	p.mu.Lock()
	shutdown := p.shutdown || p.shutdownID != ""
	p.mu.Unlock()
	if !shutdown {
		p.toGopls([]byte(`{"jsonrpc":"2.0","id":` + shutdownID + `,"method":"shutdown"}`))
	}
	p.toGopls([]byte(`{"jsonrpc":"2.0","method":"exit"}`))
	p.end()
}

// end records that gopls is to exit now, and closes its input.
func (p *proxy) end() {
	p.mu.Lock()
	if !p.ended {
		p.ended = true
		close(p.ending)
	}
	p.mu.Unlock()
	p.goplsMu.Lock()
	p.gopls.Close()
	p.goplsMu.Unlock()
}

// fromGopls passes gopls's messages to the client, with ctrllint's merged
// into the three that carry diagnostics and fixes, until gopls's output
// ends (nil) or cannot be read.
func (p *proxy) fromGopls(r *lsp.FrameReader) error {
	for {
		body, err := r.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		var m message
		if json.Unmarshal(body, &m) != nil {
			p.toClient(body)
			continue
		}
		switch {
		case m.Method == "textDocument/publishDiagnostics" && m.ID == nil:
			p.merged.gopls(m.Params, body, p.toClient)
			continue
		case m.Method == "" && m.ID != nil:
			if string(m.ID) == shutdownID {
				continue // the proxy's own, the client is gone
			}
			key := idKey(m.ID)
			p.mu.Lock()
			req, ok := p.pending[key]
			delete(p.pending, key)
			// The client's initialize and shutdown count once gopls has
			// answered them with a result, before the client hears of
			// it: LSP's lifecycle is gopls's, and a refused shutdown
			// (before initialize, say) is none, for the exit status too.
			if key == p.initID && m.Error == nil && m.Result != nil {
				p.initialized = true
			}
			shutdown := key == p.shutdownID && m.Error == nil && m.Result != nil
			switch {
			case shutdown:
				p.shutdown = true
			case key == p.shutdownID:
				p.shutdownID = ""
			}
			p.mu.Unlock()
			if shutdown {
				// Nothing of ctrllint's follows the reply. Waiting here
				// rather than in fromClient keeps the client's messages
				// flowing while the analyses stop.
				p.analyzer.Shutdown()
			}
			if ok && m.Error == nil {
				if merged, ok := p.answer(req, m); ok {
					body = merged
				}
			}
		}
		p.toClient(body)
	}
}

// answer adds ctrllint's part to gopls's answer to req; false leaves the
// answer as it is.
func (p *proxy) answer(req pending, m message) ([]byte, bool) {
	var result json.RawMessage
	var err error
	switch req.method {
	case "textDocument/codeAction":
		result, err = p.codeActions(req.params, m.Result)
	case "textDocument/diagnostic":
		result, err = p.pulled(req.params, m.Result)
	}
	if err != nil {
		fmt.Fprintf(p.stderr, "ctrllint gopls: %s: gopls's answer left as it is: %v\n", req.method, err)
		return nil, false
	}
	if result == nil {
		return nil, false
	}
	// A response of the proxy's own: gopls's id as gopls wrote it (the
	// client's, as the client wrote it) and a result, with no error.
	b := make([]byte, 0, len(m.ID)+len(result)+32)
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, m.ID...)
	b = append(b, `,"result":`...)
	b = append(b, result...)
	return append(b, '}'), true
}

// codeActions is gopls's list of code actions (null or a list) with
// ctrllint's quick fixes added; nil if it has none.
func (p *proxy) codeActions(params, result json.RawMessage) (json.RawMessage, error) {
	var req protocol.CodeActionParams
	if err := protocol.Unmarshal(params, &req); err != nil {
		return nil, err
	}
	ours, err := p.analyzer.CodeAction(&req)
	if err != nil || len(ours) == 0 {
		return nil, err
	}
	var list []json.RawMessage
	if len(result) > 0 && string(result) != "null" {
		if err := json.Unmarshal(result, &list); err != nil {
			return nil, err
		}
	}
	for _, a := range ours {
		b, err := protocol.Marshal(a)
		if err != nil {
			return nil, err
		}
		list = append(list, b)
	}
	return json.Marshal(list)
}

// pulled is gopls's full document diagnostic report with ctrllint's
// items added; nil if ctrllint has none or the report is "unchanged".
func (p *proxy) pulled(params, result json.RawMessage) (json.RawMessage, error) {
	var req struct {
		TextDocument struct {
			URI uri.URI `json:"uri"`
		} `json:"textDocument"`
	}
	if err := json.Unmarshal(params, &req); err != nil {
		return nil, err
	}
	ours := p.analyzer.Diagnostics(req.TextDocument.URI)
	if len(ours) == 0 {
		return nil, nil
	}
	var report map[string]json.RawMessage
	if err := json.Unmarshal(result, &report); err != nil {
		return nil, err
	}
	switch string(report["kind"]) {
	case `"unchanged"`:
		return nil, nil // gopls does not send it; nothing to add to
	case `"full"`:
	default:
		// gopls v0.23 sends "" for its full reports.
		report["kind"] = json.RawMessage(`"full"`)
	}
	var items []json.RawMessage
	if raw := report["items"]; len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &items); err != nil {
			return nil, err
		}
	}
	for _, d := range ours {
		b, err := protocol.Marshal(d)
		if err != nil {
			return nil, err
		}
		items = append(items, b)
	}
	var err error
	if report["items"], err = json.Marshal(items); err != nil {
		return nil, err
	}
	return json.Marshal(report)
}

// idKey is a request id as a map key: a number and a string that read
// the same are different ids.
func idKey(id json.RawMessage) string {
	var v any
	if json.Unmarshal(id, &v) != nil {
		return string(id)
	}
	switch v := v.(type) {
	case string:
		return "s" + v
	case float64:
		return "n" + strconv.FormatFloat(v, 'g', -1, 64)
	}
	return string(id)
}

// toGopls writes one message to gopls. Failures show when gopls's output
// ends.
func (p *proxy) toGopls(body []byte) {
	p.goplsMu.Lock()
	defer p.goplsMu.Unlock()
	writeFrame(p.gopls, body)
}

// toClient writes one message to the client. A client gone is noticed
// by its reader, or here: a client that closed only the proxy's output
// (ctrllint ignores SIGPIPE in a server) would otherwise leave gopls and
// the proxy running for nobody.
func (p *proxy) toClient(body []byte) {
	p.outMu.Lock()
	err := writeFrame(p.out, body)
	p.outMu.Unlock()
	if err != nil {
		p.lostOnce.Do(func() {
			fmt.Fprintf(p.stderr, "ctrllint gopls: writing to the client: %v\n", err)
			p.clientGone()
		})
	}
}

func writeFrame(w io.Writer, body []byte) error {
	frame := make([]byte, 0, len(body)+32)
	frame = fmt.Appendf(frame, "Content-Length: %d\r\n\r\n", len(body))
	frame = append(frame, body...)
	_, err := w.Write(frame)
	return err
}

// notify sends the client a notification of the proxy's own.
func (p *proxy) notify(method string, params any) {
	raw, err := protocol.Marshal(params)
	if err != nil {
		fmt.Fprintf(p.stderr, "ctrllint gopls: %s: %v\n", method, err)
		return
	}
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		Method  string          `json:"method"`
		Params  json.RawMessage `json:"params"`
	}{"2.0", method, raw})
	if err == nil {
		p.toClient(b)
	}
}

// Publish, Show and Log make the proxy the analyzer's lsp.Client.

func (p *proxy) Publish(ctx context.Context, u uri.URI, diags []protocol.Diagnostic) error {
	return p.merged.ctrllint(u, diags, p.toClient)
}

func (p *proxy) Show(ctx context.Context, typ protocol.MessageType, msg string) error {
	p.notify("window/showMessage", protocol.ShowMessageParams{Type: typ, Message: msg})
	return nil
}

func (p *proxy) Log(ctx context.Context, msg string) error {
	p.notify("window/logMessage", protocol.LogMessageParams{Type: protocol.MessageTypeLog, Message: msg})
	return nil
}
