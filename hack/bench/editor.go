package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/uri"
)

// The editor-typing scenario is issue 22's editor target: after a one-line
// edit, ctrllint's diagnostics reach the editor within 1 s, beside gopls's
// own. The editor runs `ctrllint gopls`, which merges ctrllint's findings
// into gopls's publishDiagnostics, so what the user waits for is the first
// merged publication that reflects the edit. The edit deletes a line whose
// absence ctrllint reports (by default the deferred Done of the deployment
// controller's work-queue key: queuedone), then puts it back, the way a
// user types, through didChange only: nothing is saved.

// The kinds of edit. delete and restore are the measured edit; break and
// fix are an edit of the same line that gopls does diagnose, so that gopls
// has a time to compare even if it publishes nothing when its list does not
// change.
const (
	editDelete  = "delete the line"
	editRestore = "put it back"
	editBreak   = "break it (undefined name)"
	editFix     = "fix it"
)

// breakSuffix turns a statement line into one that does not type-check.
const breakSuffix = "; _ = ctrllintBenchUndefined"

// Waits: ctrllint's first analysis of a package of kubernetes loads it and
// its dependencies' export data; gopls republishes within a second or two
// when it does at all.
const (
	editorOpenWait     = 5 * time.Minute
	editorCtrllintWait = 2 * time.Minute
	editorGoplsWait    = 10 * time.Second
	editorQuiet        = time.Second // no publication for this long ends an edit
	editorQuietMax     = 30 * time.Second
)

// editorResult is the editor-typing scenario's measurements.
type editorResult struct {
	Name    string        `json:"name"` // ENTRY:PACKAGE:FILE
	Line    string        `json:"line"`
	Gopls   string        `json:"gopls"`             // gopls's version
	Finding string        `json:"finding,omitempty"` // ctrllint's finding after the deletion
	Open    time.Duration `json:"open"`              // didOpen → both first diagnostics, through the proxy
	Proxy   []editorEdit  `json:"proxy"`             // through ctrllint gopls
	Alone   []editorEdit  `json:"alone"`             // gopls alone
	Skipped string        `json:"skipped,omitempty"`
	Err     string        `json:"err,omitempty"`
}

// editorEdit is one didChange's times; zero where nothing came within the
// wait, or nothing was measured.
type editorEdit struct {
	Kind string `json:"kind"`
	// Ctrllint is didChange → the first merged publication whose ctrllint
	// part reflects the new text.
	Ctrllint time.Duration `json:"ctrllint,omitempty"`
	// Load and Analysis split the ctrllint run that found them, as its
	// log line says.
	Load     time.Duration `json:"load,omitempty"`
	Analysis time.Duration `json:"analysis,omitempty"`
	// Gopls is didChange → the first publication carrying the new version
	// (and, for an edit gopls diagnoses, saying so).
	Gopls time.Duration `json:"gopls,omitempty"`
}

