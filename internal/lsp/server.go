// Package lsp is ctrllint's language server (`ctrllint lsp`): editors run it
// over stdio beside gopls, which cannot load third-party analyzers, to show
// ctrllint's findings inline and offer its suggested fixes as quick fixes.
//
// The server analyses whole packages, as the command does, from the files on
// disk: a package is analysed when one of its files is opened or saved, and
// diagnostics are published for every file of the package. Unsaved edits
// are not analysed; while a document has them, no quick fixes are offered
// for it, since their offsets would no longer fit.
//
// The analysis is an Engine (engine.go, analyze.go): told which documents
// are opened, edited, saved and closed, it publishes diagnostics and
// answers for quick fixes. Serve puts it behind ctrllint's own server; the
// gopls proxy (internal/goplsproxy) puts it beside gopls.
//
// It is built on go.lsp.dev/protocol (the LSP types, generated from the
// specification's meta-model) and go.lsp.dev/jsonrpc2 (the transport), but
// reads its messages itself (transport.go).
package lsp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/internal/finding"
)

// source is the Diagnostic.source of every diagnostic.
const source = "ctrllint"

// Options configure the server.
type Options struct {
	Analyzers []*analysis.Analyzer
	// DocURL returns the documentation page of an analyzer (the
	// diagnostics' codeDescription); nil or "" means none.
	DocURL func(analyzer string) string
	// WholePackages are the dependencies whose scopes the analyzers read
	// (driver.Config's WholePackages): the editor must see what the
	// command sees there.
	WholePackages []string
	Tags          []string // build tags
	Tests         bool     // analyse _test.go files too
	Env           []string // the go command's environment; nil means os.Environ()
	// ExportDir is where dependencies type-checked from source keep
	// their export data (driver.Config's ExportDir); "" means nowhere.
	ExportDir string
	// Debounce is how long a package must go without another open or
	// save before it is analysed. Zero means 50ms.
	Debounce time.Duration
	Version  string    // reported in serverInfo
	Log      io.Writer // the server's own log (stderr); nil discards
	// Settings, if set, gives the settings for the package in a
	// directory (its configuration file's, as a command run there would
	// read them); nil means Analyzers, every finding, warnings. An error
	// is shown for the package, which is then not analysed: settings
	// the user got wrong must not silently become others.
	Settings func(dir string) (Settings, error)
}

// Settings are what a configuration file decides for a package.
type Settings struct {
	Analyzers []*analysis.Analyzer
	// Keep reports whether a finding is published (exclude-paths); nil
	// keeps every one.
	Keep func(finding.Finding) bool
	// Severity is an analyzer's findings' severity: "error", "warning" or
	// "note"; nil means warning.
	Severity func(analyzer string) string
}

// closeWait bounds how long Serve waits for the connection to wind down
// after exit. Over a pipe it ends at once. Over stdio the read goroutine
// stays blocked in a read of standard input until the client closes it,
// which need not happen before the process exits (and editors wait for
// the process); every reply has been written by then.
const closeWait = 100 * time.Millisecond

// Serve runs the server on rwc (standard input and output, or a pipe in
// tests) until the client sends exit or closes the connection, and returns
// the process's exit status: 0 after a shutdown request, 1 otherwise, as
// the specification asks.
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opts Options) int {
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	s := &server{log: opts.Log, version: opts.Version, exit: make(chan struct{})}
	st := newStream(rwc)
	conn := jsonrpc2.NewConn(st, jsonrpc2.WithCodec(Codec{}))
	s.client = protocol.ClientDispatcher(conn)
	s.engine = NewEngine(ctx, opts, clientOf{s.client})
	defer s.engine.Shutdown()
	st.log = s.logf
	conn.Go(ctx, s.handler())

	select {
	case <-s.exit:
	case <-conn.Done():
		if err := conn.Err(); err != nil {
			fmt.Fprintf(opts.Log, "reading from the client: %v\n", err)
		} else if ctx.Err() == nil {
			fmt.Fprintln(opts.Log, "the client closed the connection without the exit notification")
		}
	case <-ctx.Done():
	}
	s.engine.Shutdown()
	s.mu.Lock()
	shutdown := s.state == stateShutdown
	s.mu.Unlock()

	closed := make(chan struct{})
	go func() {
		conn.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(closeWait):
	}
	if shutdown {
		return 0
	}
	return 1
}

// server implements the LSP requests and notifications ctrllint supports
// on top of an Engine; UnimplementedServer answers the others.
type server struct {
	protocol.UnimplementedServer

	engine  *Engine
	client  protocol.Client
	log     io.Writer
	version string

	exit     chan struct{} // closed by the exit notification
	exitOnce sync.Once

	mu    sync.Mutex
	state state
}

