package goplsproxy

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/ctrllint/ctrllint/internal/lsp"
)

// noAnalyzer is ctrllint's side with nothing to say.
type noAnalyzer struct{}

func (noAnalyzer) DidOpen(*protocol.DidOpenTextDocumentParams)     {}
func (noAnalyzer) DidChange(*protocol.DidChangeTextDocumentParams) {}
func (noAnalyzer) DidSave(*protocol.DidSaveTextDocumentParams)     {}
func (noAnalyzer) DidClose(*protocol.DidCloseTextDocumentParams)   {}
func (noAnalyzer) CodeAction(*protocol.CodeActionParams) ([]protocol.CommandOrCodeAction, error) {
	return nil, nil
}
func (noAnalyzer) Diagnostics(uri.URI) []protocol.Diagnostic { return nil }
func (noAnalyzer) Shutdown()                                 {}

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

// fakeGopls writes a gopls that prints out, then records its input in
// the file it returns the path of, until its input ends.
func fakeGopls(t *testing.T, out string) (gopls, input string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake gopls is a shell script")
	}
	dir := t.TempDir()
	gopls, input = filepath.Join(dir, "gopls"), filepath.Join(dir, "input")
	if err := os.WriteFile(filepath.Join(dir, "out"), []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf("#!/bin/sh\ncat %q\ncat >%q\n", filepath.Join(dir, "out"), input)
	if err := os.WriteFile(gopls, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return gopls, input
}

// Messages the proxy does not merge pass both ways byte for byte, however
// they are spelled (spaces, field order, ids), and a client that goes
// away gets gopls shut down with a shutdown and an exit of the proxy's.
func TestBytesThrough(t *testing.T) {
	fromGopls := frame(`{ "result" : {"contents":"x"} , "id" : "a", "jsonrpc":"2.0" }`) +
		frame(`{"jsonrpc":"2.0","method":"$/progress","params":{"token":1,"value":{"kind":"begin","title":"t"}}}`) +
		frame(`{"jsonrpc":"2.0","id":0,"method":"workspace/configuration","params":{"items":[{}]}}`)
	fromClient := frame(`{"jsonrpc":"2.0", "id": "a" ,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///x.go"},"position":{"line":0,"character":0}}}`) +
		frame(`{"jsonrpc":"2.0","id":0,"result":[null]}`) +
		frame(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"a"}}`)
	gopls, input := fakeGopls(t, fromGopls)
	var out strings.Builder
	code := Run(context.Background(), io.NopCloser(strings.NewReader(fromClient)), &out, Options{
		Gopls: gopls, Stderr: io.Discard,
		Analyzer: func(context.Context, lsp.Client) Analyzer { return noAnalyzer{} },
	})
	if code != 1 {
		t.Errorf("exit status %d, want 1: the client went away without shutdown", code)
	}
	if out.String() != fromGopls {
		t.Errorf("the client got\n%q\nwant gopls's bytes\n%q", out.String(), fromGopls)
	}
	got, err := os.ReadFile(input)
	if err != nil {
		t.Fatal(err)
	}
	want := fromClient + frame(`{"jsonrpc":"2.0","id":"ctrllint-gopls-shutdown","method":"shutdown"}`) + frame(`{"jsonrpc":"2.0","method":"exit"}`)
	if string(got) != want {
		t.Errorf("gopls got\n%q\nwant the client's bytes, then shutdown and exit\n%q", got, want)
	}
}

// Output from gopls that breaks the framing loses every later message:
// the proxy kills gopls, tells the client and exits with status 1.
func TestBrokenFrameFromGopls(t *testing.T) {
	gopls, _ := fakeGopls(t, "Content-Length: many\r\n\r\n")
	inR, inW := io.Pipe()
	defer inW.Close()
	var out strings.Builder
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- Run(context.Background(), inR, &out, Options{
			Gopls: gopls, Stderr: &stderr,
			Analyzer: func(context.Context, lsp.Client) Analyzer { return noAnalyzer{} },
		})
	}()
	select {
	case code := <-done:
		if code != 1 {
			t.Errorf("exit status %d, want 1", code)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not return")
	}
	if !strings.Contains(stderr.String(), `reading from gopls: Content-Length "many" is not a length`) ||
		!strings.Contains(out.String(), `"method":"window/showMessage"`) || !strings.Contains(out.String(), "gopls exited unexpectedly (signal: killed)") {
		t.Errorf("stderr %q, the client got %q", stderr.String(), out.String())
	}
	noLeaks(t)
}

// A gopls that cannot be started: exit status 2 and why.
func TestNoGopls(t *testing.T) {
	var stderr strings.Builder
	code := Run(context.Background(), io.NopCloser(strings.NewReader("")), io.Discard, Options{
		Gopls: filepath.Join(t.TempDir(), "gopls"), Stderr: &stderr,
		Analyzer: func(context.Context, lsp.Client) Analyzer { return noAnalyzer{} },
	})
	if code != 2 || !strings.Contains(stderr.String(), "ctrllint gopls: starting gopls: ") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}
