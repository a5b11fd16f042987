package goplsproxy

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/uri"

	"github.com/ctrllint/ctrllint/analyzers"
	"github.com/ctrllint/ctrllint/internal/lsp"
	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

// The proxy is tested against the real gopls, which make builds once
// (make/gopls.mk: hack/gopls/build.sh) into the cache outside the clone;
// CTRLLINT_GOPLS names another. Without one the tests skip, unless
// CTRLLINT_REQUIRE_GOPLS is set (make sets it: there a missing gopls is a
// failure).
func goplsPath(t *testing.T) string {
	t.Helper()
	path := os.Getenv("CTRLLINT_GOPLS")
	if path == "" {
		home, _ := os.UserHomeDir()
		path = filepath.Join(home, ".cache", "ctrllint", "gopls-v0.23.0", "gopls")
	}
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("CTRLLINT_REQUIRE_GOPLS") != "" {
			t.Fatalf("no gopls: %v (make gopls builds it)", err)
		}
		t.Skipf("no gopls: %v (make gopls builds it)", err)
	}
	return path
}

// testEnv loads fixtures from the module cache only (make testdata fills
// it), for gopls and ctrllint alike.
var testEnv = append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=mod", "GOWORK=off", "GOTELEMETRY=off")

// extra is appended to the fixture's handlers.go: a self-assignment, which
// gopls reports (its assign analyzer), badly formatted, and a function to
// hover over and rename.
const extra = `
func selfAssign() {
	x  :=  1
	x = x
	_ = x
}
`

// fixture writes a module with the current fixture module's go.mod and
// go.sum and its tombstonefix package (ctrllint's findings with quick
// fixes), handlers.go with extra appended; it returns the package's
// directory.
func fixture(t *testing.T) string {
	return testanalyzers.FixtureModule(t, "tombstonefix", map[string]string{"handlers.go": extra})
}

