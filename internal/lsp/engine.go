package lsp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// Client is where an Engine's results go: the editor, through ctrllint's
// own server (Serve) or through the gopls proxy, which merges them into
// gopls's.
type Client interface {
	// Publish replaces the diagnostics of one document (an empty list
	// clears them), as textDocument/publishDiagnostics does.
	Publish(ctx context.Context, u uri.URI, diags []protocol.Diagnostic) error
	// Show tells the user (window/showMessage); Log is for the editor's
	// log of the server (window/logMessage). The engine writes both to
	// Options.Log as well.
	Show(ctx context.Context, typ protocol.MessageType, msg string) error
	Log(ctx context.Context, msg string) error
}

// Engine is ctrllint's analysis behind an editor: it is told which
// documents are opened, edited, saved and closed, analyses their
// packages, publishes the diagnostics of every file of them to its Client,
// and answers for the quick fixes at a range. Its methods are safe to call
// from any goroutine; they return at once (analysis runs in a goroutine
// per package).
type Engine struct {
	opts   Options
	client Client

	work     context.Context // analysis runs under it; canceled by Shutdown
	stopWork context.CancelFunc
	workers  sync.WaitGroup // one goroutine per package (pkgState.run)

	mu       sync.Mutex
	shutdown bool                 // Shutdown was called
	docs     map[string]*document // open documents, by file path
	pkgs     map[string]*pkgState // packages, by directory
}