// state is where the server is in LSP's lifecycle.
type state int

const (
	stateNew         state = iota // before initialize
	stateInitialized              // initialize answered
	stateShutdown                 // shutdown requested
)

// clientOf is the engine's Client over the protocol's client.
type clientOf struct{ c protocol.Client }

func (c clientOf) Publish(ctx context.Context, u uri.URI, diags []protocol.Diagnostic) error {
	return c.c.PublishDiagnostics(ctx, &protocol.PublishDiagnosticsParams{URI: u, Diagnostics: diags})
}

func (c clientOf) Show(ctx context.Context, typ protocol.MessageType, msg string) error {
	return errors.Join(
		c.c.LogMessage(ctx, &protocol.LogMessageParams{Type: typ, Message: msg}),
		c.c.ShowMessage(ctx, &protocol.ShowMessageParams{Type: typ, Message: msg}))
}

func (c clientOf) Log(ctx context.Context, msg string) error {
	return c.c.LogMessage(ctx, &protocol.LogMessageParams{Type: protocol.MessageTypeLog, Message: msg})
}

// Codec encodes LSP payloads with the protocol package's encoder, which
// knows the protocol's union types; payloads already encoded pass through.
// Clients of the server (tests, the benchmark) use it too.
type Codec struct{}

func (Codec) Marshal(v any) ([]byte, error) {
	if raw, ok := v.(jsonrpc2.RawMessage); ok {
		if raw == nil {
			return []byte("null"), nil
		}
		return raw, nil
	}
	return protocol.Marshal(v)
}

func (Codec) Unmarshal(data []byte, v any) error {
	if raw, ok := v.(*jsonrpc2.RawMessage); ok {
		*raw = append(jsonrpc2.RawMessage(nil), data...)
		return nil
	}
	return protocol.Unmarshal(data, v)
}

// requests and notifications are the methods the server implements;
// requests maps each to a check of its params (nil: it has none, and any
// sent are ignored, as the protocol package's handler does). Every other
// request is answered with -32601 (method not found), whatever its params,
// and every other notification is dropped: what LSP asks for methods
// beginning with "$/", and what JSON-RPC asks for any other the server
// does not have.
//
// $/cancelRequest is among the dropped: requests are handled one at a
// time as they are read (below), so the notification is read only after
// the request it names has been answered, and there is nothing left to
// cancel. For the same reason no request fails with ContentModified: a
// request sees every edit sent before it, and no edit comes while it runs.
var (
	requests = map[string]func(jsonrpc2.RawMessage) error{
		protocol.MethodInitialize:             decodes[protocol.InitializeParams],
		protocol.MethodShutdown:               nil,
		protocol.MethodTextDocumentCodeAction: decodes[protocol.CodeActionParams],
	}
	notifications = map[string]bool{
		protocol.MethodInitialized:           true,
		protocol.MethodExit:                  true,
		protocol.MethodTextDocumentDidOpen:   true,
		protocol.MethodTextDocumentDidChange: true,
		protocol.MethodTextDocumentDidSave:   true,
		protocol.MethodTextDocumentDidClose:  true,
	}
)

// decodes checks that params decode as a T.
func decodes[T any](params jsonrpc2.RawMessage) error {
	var v T
	return protocol.Unmarshal(params, &v)
}

