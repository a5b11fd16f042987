package main

import (
	"context"
	"math"
	"net"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/uri"

	"github.com/ctrllint/ctrllint/internal/lsp"
)

// These test the editor-typing scenario without a gopls: the edits and
// the changes that carry them, the recognition of publications, the
// client's answers to gopls's requests, the flags, the table and the
// verdict.

const processNext = `package deployment

func (dc *DeploymentController) processNextWorkItem(ctx context.Context) bool {
	key, quit := dc.queue.Get()
	if quit {
		return false
	}
	defer dc.queue.Done(key)

	err := dc.syncHandler(ctx, key)
	return true
}
`

// applyChange applies an incremental change whose range starts and ends
// at line starts, as a server does.
func applyChange(text string, c textChange) string {
	lines := strings.SplitAfter(text, "\n")
	return strings.Join(lines[:c.Range.Start.Line], "") + c.Text + strings.Join(lines[c.Range.End.Line:], "")
}

func TestLineEditor(t *testing.T) {
	doc, err := findLine(processNext, "defer dc.queue.Done(key)")
	if err != nil {
		t.Fatal(err)
	}
	if doc.line != 7 || doc.orig != "\tdefer dc.queue.Done(key)" {
		t.Fatalf("found line %d %q", doc.line, doc.orig)
	}
	server := processNext // the text as the server has it after each change
	for _, step := range []struct {
		kind    string
		want    string // line 8 afterwards
		present bool
	}{
		{editDelete, "", false},
		{editRestore, "\tdefer dc.queue.Done(key)\n", true},
		{editDelete, "", false},
		{editRestore, "\tdefer dc.queue.Done(key)\n", true},
		{editBreak, "\tdefer dc.queue.Done(key); _ = ctrllintBenchUndefined\n", true},
		{editFix, "\tdefer dc.queue.Done(key)\n", true},
	} {
		c, err := doc.edit(step.kind)
		if err != nil {
			t.Fatalf("%s: %v", step.kind, err)
		}
		server = applyChange(server, c)
		if server != doc.text {
			t.Fatalf("%s: the change %+v gives the server\n%s\nbut the editor has\n%s", step.kind, c, server, doc.text)
		}
		lines := strings.SplitAfter(doc.text, "\n")
		if step.present && lines[7] != step.want || !step.present && (len(lines) != len(strings.SplitAfter(processNext, "\n"))-1 || strings.Contains(doc.text, "Done")) {
			t.Errorf("after %s, the text is\n%s", step.kind, doc.text)
		}
	}
	if doc.text != processNext {
		t.Errorf("after fixing, the text differs from the file:\n%s", doc.text)
	}
	if _, err := doc.edit("retype"); err == nil {
		t.Error("an unknown edit was accepted")
	}

	for _, tc := range []struct{ text, line, want string }{
		{processNext, "defer dc.queue.Forget(key)", "no line"},
		{processNext + "\tdefer dc.queue.Done(key)\n", "defer dc.queue.Done(key)", "occurs twice (lines 8 and 13)"},
		{"package p\n\tdefer dc.queue.Done(key)", "defer dc.queue.Done(key)", "without a newline"},
	} {
		if _, err := findLine(tc.text, tc.line); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("findLine(%q): %v, want an error saying %q", tc.line, err, tc.want)
		}
	}
}

func TestEditKinds(t *testing.T) {
	if got, want := editKinds(3, false), []string{editDelete, editRestore, editDelete, editRestore}; !slices.Equal(got, want) {
		t.Errorf("editKinds(3, false) = %q, want %q (ending with the text as it was)", got, want)
	}
	if got, want := editKinds(2, true), []string{editDelete, editRestore, editBreak, editFix}; !slices.Equal(got, want) {
		t.Errorf("editKinds(2, true) = %q, want %q", got, want)
	}
}

