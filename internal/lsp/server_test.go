package lsp

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers"
	"github.com/ctrllint/ctrllint/analyzers/suppression"
	"github.com/ctrllint/ctrllint/internal/finding"
	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

// The server is driven in process over a pipe by the protocol library's
// client side: the same encoder, framing and dispatch an editor's messages
// go through, without an editor. hack/lsp drives the real binary from
// Neovim.

// fixture copies the current fixture module's go.mod and go.sum and the
// tombstonefix package (files with findings that have fixes, and their
// .golden files) to a temporary directory, and returns the package's
// directory there.
func fixture(t *testing.T) string {
	return testanalyzers.FixtureModule(t, "tombstonefix", nil)
}

// testEnv loads fixtures from the module cache only (make testdata fills it).
var testEnv = append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=mod", "GOWORK=off")

func testOptions() Options {
	return Options{
		Analyzers: analyzers.All(),
		DocURL:    analyzers.DocURL,
		Tests:     true,
		Env:       testEnv,
		Debounce:  10 * time.Millisecond,
		Version:   "test",
	}
}

// client records what the server sends.
type client struct {
	protocol.UnimplementedClient

	mu        sync.Mutex
	changed   chan struct{} // signalled after every notification
	diags     map[uri.URI][]protocol.Diagnostic
	published map[uri.URI]int // publications per document
	lastAt    map[uri.URI]time.Time
	shown     []protocol.ShowMessageParams
	logged    []string
}

func (c *client) PublishDiagnostics(ctx context.Context, p *protocol.PublishDiagnosticsParams) error {
	c.mu.Lock()
	c.diags[p.URI] = p.Diagnostics
	c.published[p.URI]++
	c.lastAt[p.URI] = time.Now()
	c.mu.Unlock()
	c.signal()
	return nil
}

func (c *client) ShowMessage(ctx context.Context, p *protocol.ShowMessageParams) error {
	c.mu.Lock()
	c.shown = append(c.shown, *p)
	c.mu.Unlock()
	c.signal()
	return nil
}

func (c *client) LogMessage(ctx context.Context, p *protocol.LogMessageParams) error {
	c.mu.Lock()
	c.logged = append(c.logged, p.Message)
	c.mu.Unlock()
	c.signal()
	return nil
}

func (c *client) signal() {
	select {
	case c.changed <- struct{}{}:
	default:
	}
}

// await waits up to a minute (a cold module cache is slow) for cond,
// which is called with c.mu held.
func (c *client) await(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(time.Minute)
	for {
		c.mu.Lock()
		ok := cond()
		c.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-c.changed:
		case <-deadline:
			c.mu.Lock()
			defer c.mu.Unlock()
			t.Fatalf("timed out waiting for %s; shown %v; logged:\n%s", what, c.shown, strings.Join(c.logged, "\n"))
		}
	}
}

// session is a server running in process and a client connected to it.
type session struct {
	server protocol.Server
	client *client
	conn   jsonrpc2.Conn
	exit   chan int // Serve's result

	versions map[uri.URI]int32 // of each document, as the client's
}

func start(t *testing.T, opts Options) *session {
	t.Helper()
	serverEnd, clientEnd := net.Pipe()
	s := &session{
		client: &client{
			changed:   make(chan struct{}, 1),
			diags:     make(map[uri.URI][]protocol.Diagnostic),
			published: make(map[uri.URI]int),
			lastAt:    make(map[uri.URI]time.Time),
		},
		exit:     make(chan int, 1),
		versions: make(map[uri.URI]int32),
	}
	go func() { s.exit <- Serve(context.Background(), serverEnd, opts) }()
	s.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(clientEnd), jsonrpc2.WithCodec(Codec{}))
	s.conn.Go(context.Background(), protocol.ClientHandler(s.client, jsonrpc2.MethodNotFoundHandler))
	s.server = protocol.ServerDispatcher(s.conn)
	t.Cleanup(func() { s.conn.Close() })
	return s
}

func (s *session) initialize(t *testing.T, root string) *protocol.InitializeResult {
	t.Helper()
	ctx := context.Background()
	rootURI := uri.File(root)
	res, err := s.server.Initialize(ctx, &protocol.InitializeParams{RootURI: &rootURI})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.server.Initialized(ctx, &protocol.InitializedParams{}); err != nil {
		t.Fatal(err)
	}
	return res
}

func (s *session) open(t *testing.T, path string) uri.URI {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	u := uri.File(path)
	s.versions[u] = 1
	err = s.server.DidOpen(context.Background(), &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: "go", Version: 1, Text: string(text),
	}})
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// change sends a didChange of the document at u with the next version
// and returns the version.
func (s *session) change(t *testing.T, u uri.URI, changes ...protocol.TextDocumentContentChangeEvent) int32 {
	t.Helper()
	s.versions[u]++
	err := s.server.DidChange(context.Background(), &protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: s.versions[u]},
		ContentChanges: changes,
	})
	if err != nil {
		t.Fatal(err)
	}
	return s.versions[u]
}