// handler dispatches messages to s one at a time, in the order they
// arrive: every handler is quick (analysis runs in the package workers),
// and handling a didChange, didSave and codeAction in order is what keeps
// quick fixes from being offered for text they no longer fit.
//
// A request the stream let through (it refuses what is no request at
// all) is checked first as JSON-RPC asks, then against LSP 3.17's
// lifecycle: the first errors say the request is wrong whenever it comes,
// the others that it came at the wrong time.
//
//   - A method the server does not implement gets -32601
//     (MethodNotFound), whatever its params.
//   - Params that do not decode get -32602 (InvalidParams).
//   - Before initialize, a request other than initialize gets -32002
//     (ServerNotInitialized).
//   - After shutdown, every request gets -32600 (InvalidRequest).
//   - A second initialize gets -32600: the specification says it may be
//     sent only once but names no code; -32600 is gopls's answer.
//   - A request that fails otherwise gets its error's code, or -32603
//     (InternalError) for an error without one.
//
// A notification is dropped before initialize and after shutdown (exit
// excepted), or if the server does not implement it. A notification
// handler's error would close the connection, so errors from
// notifications (params that do not decode) are logged instead.
func (s *server) handler() jsonrpc2.Handler {
	h := protocol.ServerHandler(s, nil)
	return func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		method := req.Method()
		s.mu.Lock()
		state := s.state
		s.mu.Unlock()
		if !req.IsCall() {
			switch {
			case method == protocol.MethodExit:
			case state == stateNew:
				s.logf("dropped a %s notification: it came before initialize", method)
				return nil, nil
			case state == stateShutdown || !notifications[method]:
				return nil, nil
			}
			if _, err := h(ctx, req); err != nil {
				s.logf("ignoring notification %s: %v", method, err)
			}
			return nil, nil
		}

		check, known := requests[method]
		var paramsErr error
		if check != nil {
			paramsErr = check(req.Params())
		}
		var refused *jsonrpc2.Error
		switch {
		case !known:
			refused = jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not found: %s", method)
		case paramsErr != nil:
			return nil, s.invalidParams(method, paramsErr)
		case state == stateNew && method != protocol.MethodInitialize:
			refused = jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "the server is not initialized: initialize comes first")
		case state == stateShutdown:
			refused = jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is shutting down: shutdown was requested")
		case method == protocol.MethodInitialize && state == stateInitialized:
			refused = jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is already initialized: initialize may be sent only once")
		}
		if refused != nil {
			s.logf("refused a %s request: %s", method, refused.Message)
			return nil, refused
		}

		res, err := h(ctx, req)
		var coded *jsonrpc2.Error
		switch {
		case err == nil:
			return res, nil
		case errors.Is(err, jsonrpc2.ErrParse):
			return nil, s.invalidParams(method, err)
		case !errors.As(err, &coded):
			return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "%s: %v", method, err)
		}
		return nil, err
	}
}

// invalidParams is the answer to a request whose params do not decode.
func (s *server) invalidParams(method string, err error) error {
	// The protocol package wraps its decoding errors in ErrParse; the
	// message itself was JSON, or the stream would have answered it.
	detail := strings.TrimPrefix(err.Error(), jsonrpc2.ErrParse.Error()+": ")
	s.logf("refused a %s request: invalid params: %s", method, detail)
	return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params for %s: %s", method, detail)
}

func (s *server) Initialize(ctx context.Context, params *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	yes, no := true, false
	change := protocol.TextDocumentSyncKindIncremental // document.apply keeps the text
	res := &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			PositionEncoding: protocol.PositionEncodingKindUTF16,
			TextDocumentSync: &protocol.TextDocumentSyncOptions{
				OpenClose: &yes,
				Change:    &change,
				Save:      &protocol.SaveOptions{IncludeText: &no},
			},
			CodeActionProvider: &protocol.CodeActionOptions{
				CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix},
			},
		},
		ServerInfo: protocol.ServerInfo{Name: "ctrllint", Version: protocol.NewOptional(s.version)},
	}
	s.mu.Lock()
	s.state = stateInitialized
	s.mu.Unlock()
	return res, nil
}

func (s *server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.state = stateShutdown
	s.mu.Unlock()
	// Nothing is published after the reply.
	s.engine.Shutdown()
	return nil
}

func (s *server) Exit(ctx context.Context) error {
	s.exitOnce.Do(func() { close(s.exit) })
	return nil
}

func (s *server) DidOpen(ctx context.Context, params *protocol.DidOpenTextDocumentParams) error {
	s.engine.DidOpen(params)
	return nil
}

func (s *server) DidChange(ctx context.Context, params *protocol.DidChangeTextDocumentParams) error {
	s.engine.DidChange(params)
	return nil
}

func (s *server) DidSave(ctx context.Context, params *protocol.DidSaveTextDocumentParams) error {
	s.engine.DidSave(params)
	return nil
}

func (s *server) DidClose(ctx context.Context, params *protocol.DidCloseTextDocumentParams) error {
	s.engine.DidClose(params)
	return nil
}

func (s *server) CodeAction(ctx context.Context, params *protocol.CodeActionParams) ([]protocol.CommandOrCodeAction, error) {
	res, err := s.engine.CodeAction(params)
	if errors.Is(err, errShutdown) {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, err.Error())
	}
	return res, err
}

// logf logs to the server's log and, once initialize is answered, to the
// client's (window/logMessage): before it, LSP allows the server no
// notification.
func (s *server) logf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintln(s.log, msg)
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	if state == stateNew {
		return
	}
	s.client.LogMessage(context.Background(), &protocol.LogMessageParams{Type: protocol.MessageTypeLog, Message: msg})
}