// parseEditor splits -editor's ENTRY:PACKAGE:FILE.
func parseEditor(s string) (entry, pkg, file string, err error) {
	f := strings.SplitN(s, ":", 3)
	if len(f) != 3 || f[0] == "" || f[1] == "" || f[2] == "" || strings.ContainsAny(f[2], `/\`) {
		return "", "", "", fmt.Errorf("-editor %q: want ENTRY:PACKAGE:FILE (a corpus entry, an import path, a Go file of the package's directory)", s)
	}
	return f[0], f[1], f[2], nil
}

// defaultGopls is where hack/gopls/build.sh (make gopls) puts gopls.
func defaultGopls() string {
	cache := os.Getenv("CTRLLINT_CACHE")
	if cache == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		cache = filepath.Join(home, ".cache", "ctrllint")
	}
	return filepath.Join(cache, "gopls-"+goplsVersion, "gopls")
}

// goplsVersion is the gopls hack/gopls/build.sh builds by default.
const goplsVersion = "v0.23.0"

// editorTyping runs the scenario: in a temporary module holding a copy of
// the package, the edits through ctrllint gopls, then through gopls alone.
// No gopls is no failure: the section says it was skipped.
func (b *bench) editorTyping(cfg *corpusConfig) *editorResult {
	res := &editorResult{Name: b.o.editor, Line: b.o.editorLine}
	name, pkg, file, err := parseEditor(b.o.editor)
	if err != nil {
		res.Err = err.Error()
		return res
	}
	if fi, err := os.Stat(b.o.gopls); b.o.gopls == "" || err != nil || fi.IsDir() {
		res.Skipped = fmt.Sprintf("no gopls at %q (make gopls, or -gopls PATH)", b.o.gopls)
		return res
	}
	// The servers run in the temporary module.
	gopls, err := filepath.Abs(b.o.gopls)
	if err != nil {
		res.Err = err.Error()
		return res
	}
	res.Gopls = toolVersion(gopls, "version")
	src, err := b.corpusPackage(cfg, name, pkg)
	if err != nil {
		res.Err = err.Error()
		return res
	}
	if !slices.Contains(src.files, file) {
		res.Err = fmt.Sprintf("%s has no non-test Go file %s", pkg, file)
		return res
	}
	rel := filepath.Base(src.dir)
	tmp, err := b.tempModule(src.modDir, src.dir, rel, src.files)
	if err != nil {
		res.Err = err.Error()
		return res
	}
	defer os.RemoveAll(tmp)
	path := filepath.Join(tmp, rel, file)
	text, err := os.ReadFile(path)
	if err != nil {
		res.Err = err.Error()
		return res
	}

	kinds := editKinds(b.o.editorEdits, false)
	fmt.Fprintf(os.Stderr, "bench: editor typing: %s through ctrllint gopls (%s)\n", file, res.Gopls)
	proxy := &editorSession{file: path, text: string(text), line: b.o.editorLine, proxy: true}
	res.Open, res.Proxy, res.Finding, err = proxy.run(tmp, kinds, b.ctrllint, "gopls", "-gopls", gopls)
	if err != nil {
		res.Err = "through ctrllint gopls: " + err.Error()
		return res
	}
	fmt.Fprintf(os.Stderr, "bench: editor typing: %s through gopls alone\n", file)
	alone := &editorSession{file: path, text: string(text), line: b.o.editorLine}
	_, res.Alone, _, err = alone.run(tmp, editKinds(b.o.editorEdits, true), gopls)
	if err != nil {
		res.Err = "gopls alone: " + err.Error()
	}
	return res
}

// editKinds is the sequence of n edits, alternating a deletion and its
// undoing; with gopls, as many of an edit gopls diagnoses follow.
func editKinds(n int, gopls bool) []string {
	var out []string
	for i := range n {
		out = append(out, []string{editDelete, editRestore}[i%2])
	}
	if n%2 == 1 {
		out = append(out, editRestore) // leave the text as it was
	}
	if gopls {
		for i := range n {
			out = append(out, []string{editBreak, editFix}[i%2])
		}
		if n%2 == 1 {
			out = append(out, editFix)
		}
	}
	return out
}

// lineEditor is the document as the edits leave it: the file's text, one
// line of which they delete, put back or change.
type lineEditor struct {
	text    string
	line    int    // 0-based
	orig    string // the line as in the file, without its newline
	present bool   // the line is in the text
}

// findLine locates the one line of text that reads want, indentation
// aside.
func findLine(text, want string) (*lineEditor, error) {
	lines := strings.SplitAfter(text, "\n")
	at := -1
	for i, l := range lines {
		if strings.TrimSpace(l) == strings.TrimSpace(want) {
			if at >= 0 {
				return nil, fmt.Errorf("the line %q occurs twice (lines %d and %d)", want, at+1, i+1)
			}
			at = i
		}
	}
	if at < 0 {
		return nil, fmt.Errorf("no line %q", want)
	}
	if !strings.HasSuffix(lines[at], "\n") {
		return nil, fmt.Errorf("the line %q ends the file without a newline", want)
	}
	return &lineEditor{text: text, line: at, orig: strings.TrimSuffix(lines[at], "\n"), present: true}, nil
}

// textChange is an incremental didChange content change, as editors send
// them (a range of the old text and its replacement). Every range starts
// at a line's start, where UTF-8 and UTF-16 columns agree.
type textChange struct {
	Range struct {
		Start position `json:"start"`
		End   position `json:"end"`
	} `json:"range"`
	Text string `json:"text"`
}

type position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// edit applies kind to the document and returns the change that says so.
func (e *lineEditor) edit(kind string) (textChange, error) {
	var c textChange
	c.Range.Start.Line = e.line
	c.Range.End.Line = e.line
	if e.present {
		c.Range.End.Line = e.line + 1 // the whole line, newline included
	}
	switch kind {
	case editDelete:
		e.present = false
	case editRestore, editFix:
		c.Text = e.orig + "\n"
		e.present = true
	case editBreak:
		c.Text = e.orig + breakSuffix + "\n"
		e.present = true
	default:
		return c, fmt.Errorf("unknown edit %q", kind)
	}
	lines := strings.SplitAfter(e.text, "\n")
	e.text = strings.Join(slices.Concat(lines[:c.Range.Start.Line], []string{c.Text}, lines[c.Range.End.Line:]), "")
	return c, nil
}

// ctrllintSource is the source of ctrllint's diagnostics (internal/lsp's
// source; their code is the analyzer's name).
const ctrllintSource = "ctrllint"

// ctrllintPart is the diagnostics of p that ctrllint made.
func ctrllintPart(p publication) []diagKey {
	var out []diagKey
	for _, d := range p.Diags {
		if d.Source == ctrllintSource {
			out = append(out, d)
		}
	}
	return out
}

// added is what part holds beyond base, counting duplicates.
func added(base, part []diagKey) []diagKey {
	left := map[diagKey]int{}
	for _, d := range base {
		left[d]++
	}
	var out []diagKey
	for _, d := range part {
		if left[d] > 0 {
			left[d]--
		} else {
			out = append(out, d)
		}
	}
	return out
}

// reflects reports whether part, ctrllint's diagnostics in a publication,
// are those of the text after an edit of kind, base being those of the
// file as it is on disk: a deletion brings a finding the file lacks, its
// undoing the file's own again.
func reflects(kind string, part, base []diagKey) bool {
	if kind == editDelete {
		return len(added(base, part)) > 0
	}
	return len(part) == len(base) && len(added(base, part)) == 0
}

// firstWithVersion is the index of the first publication carrying version
// v, or -1.
func firstWithVersion(pubs []publication, v int) int {
	return slices.IndexFunc(pubs, func(p publication) bool { return p.Version == v })
}

// goplsReflects reports whether p, a publication of the edit's version,
// holds what gopls says of the new text where the edit is one it
// diagnoses: the undefined name after breaking the line, none after fixing
// it: a publication of the version that held only part of gopls's list
// (its parse errors, say) would not show that gopls diagnosed the edit.
func goplsReflects(kind string, p publication) bool {
	undefined := strings.TrimPrefix(breakSuffix, "; _ = ")
	mentions := slices.ContainsFunc(p.Diags, func(d diagKey) bool {
		return d.Source != ctrllintSource && strings.Contains(d.Message, undefined)
	})
	switch kind {
	case editBreak:
		return mentions
	case editFix:
		return !mentions
	}
	return true
}

// editorSession drives one server through the scenario: ctrllint gopls
// when proxy is set (ctrllint's side is then measured), else gopls.
type editorSession struct {
	file  string
	text  string
	line  string
	proxy bool

	s       *lspSession
	u       uri.URI
	version int
	base    []diagKey // ctrllint's diagnostics of the file as on disk
}

// run starts argv in dir, opens the file, and times kinds of edit. It
// returns the time from didOpen to the first diagnostics, the edits'
// times, and ctrllint's finding after the first deletion.
func (e *editorSession) run(dir string, kinds []string, argv ...string) (open time.Duration, edits []editorEdit, finding string, err error) {
	doc, err := findLine(e.text, e.line)
	if err != nil {
		return 0, nil, "", fmt.Errorf("%s: %v", filepath.Base(e.file), err)
	}
	if e.s, err = startLSP(dir, argv...); err != nil {
		return 0, nil, "", err
	}
	defer e.s.kill()
	fail := func(err error) (time.Duration, []editorEdit, string, error) {
		return open, edits, finding, errors.New(e.s.failure(err))
	}
	if open, err = e.open(dir); err != nil {
		return fail(err)
	}
	fmt.Fprintf(os.Stderr, "bench: editor typing: didOpen → first diagnostics %s\n", seconds(open.Seconds()))
	for _, kind := range kinds {
		ed, f, err := e.edit(doc, kind)
		if err != nil {
			return fail(fmt.Errorf("%s: %v", kind, err))
		}
		if finding == "" {
			finding = f
		}
		edits = append(edits, ed)
		fmt.Fprintf(os.Stderr, "bench: editor typing: %s: ctrllint %s, gopls %s\n", kind, durationOrDash(ed.Ctrllint), durationOrDash(ed.Gopls))
	}
	e.s.stop()
	return open, edits, finding, nil
}

func durationOrDash(d time.Duration) string {
	if d == 0 {
		return "–"
	}
	return seconds(d.Seconds())
}

// initializeParams is what Neovim's built-in client (0.11) sends gopls,
// cut to what bears on diagnostics and on gopls's requests of the client.
func initializeParams(dir string) map[string]any {
	root := string(uri.File(dir))
	yes := map[string]any{"dynamicRegistration": false}
	return map[string]any{
		"processId":  os.Getpid(),
		"clientInfo": map[string]any{"name": "Neovim", "version": "0.11.0"},
		"rootUri":    root,
		"rootPath":   dir,
		"workspaceFolders": []any{
			map[string]any{"uri": root, "name": dir},
		},
		"capabilities": map[string]any{
			"general": map[string]any{"positionEncodings": []string{"utf-16"}},
			"textDocument": map[string]any{
				"synchronization": map[string]any{"dynamicRegistration": false, "didSave": true, "willSave": true, "willSaveWaitUntil": true},
				"publishDiagnostics": map[string]any{
					"relatedInformation":     true,
					"versionSupport":         true,
					"tagSupport":             map[string]any{"valueSet": []int{1, 2}},
					"codeDescriptionSupport": true,
					"dataSupport":            true,
				},
				"codeAction": yes,
				"hover":      yes,
			},
			"workspace": map[string]any{
				"configuration":          true,
				"workspaceFolders":       true,
				"applyEdit":              true,
				"didChangeConfiguration": yes,
				"didChangeWatchedFiles":  map[string]any{"dynamicRegistration": true, "relativePatternSupport": true},
			},
			"window": map[string]any{
				"workDoneProgress": true,
				"showMessage":      map[string]any{"messageActionItem": map[string]any{"additionalPropertiesSupport": true}},
				"showDocument":     map[string]any{"support": true},
			},
		},
	}
}

// notify sends a notification whose parameters encoding/json marshals:
// the protocol package's types would add fields of their own.
func (e *editorSession) notify(method string, params any) error {
	raw, err := json.Marshal(params)
	if err != nil {
		return err
	}
	return e.s.conn.Notify(context.Background(), method, jsonrpc2.RawMessage(raw))
}

// open initialises the server and opens the file, and waits for gopls's
// diagnostics of it and, through the proxy, for ctrllint's first analysis
// (its log line: the file has no findings of ctrllint's, so its part of the
// publications does not tell).
func (e *editorSession) open(dir string) (time.Duration, error) {
	ctx := context.Background()
	raw, err := json.Marshal(initializeParams(dir))
	if err != nil {
		return 0, err
	}
	var result jsonrpc2.RawMessage
	if _, err := e.s.conn.Call(ctx, "initialize", jsonrpc2.RawMessage(raw), &result); err != nil {
		return 0, fmt.Errorf("initialize: %v", err)
	}
	if err := e.notify("initialized", struct{}{}); err != nil {
		return 0, fmt.Errorf("initialized: %v", err)
	}
	e.u = uri.File(e.file)
	e.version = 1
	start := time.Now()
	err = e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": e.u, "languageId": "go", "version": e.version, "text": e.text,
	}})
	if err != nil {
		return 0, fmt.Errorf("didOpen: %v", err)
	}
	cl := e.s.cl
	err = cl.waitFor(editorOpenWait, func() bool {
		return firstWithVersion(cl.pubs[e.u], e.version) >= 0 && (!e.proxy || cl.splits > 0)
	})
	if err != nil {
		return 0, fmt.Errorf("after didOpen: %v", err)
	}
	open := time.Since(start)
	e.settle()
	if pubs := cl.publications(e.u, 0); len(pubs) > 0 {
		e.base = ctrllintPart(pubs[len(pubs)-1])
	}
	return open, nil
}

// settle waits until u has had no publication for editorQuiet.
func (e *editorSession) settle() {
	deadline := time.Now().Add(editorQuietMax)
	n, _ := e.s.cl.counts(e.u)
	for time.Now().Before(deadline) {
		time.Sleep(editorQuiet)
		m, _ := e.s.cl.counts(e.u)
		if m == n {
			return
		}
		n = m
	}
}

// edit sends one didChange and waits for ctrllint's publication reflecting
// it (through the proxy, for the measured edit) and gopls's of its
// version, then for quiet. It returns the times and, after a deletion,
// ctrllint's new finding.
func (e *editorSession) edit(doc *lineEditor, kind string) (editorEdit, string, error) {
	cl := e.s.cl
	from, splits := cl.counts(e.u)
	change, err := doc.edit(kind)
	if err != nil {
		return editorEdit{}, "", err
	}
	e.version++
	ed := editorEdit{Kind: kind}
	var finding string
	var start time.Time
	measureCtrllint := e.proxy && (kind == editDelete || kind == editRestore)
	// see records what has come since the didChange; called with cl.mu
	// held.
	see := func() {
		pubs := cl.pubs[e.u][from:]
		if ed.Gopls == 0 {
			for _, p := range pubs {
				if p.Version == e.version && goplsReflects(kind, p) {
					ed.Gopls = p.At.Sub(start)
					break
				}
			}
		}
		if !measureCtrllint || ed.Ctrllint != 0 {
			return
		}
		for _, p := range pubs {
			part := ctrllintPart(p)
			if reflects(kind, part, e.base) {
				ed.Ctrllint = p.At.Sub(start)
				if a := added(e.base, part); len(a) > 0 {
					finding = a[0].Code + ": " + a[0].Message
				}
				// The run logs its split before it publishes, and
				// publications are handled in the order they come.
				if cl.splits > splits {
					ed.Load, ed.Analysis = cl.split[0], cl.split[1]
				}
				return
			}
		}
	}
	start = time.Now()
	err = e.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": e.u, "version": e.version},
		"contentChanges": []textChange{change},
	})
	if err != nil {
		return ed, "", fmt.Errorf("didChange: %v", err)
	}
	if measureCtrllint {
		err := cl.waitFor(editorCtrllintWait, func() bool { see(); return ed.Ctrllint != 0 })
		if err != nil {
			return ed, "", fmt.Errorf("ctrllint's diagnostics after didChange: %v", err)
		}
	}
	// gopls need not publish at all when its list is unchanged: no
	// publication within the wait is a finding, not a failure.
	cl.waitFor(max(time.Until(start.Add(editorGoplsWait)), 0), func() bool { see(); return ed.Gopls != 0 })
	e.settle()
	return ed, finding, nil
}

// stats are the median and the values of the edits of kind whose time f
// gives, and how many edits of kind there were.
func editStats(edits []editorEdit, kind string, f func(editorEdit) time.Duration) (xs []float64, n int) {
	for _, ed := range edits {
		if ed.Kind != kind {
			continue
		}
		n++
		if d := f(ed); d != 0 {
			xs = append(xs, d.Seconds())
		}
	}
	return xs, n
}

func ctrllintTime(ed editorEdit) time.Duration { return ed.Ctrllint }
func loadTime(ed editorEdit) time.Duration     { return ed.Load }
func analysisTime(ed editorEdit) time.Duration { return ed.Analysis }
func goplsTime(ed editorEdit) time.Duration    { return ed.Gopls }

// editCell is a column's cell: median (spread), and how many edits had a
// publication when not all did.
func editCell(edits []editorEdit, kind string, f func(editorEdit) time.Duration) string {
	xs, n := editStats(edits, kind, f)
	switch {
	case n == 0:
		return "–"
	case len(xs) == 0:
		return fmt.Sprintf("none (0 of %d)", n)
	}
	cell := seconds(median(xs)) + spread(xs, seconds)
	if len(xs) < n {
		cell += fmt.Sprintf(" (%d of %d)", len(xs), n)
	}
	return cell
}

// splitCell is editCell for ctrllint's own split, which a run that
// published nothing new did not log: "–" rather than "none".
func splitCell(edits []editorEdit, kind string, f func(editorEdit) time.Duration) string {
	if xs, _ := editStats(edits, kind, f); len(xs) == 0 {
		return "–"
	}
	return editCell(edits, kind, f)
}

// editorTable is the scenario's table, a row per kind of edit.
func editorTable(r *editorResult) *table {
	tb := &table{
		header: []string{"edit", "ctrllint: didChange → merged publication", "of which load", "of which analysis", "gopls alone: didChange → publication", "gopls through ctrllint gopls", "edits"},
		right:  []bool{false, true, true, true, true, true, true},
	}
	for _, kind := range []string{editDelete, editRestore, editBreak, editFix} {
		_, np := editStats(r.Proxy, kind, goplsTime)
		_, na := editStats(r.Alone, kind, goplsTime)
		if np+na == 0 {
			continue
		}
		tb.add(kind, editCell(r.Proxy, kind, ctrllintTime), splitCell(r.Proxy, kind, loadTime), splitCell(r.Proxy, kind, analysisTime),
			editCell(r.Alone, kind, goplsTime), editCell(r.Proxy, kind, goplsTime), fmt.Sprint(max(np, na)))
	}
	return tb
}

// ctrllintMedian is the median of ctrllint's times over every measured
// edit; NaN when none.
func (r *editorResult) ctrllintMedian() float64 {
	var xs []float64
	for _, ed := range r.Proxy {
		if ed.Ctrllint != 0 {
			xs = append(xs, ed.Ctrllint.Seconds())
		}
	}
	return median(xs)
}

// editorVerdict is the editor target, checked.
func editorVerdict(r *editorResult) verdict {
	v := verdict{Target: "editor: didChange → ctrllint's merged diagnostics < 1 s"}
	switch {
	case r.Skipped != "":
		v.Measured = "skipped: " + r.Skipped
	case r.Err != "" && len(r.Proxy) == 0:
		v.Measured = "failed: " + r.Err
	default:
		x := r.ctrllintMedian()
		v.Measured, v.Met, v.Known = "median "+seconds(x), x < 1, !math.IsNaN(x)
		if !v.Known {
			v.Measured = "no edit measured"
		}
	}
	return v
}

// editorMarkdown is the scenario's section of the report.
func editorMarkdown(r *editorResult) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("\n## Editor, typing\n\n")
	if r.Skipped != "" {
		p("%s: skipped: %s.\n", r.Name, r.Skipped)
		return b.String()
	}
	p("`%s`, in a temporary module holding a copy of the package (and the go.mod and go.sum it builds with), opened in `ctrllint gopls` (%s) ", r.Name, orDash(r.Gopls))
	p("as Neovim opens it (versioned diagnostics, gopls's requests of the client answered), then edited through didChange alone, nothing saved: ")
	p("each edit in turn, after the previous one's diagnostics and a quiet second. ")
	p("The edit deletes the line `%s`", strings.TrimSpace(r.Line))
	if r.Finding != "" {
		p(" (ctrllint then reports %s)", r.Finding)
	}
	p(", then puts it back. ")
	p("**ctrllint**: didChange until the first merged publishDiagnostics whose ctrllint part (the diagnostics whose source is \"ctrllint\") is that of the new text. ")
	p("The load/analysis split is ctrllint's own log line for the run whose diagnostics those were. ")
	p("**gopls**: didChange until the first publishDiagnostics carrying the new version (for the edit gopls diagnoses, the first that says so); in a separate session of gopls alone, and through ctrllint gopls (whose merged publication carries gopls's last version). ")
	if xs, n := editStats(r.Alone, editDelete, goplsTime); n > 0 && len(xs) == 0 {
		p("gopls published nothing after an edit that left its own list unchanged (\"none\": it does not republish an unchanged list, even for a new version), ")
		p("so it is also timed on an edit of the same line that it does diagnose (`%s` appended, then taken off). ", strings.TrimPrefix(breakSuffix, "; "))
	} else {
		p("gopls published a list carrying each new version even where the list was unchanged; ")
		p("it is also timed on an edit of the same line that changes its own list (`%s` appended, then taken off). ", strings.TrimPrefix(breakSuffix, "; "))
	}
	p("didOpen → first diagnostics (both gopls's and ctrllint's first analysis): %s. Median (min–max) of the edits.\n\n", seconds(r.Open.Seconds()))
	p("%s", editorTable(r))
	if r.Err != "" {
		p("\nFailed: %s\n", r.Err)
	}
	return b.String()
}
