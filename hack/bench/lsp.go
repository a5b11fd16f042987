package main

import (
	"context"
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
	name, pkg, ok := strings.Cut(b.o.lspPackage, ":")
	res := lspResult{Name: b.o.lspPackage}
	if !ok {
		res.Err = "-lsp-package wants ENTRY:PACKAGE"
		return res
	}
	res.Name = pkg
	e, ok := cfg.entry(name)
	if !ok {
		res.Err = fmt.Sprintf("no entry %q in corpus.json", name)
		return res
	}
	if err := materialise(e, b.o.corpusCache, b.ctrllint); err != nil {
		res.Err = err.Error()
		return res
	}
	dir := e.dir(b.o.corpusCache)
	cmd := exec.Command("go", "list", "-f", "{{.Dir}}{{range .GoFiles}}\t{{.}}{{end}}{{range .EmbedFiles}}\t{{.}}{{end}}", pkg)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		res.Err = fmt.Sprintf("go list %s: %v", pkg, err)
		return res
	}
	f := strings.Split(strings.TrimSpace(string(out)), "\t")
	return b.lspCopy(res, dir, f[0], filepath.Base(f[0]), f[1:])
}

// lspCopy builds the temporary module (go.mod and go.sum from modDir, the
// files of srcDir at rel) and times the server on it.
func (b *bench) lspCopy(res lspResult, modDir, srcDir, rel string, files []string) lspResult {
	if len(files) == 0 {
		res.Err = "the package has no Go files"
		return res
	}
	tmp, err := os.MkdirTemp(b.scratch, "lsp-")
	if err != nil {
		res.Err = err.Error()
		return res
	}
	defer os.RemoveAll(tmp)
	copies := map[string]string{
		filepath.Join(modDir, "go.mod"): filepath.Join(tmp, "go.mod"),
		filepath.Join(modDir, "go.sum"): filepath.Join(tmp, "go.sum"),
	}
	for _, f := range files {
		copies[filepath.Join(srcDir, f)] = filepath.Join(tmp, rel, f)
	}
	for from, to := range copies {
		if err := copyFile(from, to); err != nil {
			res.Err = err.Error()
			return res
		}
	}
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
	cmd := exec.Command(ctrllint, "lsp")
	cmd.Dir = modDir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr := &tailBuffer{max: 4 << 10}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		res.Err = err.Error()
		return res
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		res.Err = err.Error()
		return res
	}
	if err := cmd.Start(); err != nil {
		res.Err = err.Error()
		return res
	}
	killed := false
	defer func() {
		if !killed && cmd.ProcessState == nil {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			cmd.Wait()
		}
	}()

	cl := newLSPClient()
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(pipe{stdout, stdin}), jsonrpc2.WithCodec(lsp.Codec{}))
	conn.Go(ctx, protocol.ClientHandler(cl, jsonrpc2.MethodNotFoundHandler))
	server := protocol.ServerDispatcher(conn)
	fail := func(err error) lspResult {
		res.Err = err.Error()
		if s := strings.TrimSpace(stderr.String()); s != "" {
			res.Err += "; server log: " + tail(s, 500)
		}
		conn.Close()
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

	server.Shutdown(ctx)
	server.Exit(ctx)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
	killed = true
	conn.Close()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		res.MaxRSS = ru.Maxrss * 1024
	}
	return res
}

// splitRE matches the server's log line after an analysis:
// "ctrllint: ./p: 3 findings in 4 files (load 1.2s, analysis 300ms)".
var splitRE = regexp.MustCompile(`\(load ([0-9.]+[a-zµ]+), analysis ([0-9.]+[a-zµ]+)\)`)

// lspClient records what the server sends.
type lspClient struct {
	protocol.UnimplementedClient

	mu      sync.Mutex
	changed chan struct{}
	pubs    map[uri.URI]int
	splits  int // log lines with a load/analysis split
	split   [2]time.Duration
	failure string // an error the server showed
}

func newLSPClient() *lspClient {
	return &lspClient{changed: make(chan struct{}, 1), pubs: make(map[uri.URI]int)}
}

func (c *lspClient) PublishDiagnostics(ctx context.Context, p *protocol.PublishDiagnosticsParams) error {
	c.mu.Lock()
	c.pubs[p.URI]++
	c.mu.Unlock()
	c.signal()
	return nil
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
	return c.pubs[u], c.splits
}

func (c *lspClient) lastSplit() (load, analysis time.Duration, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.split[0], c.split[1], c.splits > 0
}

// await waits until u has had more than pubs publications and (unless
// splits is negative) more than splits load/analysis log lines, or the
// server shows an error, or the timeout passes.
func (c *lspClient) await(u uri.URI, pubs, splits int, timeout time.Duration) error {
	deadline := time.After(timeout)
	for {
		c.mu.Lock()
		done := c.pubs[u] > pubs && (splits < 0 || c.splits > splits)
		failure := c.failure
		c.mu.Unlock()
		switch {
		case failure != "":
			return errors.New(firstLine(failure))
		case done:
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