// session is the proxy running in process between a test client and gopls.
type session struct {
	c    *testClient
	in   io.WriteCloser // the client's end of the proxy's input
	exit chan int       // Run's result
	err  *syncBuffer    // the proxy's and gopls's stderr
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func start(t *testing.T, gopls string) *session {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &session{in: inW, exit: make(chan int, 1), err: &syncBuffer{}}
	opts := lsp.Options{
		Analyzers: analyzers.All(),
		DocURL:    analyzers.DocURL,
		Tests:     true,
		Env:       testEnv,
		Debounce:  10 * time.Millisecond,
		Log:       s.err,
	}
	go func() {
		s.exit <- Run(context.Background(), inR, outW, Options{
			Gopls:  gopls,
			Args:   []string{"serve"},
			Env:    testEnv,
			Stderr: s.err,
			Analyzer: func(ctx context.Context, c lsp.Client) Analyzer {
				return lsp.NewEngine(ctx, opts, c)
			},
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

// initialize sends initialize and initialized with the capabilities that
// make gopls ask the client things (configuration, progress tokens,
// registrations) and returns the result.
func (s *session) initialize(t *testing.T, root string) map[string]any {
	t.Helper()
	return s.initializeWith(t, root, nil)
}

// initializeWith is initialize with gopls's initializationOptions.
func (s *session) initializeWith(t *testing.T, root string, gopls map[string]any) map[string]any {
	t.Helper()
	m := s.c.call("initialize", map[string]any{
		"initializationOptions": gopls,
		"processId":             nil,
		"rootUri":               string(uri.File(root)),
		"capabilities": map[string]any{
			"workspace": map[string]any{
				"configuration":         true,
				"workspaceEdit":         map[string]any{"documentChanges": true},
				"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true},
			},
			"window": map[string]any{"workDoneProgress": true},
			"textDocument": map[string]any{
				"codeAction": map[string]any{"codeActionLiteralSupport": map[string]any{
					"codeActionKind": map[string]any{"valueSet": []string{"quickfix", "refactor", "refactor.extract", "refactor.rewrite", "source", "source.organizeImports"}},
				}},
				"publishDiagnostics": map[string]any{"versionSupport": true},
			},
		},
		"workspaceFolders": []map[string]any{{"uri": string(uri.File(root)), "name": "fixture"}},
	})
	if m.Error != nil {
		t.Fatalf("initialize: %s", m.Error)
	}
	var res map[string]any
	if err := json.Unmarshal(m.Result, &res); err != nil {
		t.Fatal(err)
	}
	s.c.notify("initialized", map[string]any{})
	return res
}

// stop waits for Run to return and checks its status and that no
// goroutine of the proxy or the engine is left.
func (s *session) stop(t *testing.T, want int) {
	t.Helper()
	select {
	case code := <-s.exit:
		if code != want {
			t.Errorf("exit status %d, want %d; stderr:\n%s", code, want, s.err)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("Run did not return; stderr:\n%s", s.err)
	}
	noLeaks(t)
}

// noLeaks fails if a goroutine of the proxy or the engine still runs.
func noLeaks(t *testing.T) {
	t.Helper()
	testanalyzers.NoLeaks(t, "internal/goplsproxy.(*proxy)", "internal/goplsproxy.Run", "internal/lsp.(*Engine)")
}

func pos(line, char int) map[string]int { return map[string]int{"line": line, "character": char} }

func rng(l1, c1, l2, c2 int) map[string]any {
	return map[string]any{"start": pos(l1, c1), "end": pos(l2, c2)}
}

// A whole session through the proxy: both sources' diagnostics merged,
// gopls's features, gopls's requests answered by the client, and
// shutdown and exit.
func TestProxy(t *testing.T) {
	gopls := goplsPath(t)
	dir := fixture(t)
	s := start(t, gopls)
	c := s.c
	res := s.initialize(t, filepath.Dir(dir))
	caps, _ := res["capabilities"].(map[string]any)
	if caps["codeActionProvider"] == nil || caps["hoverProvider"] == nil {
		t.Errorf("gopls's capabilities did not come through: %v", caps)
	}
	// The proxy adds nothing to gopls's capabilities: what ctrllint needs
	// of the client, gopls asks for too (didSave, quick fixes).
	if sync, _ := caps["textDocumentSync"].(map[string]any); sync["save"] == nil || sync["openClose"] != true {
		t.Errorf("gopls's textDocumentSync %v: ctrllint needs didOpen, didClose and didSave", caps["textDocumentSync"])
	}
	if ca, _ := caps["codeActionProvider"].(map[string]any); !slices.Contains(ca["codeActionKinds"].([]any), any("quickfix")) {
		t.Errorf("gopls's codeActionProvider %v: the client must ask for quick fixes", caps["codeActionProvider"])
	}
	if info, _ := res["serverInfo"].(map[string]any); info["name"] != "gopls" {
		t.Errorf("serverInfo %v, want gopls's", res["serverInfo"])
	}

	path := filepath.Join(dir, "handlers.go")
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	u := string(uri.File(path))
	doc := map[string]any{"uri": u}
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "languageId": "go", "version": 1, "text": string(text)}})

	// Both sources' diagnostics, in one list: ctrllint's two findings and
	// gopls's self-assignment.
	var ours, theirs []diagnostic
	c.await("ctrllint's and gopls's diagnostics of handlers.go", func() bool {
		ours, theirs = nil, nil
		for _, d := range c.diags[u] {
			if d.Source == "ctrllint" {
				ours = append(ours, d)
			} else {
				theirs = append(theirs, d)
			}
		}
		return len(ours) == 2 && len(theirs) > 0
	})
	if !strings.Contains(ours[0].Message, "the assertion to *v1.Pod fails") || ours[0].Range.Start.Line != 9 {
		t.Errorf("ctrllint's first diagnostic: %+v", ours[0])
	}
	if !slices.ContainsFunc(theirs, func(d diagnostic) bool { return strings.Contains(d.Message, "self-assignment of x") }) {
		t.Errorf("gopls's diagnostics: %+v, want a self-assignment", theirs)
	}
	selfLine := strings.Count(string(text[:strings.Index(string(text), "x = x")]), "\n")
	fnLine := selfLine - 2 // func selfAssign() {

	// gopls's requests reached the client and were answered: without
	// answers to workspace/configuration gopls would not have gone on.
	c.mu.Lock()
	var asked []string
	for _, r := range c.requests {
		asked = append(asked, r.Method)
	}
	progress := slices.ContainsFunc(c.notes, func(m message) bool { return m.Method == "$/progress" })
	c.mu.Unlock()
	for _, want := range []string{"workspace/configuration", "window/workDoneProgress/create", "client/registerCapability"} {
		if !slices.Contains(asked, want) {
			t.Errorf("gopls's requests to the client: %v, want %s", asked, want)
		}
	}
	if !progress {
		// Its workspace load reports progress on the token it created.
		c.await("$/progress from gopls", func() bool {
			return slices.ContainsFunc(c.notes, func(m message) bool { return m.Method == "$/progress" })
		})
	}

	// Code actions over the whole file: gopls's (its self-assignment
	// fix) and ctrllint's quick fix in one answer.
	lines := strings.Count(string(text), "\n")
	m := c.call("textDocument/codeAction", map[string]any{
		"textDocument": doc,
		"range":        rng(0, 0, lines, 0),
		"context":      map[string]any{"diagnostics": []any{}},
	})
	var actions []struct {
		Title string `json:"title"`
		Kind  string `json:"kind"`
	}
	if err := json.Unmarshal(m.Result, &actions); err != nil {
		t.Fatalf("codeAction: %s %s: %v", m.Result, m.Error, err)
	}
	var titles []string
	for _, a := range actions {
		titles = append(titles, a.Title)
	}
	if !slices.Contains(titles, "Unwrap the tombstone before the assertion") || len(titles) < 3 {
		t.Errorf("code actions %q: want ctrllint's quick fixes and gopls's actions", titles)
	}
	// At a range where ctrllint has nothing, gopls's answer as it is.
	m = c.call("textDocument/codeAction", map[string]any{
		"textDocument": doc,
		"range":        rng(selfLine, 1, selfLine, 6),
		"context":      map[string]any{"diagnostics": []any{}},
	})
	if strings.Contains(string(m.Result), "Unwrap the tombstone") || !strings.Contains(string(m.Result), "Extract function") {
		t.Errorf("code actions away from ctrllint's findings: %s; want gopls's only", m.Result)
	}

	// Hover, completion, rename, formatting: gopls's answers.
	m = c.call("textDocument/hover", map[string]any{"textDocument": doc, "position": pos(fnLine, 6)})
	if !strings.Contains(string(m.Result), "func selfAssign()") {
		t.Errorf("hover: %s %s", m.Result, m.Error)
	}
	m = c.call("textDocument/completion", map[string]any{"textDocument": doc, "position": pos(selfLine+1, 6)})
	if !strings.Contains(string(m.Result), `"label":"x"`) {
		t.Errorf("completion: %.500s %s", m.Result, m.Error)
	}
	m = c.call("textDocument/rename", map[string]any{"textDocument": doc, "position": pos(fnLine, 6), "newName": "renamed"})
	if !strings.Contains(string(m.Result), `"newText":"renamed"`) {
		t.Errorf("rename: %s %s", m.Result, m.Error)
	}
	m = c.call("textDocument/formatting", map[string]any{"textDocument": doc, "options": map[string]any{"tabSize": 8, "insertSpaces": false}})
	if m.Error != nil || len(m.Result) < 10 || !strings.Contains(string(m.Result), "newText") {
		t.Errorf("formatting: %s %s", m.Result, m.Error)
	}

	// A request with a string id, canceled at once: its answer (a
	// result, or the cancellation's error) comes back under the same id,
	// untouched.
	id := c.send(`"cancel-me"`, "textDocument/hover", map[string]any{"textDocument": doc, "position": pos(fnLine, 6)})
	c.notify("$/cancelRequest", map[string]any{"id": "cancel-me"})
	m = c.reply(id)
	c.mu.Lock()
	raw := string(c.raw[id])
	c.mu.Unlock()
	if !strings.Contains(raw, `"id":"cancel-me"`) || m.Result == nil && m.Error == nil {
		t.Errorf("canceled request's answer: %s", raw)
	}

	// Saving a fixed file: gopls's diagnostics stay while ctrllint's
	// change (one left).
	fixed := strings.Replace(string(text), "\tx = x\n", "", 1)
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": u, "version": 2},
		"contentChanges": []any{map[string]any{"text": fixed}},
	})
	if err := os.WriteFile(path, []byte(fixed), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify("textDocument/didSave", map[string]any{"textDocument": doc})
	c.await("gopls's self-assignment to go, ctrllint's findings to stay", func() bool {
		var o, g int
		for _, d := range c.diags[u] {
			if d.Source == "ctrllint" {
				o++
			} else if strings.Contains(d.Message, "self-assignment") {
				g++
			}
		}
		return o == 2 && g == 0
	})

	m = c.call("shutdown", nil)
	if m.Error != nil {
		t.Errorf("shutdown: %s", m.Error)
	}
	c.notify("exit", nil)
	s.stop(t, 0)
}

// A gopls that dies mid-session: the proxy tells the client and exits
// with status 1.
func TestGoplsCrash(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the wrapper is a shell script")
	}
	gopls := goplsPath(t)
	// A gopls whose process id the test learns: exec keeps it.
	pidFile := filepath.Join(t.TempDir(), "pid")
	wrapper := filepath.Join(t.TempDir(), "gopls")
	script := fmt.Sprintf("#!/bin/sh\necho $$ >%q\nexec %q \"$@\"\n", pidFile, gopls)
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	s := start(t, wrapper)
	s.initialize(t, t.TempDir())
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Kill(); err != nil {
		t.Fatal(err)
	}
	s.c.await("the proxy to report gopls's end", func() bool {
		return slices.ContainsFunc(s.c.notes, func(m message) bool {
			return m.Method == "window/showMessage" && strings.Contains(string(m.Params), "gopls exited unexpectedly (signal: killed)")
		})
	})
	s.stop(t, 1)
	if !strings.Contains(s.err.String(), "gopls exited unexpectedly") {
		t.Errorf("stderr: %s", s.err)
	}
}

// A client that goes away: after shutdown, status 0; without it, 1, as
// the specification asks of exit. gopls is shut down either way.
func TestClientGone(t *testing.T) {
	gopls := goplsPath(t)
	for _, shutdown := range []bool{true, false} {
		t.Run(fmt.Sprintf("shutdown=%v", shutdown), func(t *testing.T) {
			s := start(t, gopls)
			s.initialize(t, t.TempDir())
			want := 1
			if shutdown {
				s.c.call("shutdown", nil)
				want = 0
			}
			s.c.close()
			s.stop(t, want)
			if strings.Contains(s.err.String(), "did not exit") {
				t.Errorf("gopls had to be killed: %s", s.err)
			}
		})
	}
}

// A signal (the context's end) kills gopls and ends the proxy, with no
// goroutine left.
func TestCanceled(t *testing.T) {
	gopls := goplsPath(t)
	ctx, cancel := context.WithCancel(context.Background())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go io.Copy(io.Discard, outR)
	var stderr syncBuffer
	exit := make(chan int, 1)
	go func() {
		exit <- Run(ctx, inR, outW, Options{
			Gopls: gopls, Env: testEnv, Stderr: &stderr,
			Analyzer: func(ctx context.Context, c lsp.Client) Analyzer {
				return lsp.NewEngine(ctx, lsp.Options{Analyzers: analyzers.All(), Env: testEnv}, c)
			},
		})
		outW.Close()
	}()
	defer inW.Close()
	time.Sleep(200 * time.Millisecond) // gopls started
	cancel()
	select {
	case code := <-exit:
		if code != 1 {
			t.Errorf("exit status %d, want 1", code)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("Run did not return after the context ended; stderr:\n%s", &stderr)
	}
	if strings.Contains(stderr.String(), "unexpectedly") {
		t.Errorf("a gopls killed on a signal reported as a crash: %s", &stderr)
	}
	noLeaks(t)
}

// With pull diagnostics (gopls's experimental pullDiagnostics setting),
// gopls's answer to textDocument/diagnostic gets ctrllint's diagnostics of
// the document.
func TestPullDiagnostics(t *testing.T) {
	gopls := goplsPath(t)
	dir := fixture(t)
	s := start(t, gopls)
	c := s.c
	res := s.initializeWith(t, filepath.Dir(dir), map[string]any{"pullDiagnostics": true})
	if caps, _ := res["capabilities"].(map[string]any); caps["diagnosticProvider"] == nil {
		t.Fatalf("gopls offers no pull diagnostics: %v", caps)
	}
	path := filepath.Join(dir, "handlers.go")
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	u := string(uri.File(path))
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "languageId": "go", "version": 1, "text": string(text)}})
	c.await("ctrllint's diagnostics", func() bool {
		return slices.ContainsFunc(c.diags[u], func(d diagnostic) bool { return d.Source == "ctrllint" })
	})
	m := c.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": u}})
	var report struct {
		Kind  string       `json:"kind"`
		Items []diagnostic `json:"items"`
	}
	if err := json.Unmarshal(m.Result, &report); err != nil {
		t.Fatalf("textDocument/diagnostic: %s %s: %v", m.Result, m.Error, err)
	}
	var ours, theirs int
	for _, d := range report.Items {
		if d.Source == "ctrllint" {
			ours++
		} else if strings.Contains(d.Message, "self-assignment") {
			theirs++
		}
	}
	if report.Kind != "full" || ours != 2 || theirs != 1 {
		t.Errorf("pulled report: kind %q, %d of ctrllint's (want 2), %d self-assignments (want 1): %s", report.Kind, ours, theirs, m.Result)
	}
	c.call("shutdown", nil)
	c.notify("exit", nil)
	s.stop(t, 0)
}