func TestReflects(t *testing.T) {
	compiler := diagKey{Source: "compiler", Message: "declared and not used: x"}
	other := diagKey{Source: ctrllintSource, Code: "forget", Message: "key not forgotten"}
	queue := diagKey{Source: ctrllintSource, Code: "queuedone", Message: "key from dc.queue.Get() is not marked Done on this path"}
	// gopls's own diagnostics are no part of ctrllint's.
	part := ctrllintPart(publication{Diags: []diagKey{compiler, other, queue}})
	if !slices.Equal(part, []diagKey{other, queue}) {
		t.Errorf("ctrllintPart = %v", part)
	}
	base := []diagKey{other}
	for _, tc := range []struct {
		kind string
		part []diagKey
		want bool
	}{
		{editDelete, []diagKey{other, queue}, true},
		{editDelete, []diagKey{queue, other}, true},
		// gopls's publication for the new version, before ctrllint's
		// analysis: ctrllint's part is still the file's.
		{editDelete, []diagKey{other}, false},
		{editDelete, nil, false},
		{editRestore, []diagKey{other}, true},
		// gopls's publication after the undoing, ctrllint's part still
		// that of the deletion.
		{editRestore, []diagKey{other, queue}, false},
		{editRestore, nil, false},
		{editRestore, []diagKey{other, other}, false},
	} {
		if got := reflects(tc.kind, tc.part, base); got != tc.want {
			t.Errorf("reflects(%s, %v, %v) = %v, want %v", tc.kind, tc.part, base, got, tc.want)
		}
	}
	// A file without findings of ctrllint's, as the deployment controller.
	if !reflects(editRestore, nil, nil) || reflects(editDelete, nil, nil) || !reflects(editDelete, []diagKey{queue}, nil) {
		t.Error("reflects against an empty base")
	}
	if got := added([]diagKey{other, queue}, []diagKey{queue, other, other}); !slices.Equal(got, []diagKey{other}) {
		t.Errorf("added counts duplicates: %v", got)
	}
	// gopls's part for the edit it diagnoses; ctrllint's messages do not
	// count.
	undefined := publication{Diags: []diagKey{{Source: "compiler", Code: "UndeclaredName", Message: "undefined: ctrllintBenchUndefined"}}}
	parseOnly := publication{Diags: []diagKey{{Source: ctrllintSource, Message: "ctrllintBenchUndefined"}}}
	for _, tc := range []struct {
		kind string
		p    publication
		want bool
	}{
		{editBreak, undefined, true},
		{editBreak, parseOnly, false},
		{editBreak, publication{}, false},
		{editFix, publication{}, true},
		{editFix, undefined, false},
		{editDelete, undefined, true},
		{editRestore, publication{}, true},
	} {
		if got := goplsReflects(tc.kind, tc.p); got != tc.want {
			t.Errorf("goplsReflects(%s, %v) = %v, want %v", tc.kind, tc.p.Diags, got, tc.want)
		}
	}
	pubs := []publication{{Version: -1}, {Version: 3}, {Version: 4}, {Version: 4}}
	if firstWithVersion(pubs, 4) != 2 || firstWithVersion(pubs, 5) != -1 {
		t.Error("firstWithVersion")
	}
}

