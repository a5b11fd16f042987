package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/ctrllint/ctrllint/internal/lsp"
)

// lspAll times the editor server on the fixture package and on the corpus
// package, as configured.
func (b *bench) lspAll(cfg *corpusConfig) []lspResult {
	var out []lspResult
	if b.o.lspFixture != "" {
		out = append(out, b.lspFixture())
	}
	if b.o.lspPackage != "" {
		out = append(out, b.lspCorpus(cfg))
	}
	return out
}

// lspFixture copies a package of a fixture module (its directory, with the
// module's go.mod and go.sum) into a temporary module and times it there, so
// that saving it touches nothing in the repository.
func (b *bench) lspFixture() lspResult {
	res := lspResult{Name: "fixture " + filepath.ToSlash(b.o.lspFixture)}
	src, err := filepath.Abs(filepath.Join(repoRoot(), b.o.lspFixture))
	if err != nil {
		res.Err = err.Error()
		return res
	}
	mod, err := moduleRoot(src)
	if err != nil {
		res.Err = err.Error()
		return res
	}
	rel, err := filepath.Rel(mod, src)
	if err != nil {
		res.Err = err.Error()
		return res
	}
	files, err := goFilesIn(src)
	if err != nil {
		res.Err = err.Error()
		return res
	}
	return b.lspCopy(res, mod, src, rel, files)
}

// lspCorpus copies one package of a materialised corpus entry (its non-test
// Go files and embedded files) into a temporary module with the entry's
// go.mod and go.sum: the package's own files live in the read-only module
// cache, under a go.mod (the pinned module's) that does not build there.
func (b *bench) lspCorpus(cfg *corpusConfig) lspResult {
	res := lspResult{Name: b.o.lspPackage}
	name, pkg, ok := strings.Cut(b.o.lspPackage, ":")
	if !ok {
		res.Err = "-lsp-package wants ENTRY:PACKAGE"
		return res
	}
	res.Name = pkg
	src, err := b.corpusPackage(cfg, name, pkg)
	if err != nil {
		res.Err = err.Error()
		return res
	}
	return b.lspCopy(res, src.modDir, src.dir, filepath.Base(src.dir), src.files)
}

// pkgSource is where a package's files are, and the go.mod and go.sum
// they build with.
type pkgSource struct {
	modDir string // holds go.mod and go.sum
	dir    string // the package's directory
	files  []string
}

// corpusPackage materialises the corpus entry name and finds pkg's
// non-test Go files and embedded files in it.
func (b *bench) corpusPackage(cfg *corpusConfig, name, pkg string) (pkgSource, error) {
	e, ok := cfg.entry(name)
	if !ok {
		return pkgSource{}, fmt.Errorf("no entry %q in corpus.json", name)
	}
	if err := materialise(e, b.o.corpusCache, b.ctrllint); err != nil {
		return pkgSource{}, err
	}
	dir := e.dir(b.o.corpusCache)
	cmd := exec.Command("go", "list", "-f", "{{.Dir}}{{range .GoFiles}}\t{{.}}{{end}}{{range .EmbedFiles}}\t{{.}}{{end}}", pkg)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return pkgSource{}, fmt.Errorf("go list %s: %v", pkg, err)
	}
	f := strings.Split(strings.TrimSpace(string(out)), "\t")
	return pkgSource{modDir: dir, dir: f[0], files: f[1:]}, nil
}

// lspCopy builds the temporary module (go.mod and go.sum from modDir, the
// files of srcDir at rel) and times the server on it.
func (b *bench) lspCopy(res lspResult, modDir, srcDir, rel string, files []string) lspResult {
	tmp, err := b.tempModule(modDir, srcDir, rel, files)
	if err != nil {
		res.Err = err.Error()
		return res
	}
	defer os.RemoveAll(tmp)
	var goFiles []string
	for _, f := range files {
		if strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, "_test.go") {
			goFiles = append(goFiles, f)
		}
	}
	slices.Sort(goFiles)
	if len(goFiles) == 0 {
		res.Err = "the package has no non-test Go files"
		return res
	}
	res.Dir = filepath.Join(tmp, rel)
	res.File = goFiles[0]
	fmt.Fprintf(os.Stderr, "bench: editor server: %s: opening %s\n", res.Name, res.File)
	return timeLSP(res, b.ctrllint, tmp, filepath.Join(tmp, rel, res.File), b.o.lspSaves)
}