// save writes text to the file behind u, as an editor saving a buffer
// does: a didChange for the edit, then a didSave. It returns the time of
// the didSave.
func (s *session) save(t *testing.T, u uri.URI, text string) time.Time {
	t.Helper()
	ctx := context.Background()
	s.change(t, u, &protocol.TextDocumentContentChangeWholeDocument{Text: text})
	if err := os.WriteFile(u.FsPath(), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	at := time.Now()
	if err := s.server.DidSave(ctx, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}); err != nil {
		t.Fatal(err)
	}
	return at
}

func (s *session) codeActions(t *testing.T, u uri.URI, d protocol.Diagnostic) []*protocol.CodeAction {
	t.Helper()
	res, err := s.server.CodeAction(context.Background(), &protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Range:        protocol.Range{Start: d.Range.Start, End: d.Range.Start},
		Context:      protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{d}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []*protocol.CodeAction
	for _, r := range res {
		ca, ok := r.(*protocol.CodeAction)
		if !ok {
			t.Fatalf("code action result %T", r)
		}
		out = append(out, ca)
	}
	return out
}

// stop shuts the server down and checks its exit status and that it left
// no goroutine behind.
func (s *session) stop(t *testing.T, shutdown bool, want int) {
	t.Helper()
	ctx := context.Background()
	if shutdown {
		if err := s.server.Shutdown(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.server.Exit(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-s.exit:
		if code != want {
			t.Errorf("exit status %d, want %d", code, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after exit")
	}
	s.conn.Close()
	noLeaks(t)
}

// noLeaks fails if a goroutine of the server or of the protocol library
// is still running.
func noLeaks(t *testing.T) {
	t.Helper()
	testanalyzers.NoLeaks(t, "go.lsp.dev/", "internal/lsp.(*server)", "internal/lsp.(*Engine)", "internal/lsp.Serve")
}

func TestServer(t *testing.T) {
	dir := fixture(t)
	s := start(t, testOptions())
	c := s.client

	res := s.initialize(t, filepath.Dir(dir))
	if opts, ok := res.Capabilities.CodeActionProvider.(*protocol.CodeActionOptions); !ok || !slices.Equal(opts.CodeActionKinds, []protocol.CodeActionKind{protocol.CodeActionKindQuickFix}) {
		t.Errorf("codeActionProvider %#v", res.Capabilities.CodeActionProvider)
	}
	if sync, ok := res.Capabilities.TextDocumentSync.(*protocol.TextDocumentSyncOptions); !ok || sync.OpenClose == nil || !*sync.OpenClose || sync.Save == nil {
		t.Errorf("textDocumentSync %#v", res.Capabilities.TextDocumentSync)
	}

	// Opening a file analyses its package and publishes every file's
	// diagnostics.
	handlers := s.open(t, filepath.Join(dir, "handlers.go"))
	register := uri.File(filepath.Join(dir, "register.go"))
	c.await(t, "diagnostics of handlers.go and register.go", func() bool {
		return len(c.diags[handlers]) == 2 && len(c.diags[register]) == 2
	})
	c.mu.Lock()
	diags := slices.Clone(c.diags[handlers])
	c.mu.Unlock()
	for i, want := range []struct {
		rng protocol.Range
		msg string
	}{
		{protocol.Range{Start: pos(9, 12), End: pos(9, 25)}, "the assertion to *v1.Pod fails"},
		{protocol.Range{Start: pos(17, 8), End: pos(17, 26)}, "this type switch has no case for it"},
	} {
		d := diags[i]
		src, _ := d.Source.Get()
		if d.Range != want.rng || !strings.Contains(string(d.Message.(protocol.String)), want.msg) ||
			d.Code != protocol.String("tombstone") || src != "ctrllint" || d.CodeDescription.Href != uri.URI(analyzers.DocURL("tombstone")) {
			t.Errorf("diagnostic %d: %+v\nwant range %v, message containing %q", i, d, want.rng, want.msg)
		}
	}

	// The quick fix of the first finding adds an import and unwraps the
	// tombstone before the assertion.
	text, _ := os.ReadFile(handlers.FsPath())
	actions := s.codeActions(t, handlers, diags[0])
	if len(actions) != 1 || actions[0].Title != "Unwrap the tombstone before the assertion" || len(actions[0].Edit.Changes[handlers]) != 2 {
		t.Fatalf("code actions %+v", actions)
	}
	if n := len(s.codeActions(t, handlers, protocol.Diagnostic{Range: protocol.Range{Start: pos(0, 0), End: pos(0, 0)}})); n != 0 {
		t.Errorf("%d code actions where there is no finding", n)
	}
	fixed := applyLSP(t, string(text), actions[0].Edit.Changes[handlers])

	// Saving analyses the package again: one finding left, whose fix no
	// longer adds the import.
	c.mu.Lock()
	n := c.published[handlers]
	c.mu.Unlock()
	saved := s.save(t, handlers, fixed)
	c.await(t, "diagnostics after the first fix", func() bool { return c.published[handlers] > n })
	c.mu.Lock()
	diags = slices.Clone(c.diags[handlers])
	took := c.lastAt[handlers].Sub(saved).Round(time.Millisecond)
	c.mu.Unlock()
	t.Logf("save to diagnostics (package already loaded once): %v", took)
	if len(diags) != 1 || diags[0].Range.Start.Line != 21 {
		t.Fatalf("after the first fix: %+v", diags)
	}
	actions = s.codeActions(t, handlers, diags[0])
	if len(actions) != 1 {
		t.Fatalf("code actions %+v", actions)
	}
	fixed = applyLSP(t, fixed, actions[0].Edit.Changes[handlers])
	c.mu.Lock()
	n = c.published[handlers]
	c.mu.Unlock()
	s.save(t, handlers, fixed)
	c.await(t, "diagnostics after the second fix", func() bool { return c.published[handlers] > n })
	c.mu.Lock()
	left := len(c.diags[handlers])
	c.mu.Unlock()
	if left != 0 {
		t.Errorf("%d diagnostics left after both fixes", left)
	}
	golden, err := os.ReadFile(filepath.Join(dir, "handlers.go.golden"))
	if err != nil {
		t.Fatal(err)
	}
	if fixed != string(golden) {
		t.Errorf("handlers.go after both quick fixes:\n%s\nwant (handlers.go.golden):\n%s", fixed, golden)
	}

	// Warm: saves of an unchanged package.
	var times []time.Duration
	for range 3 {
		c.mu.Lock()
		n = c.published[handlers]
		c.mu.Unlock()
		saved := s.save(t, handlers, fixed)
		c.await(t, "diagnostics after a save", func() bool { return c.published[handlers] > n })
		c.mu.Lock()
		times = append(times, c.lastAt[handlers].Sub(saved).Round(time.Millisecond))
		c.mu.Unlock()
	}
	t.Logf("save to diagnostics, warm (debounce %v): %v", testOptions().Debounce, times)

	// Closing the package's last open file clears its diagnostics.
	if err := s.server.DidClose(context.Background(), &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: handlers}}); err != nil {
		t.Fatal(err)
	}
	c.await(t, "register.go's diagnostics to be cleared", func() bool { return len(c.diags[register]) == 0 })

	s.stop(t, true, 0)
}

// A package that does not load is reported with the loader's message,
// once, and not as a crash.
func TestLoadError(t *testing.T) {
	mod := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/broken\n\ngo 1.26\n")
	write("a.go", "package broken\n\nfunc F() int { return \"x\" }\n")
	s := start(t, testOptions())
	c := s.client
	s.initialize(t, mod)
	u := s.open(t, filepath.Join(mod, "a.go"))
	c.await(t, "a message about the load error", func() bool { return len(c.shown) == 1 })
	c.mu.Lock()
	msg := c.shown[0]
	c.mu.Unlock()
	if msg.Type != protocol.MessageTypeError || !strings.Contains(msg.Message, "a.go:3:") {
		t.Errorf("message %+v", msg)
	}
	// Saving again with the same error logs it but does not show it again.
	c.mu.Lock()
	n := len(c.logged)
	c.mu.Unlock()
	s.save(t, u, "package broken\n\nfunc F() int { return \"x\" }\n")
	c.await(t, "the error to be logged again", func() bool { return len(c.logged) > n })
	c.mu.Lock()
	shown := len(c.shown)
	c.mu.Unlock()
	if shown != 1 {
		t.Errorf("the same load error was shown %d times", shown)
	}

	// A file outside any module.
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "b.go"), []byte("package b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s.open(t, filepath.Join(outside, "b.go"))
	c.await(t, "a message about the missing go.mod", func() bool {
		return len(c.shown) == 2 && strings.Contains(c.shown[1].Message, "no go.mod")
	})
	s.stop(t, true, 0)
}

// exit without shutdown ends the server with status 1, as the
// specification asks.
func TestExitWithoutShutdown(t *testing.T) {
	s := start(t, testOptions())
	s.initialize(t, t.TempDir())
	s.stop(t, false, 1)
}

// After shutdown the server answers no more requests.
func TestShutdown(t *testing.T) {
	s := start(t, testOptions())
	s.initialize(t, t.TempDir())
	if err := s.server.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, err := s.server.CodeAction(context.Background(), &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File("/x/a.go")}})
	if err == nil {
		t.Error("codeAction after shutdown: no error")
	}
	s.stop(t, false, 0) // shutdown was requested above
}

// The server hands the driver the packages whose scopes the analyzers
// read, as the command does (cmd/ctrllint passes analyzers.WholePackages).
func TestDriverConfigWholePackages(t *testing.T) {
	s := &Engine{opts: Options{Analyzers: analyzers.All(), WholePackages: analyzers.WholePackages(), Tests: true}}
	cfg := s.driverConfig("/m", "./p", s.opts.Analyzers)
	if len(cfg.WholePackages) == 0 || !slices.Equal(cfg.WholePackages, analyzers.WholePackages()) {
		t.Errorf("driver.Config.WholePackages = %v, want %v", cfg.WholePackages, analyzers.WholePackages())
	}
	if cfg.Dir != "/m" || !slices.Equal(cfg.Patterns, []string{"./p"}) || !cfg.Tests || len(cfg.Analyzers) != len(analyzers.All()) {
		t.Errorf("driver.Config = %+v", cfg)
	}
}

// A package's settings choose its analyzers, drop excluded findings and
// give the diagnostics' severity; settings that cannot be read are shown,
// and the package is not analysed with others instead.
func TestSettings(t *testing.T) {
	dir := fixture(t)
	handlers := filepath.Join(dir, "handlers.go")
	register := filepath.Join(dir, "register.go")
	for _, tc := range []struct {
		name     string
		settings func(string) (Settings, error)
		want     map[string]int // diagnostics per file
		severity protocol.DiagnosticSeverity
		shown    string
	}{
		{
			name: "severity note",
			settings: func(string) (Settings, error) {
				return Settings{Analyzers: analyzers.All(), Severity: func(string) string { return "note" }}, nil
			},
			want:     map[string]int{handlers: 2, register: 2},
			severity: protocol.DiagnosticSeverityInformation,
		},
		{
			name: "excluded file",
			settings: func(string) (Settings, error) {
				return Settings{
					Analyzers: analyzers.All(),
					Keep:      func(f finding.Finding) bool { return filepath.Base(f.Pos.File) != "register.go" },
					Severity:  func(string) string { return "error" },
				}, nil
			},
			want:     map[string]int{handlers: 2, register: 0},
			severity: protocol.DiagnosticSeverityError,
		},
		{
			name: "other analyzers",
			settings: func(string) (Settings, error) {
				return Settings{Analyzers: []*analysis.Analyzer{suppression.Analyzer}}, nil
			},
			want: map[string]int{handlers: 0, register: 0},
		},
		{
			name: "broken settings",
			settings: func(string) (Settings, error) {
				return Settings{}, errors.New(".ctrllint.yml:3: enable: unknown analyzer")
			},
			want:  map[string]int{handlers: 0},
			shown: ".ctrllint.yml:3: enable: unknown analyzer",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := testOptions()
			opts.Settings = func(d string) (Settings, error) {
				if d != dir {
					t.Errorf("settings asked for %s, want the package's directory %s", d, dir)
				}
				return tc.settings(d)
			}
			s := start(t, opts)
			c := s.client
			s.initialize(t, filepath.Dir(dir))
			s.open(t, handlers)
			if tc.shown != "" {
				c.await(t, "the message", func() bool { return len(c.shown) > 0 })
			} else {
				c.await(t, "diagnostics of the package's files", func() bool {
					for file := range tc.want {
						if c.published[uri.File(file)] == 0 {
							return false
						}
					}
					return true
				})
			}
			c.mu.Lock()
			defer c.mu.Unlock()
			for file, n := range tc.want {
				got := c.diags[uri.File(file)]
				if len(got) != n {
					t.Errorf("%s: %d diagnostics, want %d: %v", filepath.Base(file), len(got), n, got)
				}
				for _, d := range got {
					if d.Severity != tc.severity {
						t.Errorf("%s: severity %v, want %v", filepath.Base(file), d.Severity, tc.severity)
					}
				}
			}
			switch {
			case tc.shown == "" && len(c.shown) > 0:
				t.Errorf("shown %v", c.shown)
			case tc.shown != "" && (len(c.shown) != 1 || c.shown[0].Type != protocol.MessageTypeError || !strings.Contains(c.shown[0].Message, tc.shown)):
				t.Errorf("shown %v, want an error containing %q", c.shown, tc.shown)
			}
			c.mu.Unlock()
			s.stop(t, true, 0)
			c.mu.Lock()
		})
	}
}
