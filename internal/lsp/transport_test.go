package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// syncBuffer is the server's log.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// rawSession is a server whose client writes bytes, not messages.
type rawSession struct {
	conn net.Conn
	msgs chan received // what the server sends
	log  *syncBuffer
	exit chan int
}

// received is a message from the server, and its bytes.
type received struct {
	msg  jsonrpc2.Message
	body []byte
	// members are the body's top-level members.
	members map[string]json.RawMessage
}

func startRaw(t *testing.T) *rawSession {
	t.Helper()
	serverEnd, clientEnd := net.Pipe()
	opts := testOptions()
	s := &rawSession{conn: clientEnd, msgs: make(chan received, 100), log: &syncBuffer{}, exit: make(chan int, 1)}
	opts.Log = s.log
	go func() { s.exit <- Serve(context.Background(), serverEnd, opts) }()
	var mu sync.Mutex
	var wrong []string // what the server wrote that is no JSON-RPC 2.0 message
	go func() {
		frames := newFrameReader(clientEnd, maxMessage)
		for {
			body, err := frames.read()
			if err != nil {
				close(s.msgs)
				return
			}
			r := received{body: body}
			var err2 error
			if r.msg, err2 = jsonrpc2.DecodeMessage(body); err2 != nil || json.Unmarshal(body, &r.members) != nil {
				mu.Lock()
				wrong = append(wrong, fmt.Sprintf("%q: %v", body, err2))
				mu.Unlock()
				continue
			}
			// A response has either a result or an error, never both
			// (DecodeMessage refuses both, not neither).
			if _, ok := r.msg.(*jsonrpc2.Response); ok {
				_, res := r.members["result"]
				_, e := r.members["error"]
				if res == e {
					mu.Lock()
					wrong = append(wrong, fmt.Sprintf("%q: a response with result %v and error %v", body, res, e))
					mu.Unlock()
				}
			}
			s.msgs <- r
		}
	}()
	t.Cleanup(func() {
		clientEnd.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, w := range wrong {
			t.Errorf("the server wrote %s", w)
		}
	})
	return s
}

// send writes a frame with body, and headers in front of it if given
// (else a Content-Length that fits).
func (s *rawSession) send(t *testing.T, headers, body string) {
	t.Helper()
	if headers == "" {
		headers = fmt.Sprintf("Content-Length: %d\r\n\r\n", len(body))
	}
	s.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
	if _, err := s.conn.Write([]byte(headers + body)); err != nil {
		t.Fatalf("writing: %v", err)
	}
}

// response waits for the response with id, skipping notifications.
func (s *rawSession) response(t *testing.T, id jsonrpc2.ID) *jsonrpc2.Response {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case m, ok := <-s.msgs:
			if !ok {
				t.Fatalf("the server closed the connection; log:\n%s", s.log)
			}
			if r, ok := m.msg.(*jsonrpc2.Response); ok && r.ID() == id {
				return r
			}
		case <-timeout:
			t.Fatalf("no response %v; log:\n%s", id, s.log)
		}
	}
}

func (s *rawSession) status(t *testing.T) int {
	t.Helper()
	select {
	case code := <-s.exit:
		return code
	case <-time.After(10 * time.Second):
		t.Fatalf("Serve did not return; log:\n%s", s.log)
		return 0
	}
}