// tempModule makes a temporary module in the scratch directory: go.mod
// and go.sum from modDir, files (of srcDir) at rel. The caller removes it.
func (b *bench) tempModule(modDir, srcDir, rel string, files []string) (string, error) {
	if len(files) == 0 {
		return "", errors.New("the package has no Go files")
	}
	tmp, err := os.MkdirTemp(b.scratch, "lsp-")
	if err != nil {
		return "", err
	}
	copies := map[string]string{
		filepath.Join(modDir, "go.mod"): filepath.Join(tmp, "go.mod"),
		filepath.Join(modDir, "go.sum"): filepath.Join(tmp, "go.sum"),
	}
	for _, f := range files {
		copies[filepath.Join(srcDir, f)] = filepath.Join(tmp, rel, f)
	}
	for from, to := range copies {
		if err := copyFile(from, to); err != nil {
			os.RemoveAll(tmp)
			return "", err
		}
		// With the files' times, as a checkout opened in an editor has
		// them: the editor server does not keep a load that may have read
		// a file written as it started (load.Stamp), and files copied
		// just now would make the first edit load again.
		fi, err := os.Stat(from)
		if err == nil {
			err = os.Chtimes(to, fi.ModTime(), fi.ModTime())
		}
		if err != nil {
			os.RemoveAll(tmp)
			return "", err
		}
	}
	return tmp, nil
}

// timeLSP starts `ctrllint lsp` in modDir as an editor would, opens file,
// waits for its diagnostics, then saves it (rewriting it unchanged) saves
// times, each time waiting for the diagnostics to arrive again.
func timeLSP(res lspResult, ctrllint, modDir, file string, saves int) lspResult {
	ctx := context.Background()
	text, err := os.ReadFile(file)
	if err != nil {
		res.Err = err.Error()
		return res
	}
	s, err := startLSP(modDir, ctrllint, "lsp")
	if err != nil {
		res.Err = err.Error()
		return res
	}
	defer s.kill()
	cl, server := s.cl, s.server
	fail := func(err error) lspResult {
		res.Err = s.failure(err)
		return res
	}

	root := uri.File(modDir)
	if _, err := server.Initialize(ctx, &protocol.InitializeParams{RootURI: &root}); err != nil {
		return fail(fmt.Errorf("initialize: %v", err))
	}
	if err := server.Initialized(ctx, &protocol.InitializedParams{}); err != nil {
		return fail(fmt.Errorf("initialized: %v", err))
	}
	u := uri.File(file)
	start := time.Now()
	err = server.DidOpen(ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: "go", Version: 1, Text: string(text),
	}})
	if err != nil {
		return fail(fmt.Errorf("didOpen: %v", err))
	}
	if err := cl.await(u, 0, -1, 5*time.Minute); err != nil {
		return fail(fmt.Errorf("after didOpen: %v", err))
	}
	res.Open = time.Since(start)
	for range saves {
		pubs, logs := cl.counts(u)
		if err := os.WriteFile(file, text, 0o644); err != nil {
			return fail(err)
		}
		start := time.Now()
		if err := server.DidSave(ctx, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}); err != nil {
			return fail(fmt.Errorf("didSave: %v", err))
		}
		if err := cl.await(u, pubs, -1, 5*time.Minute); err != nil {
			return fail(fmt.Errorf("after didSave: %v", err))
		}
		res.Saves = append(res.Saves, time.Since(start))
		// The server logs its load/analysis split right after publishing.
		if cl.await(u, pubs, logs, 5*time.Second) == nil {
			if load, analysis, ok := cl.lastSplit(); ok {
				res.Load = append(res.Load, load)
				res.Analysis = append(res.Analysis, analysis)
			}
		}
		fmt.Fprintf(os.Stderr, "bench: editor server: %s: save → diagnostics %s\n", res.Name, seconds(res.Saves[len(res.Saves)-1].Seconds()))
	}
	res.MaxRSS = s.stop()
	return res
}

