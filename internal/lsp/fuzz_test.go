package lsp

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"

	"go.lsp.dev/jsonrpc2"
)

// FuzzFrames: arbitrary input never panics, no frame is read beyond the
// bound nor allocated much beyond it, every message accepted encodes,
// frames and reads back as itself, and so does the answer to a body that
// is no message.
func FuzzFrames(f *testing.F) {
	frame := func(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }
	for _, seed := range []string{
		frame(initialize),
		frame(`{"jsonrpc":"2.0","method":"exit"}`) + frame(`{"jsonrpc":"2.0","id":"s","result":{"a":[1,2]}}`),
		frame(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"m","data":[1]}}`),
		frame(`{"jsonrpc":"1.0","id":7,"method":"x"}`) + frame(`{}`) + frame(`[`),
		frame(`{"jsonrpc":"2.0","id":null,"method":"x"}`) + frame(`{"jsonrpc":"2.0","method":"x","params":5}`) + frame(`[{"a":1}]`),
		frame(`{"jsonrpc":"2.0","id":1,"result":1,"error":{}}`) + frame(`{"jsonrpc":"2\u002e0","\u0069d":"i","method":"m\u00e9","params":[]}`),
		"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: 2\n\n{}",
		"Content-Length: 4611686018427387904\r\n\r\n",
		"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
		"Content-Length: 9\r\n\r\n{\"a\"",
		"garbage\r\n\r\n",
	} {
		f.Add([]byte(seed))
	}
	const limit = 1 << 12
	f.Fuzz(func(t *testing.T, input []byte) {
		r := newFrameReader(bytes.NewReader(input), limit)
		for {
			body, err := r.read()
			if err != nil {
				if err != io.EOF && !errors.Is(err, errFraming) {
					t.Fatalf("error %v is neither the end nor broken framing", err)
				}
				return
			}
			if len(body) > limit || cap(body) > 2*limit {
				t.Fatalf("a %d-byte body in %d bytes, bound %d", len(body), cap(body), limit)
			}
			msg, no := decode(body)
			if no != nil {
				if no.code == 0 {
					continue // a response that is none, not answered
				}
				msg = no.reply()
			}
			again := reread(t, msg)
			if a, b := describe(msg), describe(again); a != b {
				t.Fatalf("body %q\ndecoded as %s\nread back as %s", body, a, b)
			}
		}
	})
}

// reread encodes and frames msg as the server writes it and reads it back.
func reread(t *testing.T, msg jsonrpc2.Message) jsonrpc2.Message {
	t.Helper()
	var buf bytes.Buffer
	w := jsonrpc2.NewHeaderStream(nopCloser{&buf})
	if _, err := w.Write(t.Context(), msg); err != nil {
		t.Fatal(err)
	}
	wire := bytes.Clone(buf.Bytes())
	body, err := newFrameReader(&buf, maxMessage).read()
	if err != nil {
		t.Fatalf("reading back %q: %v", wire, err)
	}
	again, err := jsonrpc2.DecodeMessage(body)
	if err != nil {
		t.Fatalf("decoding %q: %v", wire, err)
	}
	return again
}

// describe renders every part of a message.
func describe(m jsonrpc2.Message) string {
	switch m := m.(type) {
	case *jsonrpc2.Call:
		return fmt.Sprintf("call %v %q %q", m.ID(), m.Method(), m.Params())
	case *jsonrpc2.Notification:
		return fmt.Sprintf("notification %q %q", m.Method(), m.Params())
	case *jsonrpc2.Response:
		var e *jsonrpc2.Error
		if errors.As(m.Err(), &e) {
			return fmt.Sprintf("error response %v %d %q %q", m.ID(), e.Code, e.Message, e.Data)
		}
		return fmt.Sprintf("response %v %q %v", m.ID(), m.Result(), m.Err())
	}
	return fmt.Sprintf("%T", m)
}

type nopCloser struct{ io.ReadWriter }

func (nopCloser) Close() error { return nil }