// NewEngine returns an engine that publishes to client until ctx ends or
// Shutdown is called.
func NewEngine(ctx context.Context, opts Options, client Client) *Engine {
	if opts.Debounce <= 0 {
		opts.Debounce = 50 * time.Millisecond
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	e := &Engine{
		opts:   opts,
		client: client,
		docs:   make(map[string]*document),
		pkgs:   make(map[string]*pkgState),
	}
	e.work, e.stopWork = context.WithCancel(ctx)
	return e
}

// Shutdown stops every analysis and waits for them: nothing is published
// after it returns, and later calls do nothing.
func (s *Engine) Shutdown() {
	s.mu.Lock()
	s.shutdown = true
	s.mu.Unlock()
	s.stopWork()
	s.workers.Wait()
}

func (s *Engine) DidOpen(params *protocol.DidOpenTextDocumentParams) {
	path, ok := goFile(params.TextDocument.URI)
	if !ok {
		return
	}
	// Text that differs from the file (restored unsaved edits) is
	// analysed as it is in the editor, as after a didChange.
	s.mu.Lock()
	s.docs[path] = &document{uri: params.TextDocument.URI, version: params.TextDocument.Version, text: append([]byte{}, params.TextDocument.Text...)}
	s.mu.Unlock()
	s.schedule(filepath.Dir(path))
	s.scheduleImporters(filepath.Dir(path))
}

func (s *Engine) DidChange(params *protocol.DidChangeTextDocumentParams) {
	path, ok := goFile(params.TextDocument.URI)
	if !ok {
		return
	}
	s.mu.Lock()
	d := s.docs[path]
	if d == nil {
		s.mu.Unlock()
		return
	}
	d.version = params.TextDocument.Version
	err := d.apply(params.ContentChanges)
	if err != nil {
		// Our text is no longer the editor's: analysing it would
		// publish findings at the wrong places. Fall back to the disk
		// until the document is opened again.
		d.lost = true
	}
	s.mu.Unlock()
	if err != nil {
		s.show(protocol.MessageTypeError, "ctrllint lost track of the edits to %s (%v): it analyses the saved file until the document is reopened", path, err)
	}
	s.schedule(filepath.Dir(path))
	s.scheduleImporters(filepath.Dir(path))
}

func (s *Engine) DidSave(params *protocol.DidSaveTextDocumentParams) {
	path, ok := goFile(params.TextDocument.URI)
	if !ok {
		return
	}
	dir := filepath.Dir(path)
	s.schedule(dir)
	// The other open packages read this one's files from disk if they
	// import it: each runs again, loading if its dependencies' stamps
	// changed, else rechecking its own text in milliseconds.
	for _, other := range s.openDirs() {
		if other != dir {
			s.schedule(other)
		}
	}
}

// scheduleImporters asks for the open packages whose kept load depends on
// the package in dir to be analysed again: they are analysed with its
// unsaved text. (A package without a kept load sees it at its own next
// run, or at a save, which runs every open package.)
func (s *Engine) scheduleImporters(dir string) {
	s.mu.Lock()
	var dirs []string
	for d, p := range s.pkgs {
		if d != dir && p.dependsOn != nil && p.dependsOn(dir) {
			dirs = append(dirs, d)
		}
	}
	s.mu.Unlock()
	for _, d := range dirs {
		if s.isOpen(d) {
			s.schedule(d)
		}
	}
}

// openDirs lists the directories with an open document.
func (s *Engine) openDirs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var dirs []string
	for path := range s.docs {
		if d := filepath.Dir(path); !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// DidClose forgets the document. The package's worker clears its
// diagnostics once no file of the package is open: they would go stale,
// since closed files are not analysed again.
func (s *Engine) DidClose(params *protocol.DidCloseTextDocumentParams) {
	path, ok := goFile(params.TextDocument.URI)
	if !ok {
		return
	}
	s.mu.Lock()
	delete(s.docs, path)
	s.mu.Unlock()
	s.schedule(filepath.Dir(path))
	s.scheduleImporters(filepath.Dir(path)) // its unsaved text is gone
}

// errShutdown is CodeAction's answer after Shutdown.
var errShutdown = fmt.Errorf("the server is shutting down")

// CodeAction returns the suggested fixes of the diagnostics in the range
// as quick fixes, as long as the document and the files the fixes edit
// are still what was analysed.
func (s *Engine) CodeAction(params *protocol.CodeActionParams) ([]protocol.CommandOrCodeAction, error) {
	path, ok := goFile(params.TextDocument.URI)
	if !ok || !wantsQuickFix(params.Context.Only) {
		return nil, nil
	}
	s.mu.Lock()
	if s.shutdown {
		s.mu.Unlock()
		return nil, errShutdown
	}
	var fr *fileResult
	if p := s.pkgs[filepath.Dir(path)]; p != nil {
		fr = p.results[path]
	}
	if d := s.docs[path]; fr != nil && d != nil && (!fr.open || fr.version != d.version || d.lost) {
		// Edited since, or analysed from disk while the editor has other
		// text: the fixes' positions may be off.
		fr = nil
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
			if s.unchanged(a.files) {
				out = append(out, a.action)
			}
		}
	}
	return out, nil
}

// Diagnostics returns the diagnostics last published for the document at
// u (for pull diagnostics, textDocument/diagnostic).
func (s *Engine) Diagnostics(u uri.URI) []protocol.Diagnostic {
	path, ok := goFile(u)
	if !ok {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var fr *fileResult
	if p := s.pkgs[filepath.Dir(path)]; p != nil {
		fr = p.results[path]
	}
	if fr == nil {
		return nil
	}
	out := make([]protocol.Diagnostic, 0, len(fr.items))
	for _, it := range fr.items {
		out = append(out, it.diag)
	}
	return out
}

// unchanged reports whether every file still has the content it had when
// it was analysed: its editor's text if it is open, else the disk's.
func (s *Engine) unchanged(files map[string][]byte) bool {
	for path, content := range files {
		now, err := s.current(path)
		if err != nil || !bytes.Equal(now, content) {
			return false
		}
	}
	return true
}

// current is the content of the file at path as the user sees it: the
// editor's text if it is open (and tracked), else the disk's.
func (s *Engine) current(path string) ([]byte, error) {
	s.mu.Lock()
	var text []byte
	d := s.docs[path]
	if d != nil && !d.lost {
		text = d.text
	}
	s.mu.Unlock()
	if text != nil {
		return text, nil
	}
	return os.ReadFile(path)
}

// goFile returns the path of a Go source file named by a file: URI.
func goFile(u uri.URI) (string, bool) {
	if !u.IsFile() {
		return "", false
	}
	path := filepath.Clean(u.FsPath())
	return path, strings.HasSuffix(path, ".go")
}

// show tells the user and logs it too.
func (s *Engine) show(typ protocol.MessageType, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintln(s.opts.Log, msg)
	s.client.Show(s.work, typ, msg)
}

// logf logs to the client's log and the engine's.
func (s *Engine) logf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintln(s.opts.Log, msg)
	s.client.Log(s.work, msg)
}