// lspSession is a language server started as an editor starts one, with
// the client's end of the connection.
type lspSession struct {
	cmd    *exec.Cmd
	stderr *tailBuffer
	conn   jsonrpc2.Conn
	server protocol.Server
	cl     *lspClient
	done   bool // the process has been waited for
}

// startLSP starts the server command argv in dir, in a process group of
// its own, so that kill also ends what it started (gopls, go list).
func startLSP(dir string, argv ...string) (*lspSession, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	s := &lspSession{cmd: cmd, stderr: &tailBuffer{max: 4 << 10}, cl: newLSPClient()}
	cmd.Stderr = s.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(pipe{stdout, stdin}), jsonrpc2.WithCodec(lsp.Codec{}))
	s.conn.Go(context.Background(), s.cl.handler())
	s.server = protocol.ServerDispatcher(s.conn)
	return s, nil
}

// failure is err with the end of the server's log.
func (s *lspSession) failure(err error) string {
	msg := err.Error()
	if log := strings.TrimSpace(s.stderr.String()); log != "" {
		msg += "; server log: " + tail(log, 500)
	}
	return msg
}

// stop shuts the server down as an editor does, kills it if it has not
// exited 10 s later, and returns its peak RSS.
func (s *lspSession) stop() int64 {
	ctx := context.Background()
	s.server.Shutdown(ctx)
	s.server.Exit(ctx)
	exited := make(chan error, 1)
	go func() { exited <- s.cmd.Wait() }()
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	}
	s.done = true
	s.conn.Close()
	if ru, ok := s.cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss * 1024
	}
	return 0
}

// kill ends the server's process group unless stop did.
func (s *lspSession) kill() {
	if s.done {
		return
	}
	syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	s.cmd.Wait()
	s.conn.Close()
	s.done = true
}

// splitRE matches the server's log line after an analysis:
// "ctrllint: ./p: 3 findings in 4 files (load 1.2s, analysis 300ms)".
var splitRE = regexp.MustCompile(`\(load ([0-9.]+[a-zµ]+), analysis ([0-9.]+[a-zµ]+)\)`)

// lspClient records what the server sends, and answers the requests gopls
// makes of an editor.
type lspClient struct {
	protocol.UnimplementedClient

	mu      sync.Mutex
	changed chan struct{}
	pubs    map[uri.URI][]publication
	splits  int // log lines with a load/analysis split
	split   [2]time.Duration
	failure string // an error the server showed
}

// A publication is one publishDiagnostics, as received.
type publication struct {
	At      time.Time
	Version int // -1: none given
	Diags   []diagKey
}

// diagKey is what identifies a diagnostic across edits: its range moves
// when a line above it is deleted.
type diagKey struct {
	Source, Code, Message string
}

func newLSPClient() *lspClient {
	return &lspClient{changed: make(chan struct{}, 1), pubs: make(map[uri.URI][]publication)}
}

// handler reads publishDiagnostics itself, keeping only what the bench
// compares (gopls's diagnostics hold fields the protocol package's types
// need not accept), and answers gopls's requests of the client, which it
// waits for: a configuration item nobody sets, progress and registrations
// accepted. Everything else goes to the protocol package's dispatch.
func (c *lspClient) handler() jsonrpc2.Handler {
	next := protocol.ClientHandler(c, jsonrpc2.MethodNotFoundHandler)
	return func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		switch req.Method() {
		case "textDocument/publishDiagnostics":
			u, p, err := parsePublication(req.Params())
			if err != nil {
				return nil, nil // a notification's error would close the connection
			}
			p.At = time.Now()
			c.mu.Lock()
			c.pubs[u] = append(c.pubs[u], p)
			c.mu.Unlock()
			c.signal()
			return nil, nil
		case "workspace/configuration":
			var p struct {
				Items []json.RawMessage `json:"items"`
			}
			json.Unmarshal(req.Params(), &p)
			return jsonrpc2.RawMessage("[" + strings.TrimSuffix(strings.Repeat("null,", len(p.Items)), ",") + "]"), nil
		case "window/workDoneProgress/create", "client/registerCapability", "client/unregisterCapability":
			return jsonrpc2.RawMessage("null"), nil
		}
		return next(ctx, req)
	}
}