func errorCode(r *jsonrpc2.Response) jsonrpc2.Code {
	var e *jsonrpc2.Error
	if errors.As(r.Err(), &e) {
		return e.Code
	}
	return 0
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`

// A message that is not JSON, not a request or whose params do not decode
// is answered with JSON-RPC's error, logged, and the server goes on.
func TestMalformedMessages(t *testing.T) {
	null := jsonrpc2.ID{}
	for _, tc := range []struct {
		name string
		body string
		id   jsonrpc2.ID
		code jsonrpc2.Code
		log  string
	}{
		{"not JSON", `{"jsonrpc":"2.0","id":3,`, null, jsonrpc2.ParseError, `refused a message: the message is not JSON: "{\"jsonrpc\":\"2.0\",\"id\":3,"`},
		{"empty body", ``, null, jsonrpc2.ParseError, `refused a message: the message is not JSON: ""`},
		{"empty object", `{}`, null, jsonrpc2.InvalidRequest, `refused a message: the message is not a JSON-RPC 2.0 request: "{}"`},
		{"batch", `[]`, null, jsonrpc2.InvalidRequest, `refused a message: the message is not a JSON-RPC 2.0 request: "[]"`},
		{"wrong version", `{"jsonrpc":"1.0","id":7,"method":"initialize"}`, jsonrpc2.NewNumberID(7), jsonrpc2.InvalidRequest, `refused a message: the message is not a JSON-RPC 2.0 request`},
		{"bad params", `{"jsonrpc":"2.0","id":5,"method":"textDocument/codeAction","params":{"textDocument":5}}`, jsonrpc2.NewNumberID(5), jsonrpc2.InvalidParams, `refused a textDocument/codeAction request: invalid params: `},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := startRaw(t)
			s.send(t, "", tc.body)
			if r := s.response(t, tc.id); errorCode(r) != tc.code {
				t.Errorf("response %v, want error %d", r.Err(), tc.code)
			}
			if !strings.Contains(s.log.String(), tc.log) {
				t.Errorf("log:\n%s\nwant a line containing %s", s.log, tc.log)
			}
			// Still serving.
			s.send(t, "", initialize)
			if r := s.response(t, jsonrpc2.NewNumberID(1)); r.Err() != nil {
				t.Errorf("initialize after it: %v", r.Err())
			}
			s.send(t, "", `{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)
			s.response(t, jsonrpc2.NewNumberID(2))
			s.send(t, "", `{"jsonrpc":"2.0","method":"exit"}`)
			if code := s.status(t); code != 0 {
				t.Errorf("exit status %d after shutdown and exit", code)
			}
		})
	}
}

// A broken header loses the message boundaries: the server says why and
// exits with status 1. It never allocates what a Content-Length announces
// before the bytes arrive.
func TestBrokenFraming(t *testing.T) {
	for _, tc := range []struct {
		name  string
		input string
		log   string
	}{
		{"no Content-Length", "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}", "reading from the client: a message has no Content-Length header"},
		{"non-numeric Content-Length", "Content-Length: twelve\r\n\r\n", `reading from the client: Content-Length "twelve" is not a length`},
		{"negative Content-Length", "Content-Length: -3\r\n\r\n", `reading from the client: Content-Length "-3" is not a length`},
		{"huge Content-Length", "Content-Length: 4611686018427387904\r\n\r\n", "reading from the client: Content-Length 4611686018427387904 is more than the 67108864 bytes a message may have"},
		{"beyond int64", "Content-Length: 99999999999999999999999\r\n\r\n", "reading from the client: Content-Length 99999999999999999999999 is more than"},
		{"1 GiB", "Content-Length: 1073741824\r\n\r\n{", "reading from the client: Content-Length 1073741824 is more than"},
		{"no colon", "Content-Length 12\r\n\r\n", `reading from the client: header line "Content-Length 12" is not "Name: value"`},
		{"endless header line", "Content-Length: 1" + strings.Repeat("0", 2000), "reading from the client: a header line is longer than 1024 bytes"},
		{"two lengths", "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}", "reading from the client: a message has two Content-Lengths, 2 and 3"},
		{"cut short", "Content-Length: 60000000\r\n\r\n{\"jsonrpc\":", "reading from the client: the input ended after 11 of a message's 60000000 bytes"},
		{"cut in the header", "Content-Len", "reading from the client: the input ended within a message's header"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := startRaw(t)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			s.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
			s.conn.Write([]byte(tc.input)) // may fail: the server stops reading
			s.conn.Close()
			code := s.status(t)
			runtime.ReadMemStats(&after)
			if code != 1 {
				t.Errorf("exit status %d, want 1", code)
			}
			if !strings.Contains(s.log.String(), tc.log) {
				t.Errorf("log:\n%s\nwant a line containing %q", s.log, tc.log)
			}
			if grown := after.TotalAlloc - before.TotalAlloc; grown > 16<<20 {
				t.Errorf("allocated %d bytes", grown)
			}
		})
	}
}

// Closing the connection without exit is logged, not only the status.
func TestClosedWithoutExit(t *testing.T) {
	s := startRaw(t)
	s.send(t, "", initialize)
	s.response(t, jsonrpc2.NewNumberID(1))
	s.conn.Close()
	if code := s.status(t); code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}
	if want := "the client closed the connection without the exit notification\n"; !strings.Contains(s.log.String(), want) {
		t.Errorf("log:\n%s\nwant %q", s.log, want)
	}
}