func TestParsePublication(t *testing.T) {
	u, p, err := parsePublication([]byte(`{"uri":"file:///m/d/f.go","version":7,"diagnostics":[
		{"range":{"start":{"line":1,"character":0},"end":{"line":1,"character":2}},"source":"compiler","code":"UndeclaredName","codeDescription":{"href":"https://pkg.go.dev/x"},"message":"undefined: y","tags":[1]},
		{"range":{"start":{"line":4,"character":1},"end":{"line":4,"character":2}},"severity":2,"source":"ctrllint","code":"queuedone","message":"not Done"},
		{"range":{"start":{"line":4,"character":1},"end":{"line":4,"character":2}},"code":12,"message":"numbered"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []diagKey{{"compiler", "UndeclaredName", "undefined: y"}, {"ctrllint", "queuedone", "not Done"}, {"", "12", "numbered"}}
	if u != uri.File("/m/d/f.go") || p.Version != 7 || !slices.Equal(p.Diags, want) {
		t.Errorf("got %s %+v", u, p)
	}
	// ctrllint's own publication, before gopls has published a version.
	if _, p, err := parsePublication([]byte(`{"uri":"file:///f.go","diagnostics":[]}`)); err != nil || p.Version != -1 || len(p.Diags) != 0 {
		t.Errorf("no version: %+v, %v", p, err)
	}
	if _, _, err := parsePublication([]byte(`{"uri":3}`)); err == nil {
		t.Error("a bad publication parsed")
	}
}

// The client answers the requests gopls waits for, and records
// publications, over a real connection.
func TestClientAnswersGopls(t *testing.T) {
	a, b := net.Pipe()
	cl := newLSPClient()
	client := jsonrpc2.NewConn(jsonrpc2.NewStream(a), jsonrpc2.WithCodec(lsp.Codec{}))
	client.Go(context.Background(), cl.handler())
	defer client.Close()
	server := jsonrpc2.NewConn(jsonrpc2.NewStream(b), jsonrpc2.WithCodec(lsp.Codec{}))
	server.Go(context.Background(), jsonrpc2.MethodNotFoundHandler)
	defer server.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, tc := range []struct{ method, params, want string }{
		{"workspace/configuration", `{"items":[{"section":"gopls"},{"scopeUri":"file:///m"}]}`, "[null,null]"},
		{"workspace/configuration", `{"items":[]}`, "[]"},
		{"window/workDoneProgress/create", `{"token":"1"}`, "null"},
		{"client/registerCapability", `{"registrations":[]}`, "null"},
	} {
		var got jsonrpc2.RawMessage
		if _, err := server.Call(ctx, tc.method, jsonrpc2.RawMessage(tc.params), &got); err != nil {
			t.Errorf("%s: %v", tc.method, err)
		} else if string(got) != tc.want {
			t.Errorf("%s = %s, want %s", tc.method, got, tc.want)
		}
	}
	u := uri.File("/m/f.go")
	if err := server.Notify(ctx, "textDocument/publishDiagnostics", jsonrpc2.RawMessage(`{"uri":"file:///m/f.go","version":2,"diagnostics":[{"source":"ctrllint","code":"queuedone","message":"m","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}}]}`)); err != nil {
		t.Fatal(err)
	}
	if err := cl.await(u, 0, -1, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	pubs := cl.publications(u, 0)
	if len(pubs) != 1 || pubs[0].Version != 2 || pubs[0].At.IsZero() || len(ctrllintPart(pubs[0])) != 1 {
		t.Errorf("recorded %+v", pubs)
	}
}

func TestEditorFlags(t *testing.T) {
	o, err := parseFlags(nil)
	if err != nil {
		t.Fatal(err)
	}
	if o.editor != "kubernetes:k8s.io/kubernetes/pkg/controller/deployment:deployment_controller.go" || o.editorEdits != 6 || o.editorLine != "defer dc.queue.Done(key)" {
		t.Errorf("defaults: %q, %d, %q", o.editor, o.editorEdits, o.editorLine)
	}
	name, pkg, file, err := parseEditor(o.editor)
	if err != nil || name != "kubernetes" || pkg != "k8s.io/kubernetes/pkg/controller/deployment" || file != "deployment_controller.go" {
		t.Errorf("parseEditor: %q %q %q %v", name, pkg, file, err)
	}
	t.Setenv("CTRLLINT_CACHE", "/c")
	if got := defaultGopls(); got != "/c/gopls-v0.23.0/gopls" {
		t.Errorf("defaultGopls = %q, want hack/gopls/build.sh's path", got)
	}
	for _, tc := range []struct {
		args []string
		want string // in the error
	}{
		{[]string{"-editor", "kubernetes:deployment_controller.go"}, "want ENTRY:PACKAGE:FILE"},
		{[]string{"-editor", "kubernetes:k8s.io/x:"}, "want ENTRY:PACKAGE:FILE"},
		{[]string{"-editor", "kubernetes:k8s.io/x:sub/f.go"}, "want ENTRY:PACKAGE:FILE"},
		{[]string{"-editor-edits", "0"}, "-editor-edits must be at least 1"},
		{[]string{"-editor-line", " "}, "-editor-line is empty"},
	} {
		if _, err := parseFlags(tc.args); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("parseFlags(%q): %v, want an error saying %q", tc.args, err, tc.want)
		}
	}
	// Skipping the scenario skips checking its other flags.
	if _, err := parseFlags([]string{"-editor", "", "-editor-edits", "0"}); err != nil {
		t.Errorf("-editor \"\": %v", err)
	}
}

// Without gopls the scenario is skipped, not failed, before anything is
// materialised.
func TestEditorWithoutGopls(t *testing.T) {
	missing := t.TempDir() + "/gopls"
	b := &bench{o: &options{editor: "nope:example.com/p:f.go", editorLine: "x", editorEdits: 2, gopls: missing}}
	r := b.editorTyping(&corpusConfig{})
	if r.Err != "" || !strings.Contains(r.Skipped, "no gopls") || !strings.Contains(r.Skipped, "make gopls") {
		t.Errorf("result %+v", r)
	}
	md := editorMarkdown(r)
	if !strings.Contains(md, "## Editor, typing") || !strings.Contains(md, "skipped: no gopls") {
		t.Errorf("markdown:\n%s", md)
	}
	if v := editorVerdict(r); v.Known || !strings.Contains(v.String(), "not measured (skipped: no gopls") {
		t.Errorf("verdict %s", v)
	}
	// A gopls that is there, with an entry that is not.
	gopls := t.TempDir() + "/gopls"
	if err := os.WriteFile(gopls, []byte("#!/bin/sh\necho gopls v0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	b.o.gopls = gopls
	if r := b.editorTyping(&corpusConfig{}); r.Skipped != "" || !strings.Contains(r.Err, `no entry "nope"`) {
		t.Errorf("a missing entry: %+v", r)
	}
}

func editorSample() *editorResult {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	return &editorResult{
		Name: "kubernetes:p:f.go", Line: "\tdefer dc.queue.Done(key)", Gopls: "gopls v0.23.0",
		Finding: "queuedone: not Done", Open: 3 * time.Second,
		Proxy: []editorEdit{
			{Kind: editDelete, Ctrllint: ms(1500), Load: ms(1400), Analysis: ms(90), Gopls: ms(40)},
			{Kind: editRestore, Ctrllint: ms(900), Gopls: ms(30)},
			{Kind: editDelete, Ctrllint: ms(1300), Load: ms(1200), Analysis: ms(70), Gopls: ms(60)},
			{Kind: editRestore, Ctrllint: ms(700)},
		},
		Alone: []editorEdit{
			{Kind: editDelete}, {Kind: editRestore}, {Kind: editDelete}, {Kind: editRestore},
			{Kind: editBreak, Gopls: ms(300)}, {Kind: editFix, Gopls: ms(10)},
		},
	}
}

func TestEditorTable(t *testing.T) {
	r := editorSample()
	got := editorTable(r).String()
	for _, want := range []string{
		"| delete the line | 1.40 s (1.30–1.50 s) | 1.30 s (1.20–1.40 s) | 80 ms (70–90 ms) | none (0 of 2) | 50 ms (40–60 ms) | 2 |",
		"| put it back | 800 ms (700–900 ms) | – | – | none (0 of 2) | 30 ms (1 of 2) | 2 |",
		"| break it (undefined name) | – | – | – | 300 ms | – | 1 |",
	} {
		want = strings.Join(strings.Fields(want), " ")
		if !strings.Contains(strings.Join(strings.Fields(got), " "), want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
	md := editorMarkdown(r)
	for _, want := range []string{"ctrllint then reports queuedone: not Done", "it does not republish an unchanged list", "didOpen → first diagnostics (both gopls's and ctrllint's first analysis): 3.00 s"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	r.Alone[0].Gopls = 20 * time.Millisecond
	if md := editorMarkdown(r); !strings.Contains(md, "gopls published a list carrying each new version even where the list was unchanged") {
		t.Errorf("markdown when gopls republishes:\n%s", md)
	}
}

func TestEditorVerdict(t *testing.T) {
	r := editorSample()
	if got := editorVerdict(r).String(); got != "- editor: didChange → ctrllint's merged diagnostics < 1 s: **not met** (median 1.10 s)" {
		t.Errorf("verdict %q", got)
	}
	for i := range r.Proxy {
		r.Proxy[i].Ctrllint /= 2
	}
	if got := editorVerdict(r).String(); !strings.Contains(got, "**met** (median 550 ms)") {
		t.Errorf("verdict %q", got)
	}
	failed := &editorResult{Err: "through ctrllint gopls: initialize: EOF"}
	if got := editorVerdict(failed).String(); !strings.Contains(got, "not measured (failed: through ctrllint gopls: initialize: EOF)") {
		t.Errorf("verdict of a failure %q", got)
	}
	if !math.IsNaN(failed.ctrllintMedian()) {
		t.Error("median of no edits")
	}
}