// parsePublication reads publishDiagnostics's parameters.
func parsePublication(params []byte) (uri.URI, publication, error) {
	var p struct {
		URI         uri.URI `json:"uri"`
		Version     *int    `json:"version"`
		Diagnostics []struct {
			Source  string          `json:"source"`
			Code    json.RawMessage `json:"code"` // a string or a number
			Message string          `json:"message"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return "", publication{}, err
	}
	pub := publication{Version: -1}
	if p.Version != nil {
		pub.Version = *p.Version
	}
	for _, d := range p.Diagnostics {
		code := string(d.Code)
		json.Unmarshal(d.Code, &code)
		pub.Diags = append(pub.Diags, diagKey{d.Source, code, d.Message})
	}
	return p.URI, pub, nil
}

func (c *lspClient) LogMessage(ctx context.Context, p *protocol.LogMessageParams) error {
	if m := splitRE.FindStringSubmatch(p.Message); m != nil {
		load, err1 := time.ParseDuration(m[1])
		analysis, err2 := time.ParseDuration(m[2])
		if err1 == nil && err2 == nil {
			c.mu.Lock()
			c.splits++
			c.split = [2]time.Duration{load, analysis}
			c.mu.Unlock()
			c.signal()
		}
	}
	return nil
}

func (c *lspClient) ShowMessage(ctx context.Context, p *protocol.ShowMessageParams) error {
	if p.Type == protocol.MessageTypeError {
		c.mu.Lock()
		c.failure = p.Message
		c.mu.Unlock()
		c.signal()
	}
	return nil
}

func (c *lspClient) signal() {
	select {
	case c.changed <- struct{}{}:
	default:
	}
}

func (c *lspClient) counts(u uri.URI) (pubs, splits int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pubs[u]), c.splits
}

func (c *lspClient) lastSplit() (load, analysis time.Duration, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.split[0], c.split[1], c.splits > 0
}

// publications is a copy of u's publications from the from'th on.
func (c *lspClient) publications(u uri.URI, from int) []publication {
	c.mu.Lock()
	defer c.mu.Unlock()
	if from >= len(c.pubs[u]) {
		return nil
	}
	return slices.Clone(c.pubs[u][from:])
}

// await waits until u has had more than pubs publications and (unless
// splits is negative) more than splits load/analysis log lines, or the
// server shows an error, or the timeout passes.
func (c *lspClient) await(u uri.URI, pubs, splits int, timeout time.Duration) error {
	return c.waitFor(timeout, func() bool {
		return len(c.pubs[u]) > pubs && (splits < 0 || c.splits > splits)
	})
}

// waitFor waits until done (called with c.mu held) holds, or the server
// shows an error, or the timeout passes.
func (c *lspClient) waitFor(timeout time.Duration, done func() bool) error {
	deadline := time.After(timeout)
	for {
		c.mu.Lock()
		ok := done()
		failure := c.failure
		c.mu.Unlock()
		switch {
		case failure != "":
			return errors.New(firstLine(failure))
		case ok:
			return nil
		}
		select {
		case <-c.changed:
		case <-deadline:
			return fmt.Errorf("nothing within %v", timeout)
		}
	}
}

func firstLine(s string) string {
	lines := strings.SplitN(s, "\n", 3)
	if len(lines) > 1 {
		return lines[0] + " " + lines[1]
	}
	return lines[0]
}

// pipe is the client's end of the server's standard input and output.
type pipe struct {
	io.ReadCloser                // the server's stdout
	w             io.WriteCloser // the server's stdin
}

func (p pipe) Write(b []byte) (int, error) { return p.w.Write(b) }

func (p pipe) Close() error { return errors.Join(p.w.Close(), p.ReadCloser.Close()) }

// moduleRoot is the directory of the go.mod governing dir.
func moduleRoot(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; d = filepath.Dir(d) {
		if exists(filepath.Join(d, "go.mod")) {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no go.mod above %s", dir)
		}
	}
}

// goFilesIn lists the regular files of dir (Go files and any embedded
// data alike).
func goFilesIn(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if e.Type().IsRegular() {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o644)
}
