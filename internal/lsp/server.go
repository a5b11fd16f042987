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
// It is built on go.lsp.dev/protocol (the LSP types, generated from the
// specification's meta-model) and go.lsp.dev/jsonrpc2 (the transport), but
// reads its messages itself (transport.go).
package lsp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
	if opts.Debounce <= 0 {
		opts.Debounce = 50 * time.Millisecond
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	s := &server{
		opts: opts,
		exit: make(chan struct{}),
		docs: make(map[string]*document),
		pkgs: make(map[string]*pkgState),
	}
	s.work, s.stopWork = context.WithCancel(ctx)
	defer s.stopWork()

	st := newStream(rwc)
	conn := jsonrpc2.NewConn(st, jsonrpc2.WithCodec(Codec{}))
	s.client = protocol.ClientDispatcher(conn)
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
	s.mu.Lock()
	s.closing = true
	shutdown := s.shutdown
	s.mu.Unlock()
	s.stopWork()
	s.workers.Wait()

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

// server implements the LSP requests and notifications ctrllint supports;
// UnimplementedServer answers the others.
type server struct {
	protocol.UnimplementedServer

	opts   Options
	client protocol.Client

	work     context.Context // analysis runs under it; canceled by shutdown
	stopWork context.CancelFunc
	workers  sync.WaitGroup // one goroutine per package (pkgState.run)
	exit     chan struct{}  // closed by the exit notification
	exitOnce sync.Once

	mu       sync.Mutex
	shutdown bool                 // shutdown was requested
	closing  bool                 // Serve is returning
	docs     map[string]*document // open documents, by file path
	pkgs     map[string]*pkgState // packages, by directory
}

// document is an open document.
type document struct {
	uri   uri.URI // as the client names it
	dirty bool    // edited since it was last saved (or opened)
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

// handler dispatches messages to s one at a time, in the order they
// arrive: every handler is quick (analysis runs in the package workers),
// and handling a didChange, didSave and codeAction in order is what keeps
// quick fixes from being offered for text they no longer fit.
//
// A notification handler's error would close the connection, so errors
// from notifications (an unknown method, bad parameters) are logged
// instead.
func (s *server) handler() jsonrpc2.Handler {
	h := protocol.ServerHandler(s, nil)
	return func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		if req.IsCall() {
			res, err := h(ctx, req)
			if errors.Is(err, jsonrpc2.ErrParse) {
				// The protocol package's word for params that do not
				// decode; the message itself was JSON, or the stream
				// would have answered it.
				detail := strings.TrimPrefix(err.Error(), jsonrpc2.ErrParse.Error()+": ")
				s.logf("refused a %s request: invalid params: %s", req.Method(), detail)
				return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params for %s: %s", req.Method(), detail)
			}
			return res, err
		}
		if _, err := h(ctx, req); err != nil {
			s.logf("ignoring notification %s: %v", req.Method(), err)
		}
		return nil, nil
	}
}

func (s *server) Initialize(ctx context.Context, params *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	yes, no := true, false
	change := protocol.TextDocumentSyncKindIncremental // only to learn that a document has unsaved edits
	return &protocol.InitializeResult{
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
		ServerInfo: protocol.ServerInfo{Name: "ctrllint", Version: protocol.NewOptional(s.opts.Version)},
	}, nil
}

func (s *server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.shutdown = true
	s.mu.Unlock()
	// No worker starts after shutdown is set; wait for the running ones
	// so that nothing is published after the reply.
	s.stopWork()
	s.workers.Wait()
	return nil
}

func (s *server) Exit(ctx context.Context) error {
	s.exitOnce.Do(func() { close(s.exit) })
	return nil
}

func (s *server) DidOpen(ctx context.Context, params *protocol.DidOpenTextDocumentParams) error {
	path, ok := goFile(params.TextDocument.URI)
	if !ok {
		return nil
	}
	// A document opened with text that differs from the file (restored
	// unsaved edits) counts as edited.
	disk, err := os.ReadFile(path)
	dirty := err != nil || string(disk) != params.TextDocument.Text
	s.mu.Lock()
	s.docs[path] = &document{uri: params.TextDocument.URI, dirty: dirty}
	s.mu.Unlock()
	s.schedule(filepath.Dir(path))
	return nil
}

func (s *server) DidChange(ctx context.Context, params *protocol.DidChangeTextDocumentParams) error {
	path, ok := goFile(params.TextDocument.URI)
	if !ok {
		return nil
	}
	s.mu.Lock()
	if d := s.docs[path]; d != nil {
		d.dirty = true
	}
	s.mu.Unlock()
	return nil
}

func (s *server) DidSave(ctx context.Context, params *protocol.DidSaveTextDocumentParams) error {
	path, ok := goFile(params.TextDocument.URI)
	if !ok {
		return nil
	}
	s.mu.Lock()
	if d := s.docs[path]; d != nil {
		d.dirty = false
	}
	s.mu.Unlock()
	s.schedule(filepath.Dir(path))
	return nil
}

// DidClose forgets the document. The package's worker clears its
// diagnostics once no file of the package is open: they would go stale,
// since closed files are not analysed again.
func (s *server) DidClose(ctx context.Context, params *protocol.DidCloseTextDocumentParams) error {
	path, ok := goFile(params.TextDocument.URI)
	if !ok {
		return nil
	}
	s.mu.Lock()
	delete(s.docs, path)
	s.mu.Unlock()
	s.schedule(filepath.Dir(path))
	return nil
}

// CodeAction offers the suggested fixes of the diagnostics in the range as
// quick fixes, as long as the document and the files the fixes edit are
// still what was analysed.
func (s *server) CodeAction(ctx context.Context, params *protocol.CodeActionParams) ([]protocol.CommandOrCodeAction, error) {
	path, ok := goFile(params.TextDocument.URI)
	if !ok || !wantsQuickFix(params.Context.Only) {
		return nil, nil
	}
	s.mu.Lock()
	if s.shutdown {
		s.mu.Unlock()
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is shutting down")
	}
	var fr *fileResult
	if p := s.pkgs[filepath.Dir(path)]; p != nil {
		fr = p.results[path]
	}
	if d := s.docs[path]; d != nil && d.dirty {
		fr = nil // unsaved edits: the fixes' positions may be off
	}
	s.mu.Unlock()
	if fr == nil {
		return nil, nil
	}

	var out []protocol.CommandOrCodeAction
	for _, it := range fr.items {
		if !touches(it.diag.Range, params.Range) {
			continue
		}
		for _, a := range it.actions {
			if unchanged(a.files) {
				out = append(out, a.action)
			}
		}
	}
	return out, nil
}

// unchanged reports whether every file still has the content it had when
// it was analysed.
func unchanged(files map[string][]byte) bool {
	for path, content := range files {
		disk, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(disk, content) {
			return false
		}
	}
	return true
}

// goFile returns the path of a Go source file named by a file: URI.
func goFile(u uri.URI) (string, bool) {
	if !u.IsFile() {
		return "", false
	}
	path := filepath.Clean(u.FsPath())
	return path, strings.HasSuffix(path, ".go")
}

// show tells the user (window/showMessage) and logs it too.
func (s *server) show(typ protocol.MessageType, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintln(s.opts.Log, msg)
	s.client.LogMessage(s.work, &protocol.LogMessageParams{Type: typ, Message: msg})
	s.client.ShowMessage(s.work, &protocol.ShowMessageParams{Type: typ, Message: msg})
}

// logf logs to the client's log (window/logMessage) and the server's.
func (s *server) logf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintln(s.opts.Log, msg)
	s.client.LogMessage(s.work, &protocol.LogMessageParams{Type: protocol.MessageTypeLog, Message: msg})
}
