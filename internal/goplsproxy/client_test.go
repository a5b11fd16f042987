package goplsproxy

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ctrllint/ctrllint/internal/lsp"
)

// testClient is a scripted LSP client speaking raw JSON-RPC to the proxy,
// so that the test sees the bytes the proxy writes (ids, framing) and
// answers gopls's requests itself.
type testClient struct {
	t   *testing.T
	out io.WriteCloser // the proxy's standard input

	mu       sync.Mutex
	changed  chan struct{}
	nextID   int
	replies  map[string]message         // by id, as sent
	notes    []message                  // notifications, in order
	requests []message                  // gopls's requests, answered
	diags    map[string][]diagnostic    // the last list published, by URI
	raw      map[string]json.RawMessage // last raw reply, by id
	closed   bool                       // the input was closed
}

// diagnostic is what the test reads of one.
type diagnostic struct {
	Range struct {
		Start struct{ Line, Character int } `json:"start"`
	} `json:"range"`
	Message string `json:"message"`
	Source  string `json:"source"`
	Code    any    `json:"code"`
}

func newTestClient(t *testing.T, toProxy io.WriteCloser, fromProxy io.Reader) *testClient {
	c := &testClient{
		t:       t,
		out:     toProxy,
		changed: make(chan struct{}, 1),
		replies: make(map[string]message),
		diags:   make(map[string][]diagnostic),
		raw:     make(map[string]json.RawMessage),
	}
	go c.read(lsp.NewFrameReader(fromProxy))
	return c
}

func (c *testClient) read(r *lsp.FrameReader) {
	for {
		body, err := r.Read()
		if err != nil {
			c.signal()
			return
		}
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			c.t.Errorf("the proxy wrote a body that is not JSON: %q", body)
			continue
		}
		c.mu.Lock()
		switch {
		case m.Method != "" && m.ID != nil:
			c.requests = append(c.requests, m)
			c.mu.Unlock()
			c.answer(m)
			c.mu.Lock()
		case m.Method != "":
			c.notes = append(c.notes, m)
			if m.Method == "textDocument/publishDiagnostics" {
				var p struct {
					URI         string       `json:"uri"`
					Diagnostics []diagnostic `json:"diagnostics"`
				}
				if err := json.Unmarshal(m.Params, &p); err != nil {
					c.t.Errorf("publishDiagnostics: %v", err)
				}
				c.diags[p.URI] = p.Diagnostics
			}
		default:
			c.replies[string(m.ID)] = m
			c.raw[string(m.ID)] = body
		}
		c.mu.Unlock()
		c.signal()
	}
}

// answer replies to a request of gopls's as an editor would.
func (c *testClient) answer(m message) {
	var result any
	switch m.Method {
	case "workspace/configuration":
		var p struct{ Items []any }
		json.Unmarshal(m.Params, &p)
		list := make([]map[string]any, len(p.Items))
		for i := range list {
			list[i] = map[string]any{}
		}
		result = list
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
	c.write(b)
}

func (c *testClient) signal() {
	select {
	case c.changed <- struct{}{}:
	default:
	}
}

func (c *testClient) write(body []byte) {
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	if _, err := fmt.Fprintf(c.out, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil && !closed {
		c.t.Errorf("writing to the proxy: %v", err)
	}
}

// close closes the proxy's input, as a client going away does; answers to
// gopls's requests still in flight then fail.
func (c *testClient) close() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.out.Close()
}

// notify sends a notification.
func (c *testClient) notify(method string, params any) {
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
	if err != nil {
		c.t.Fatal(err)
	}
	c.write(b)
}

// send sends a request with the given id (JSON text) and returns it.
func (c *testClient) send(id, method string, params any) string {
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "method": method, "params": params})
	if err != nil {
		c.t.Fatal(err)
	}
	c.write(b)
	return id
}

// call sends a request with a number id and waits for its reply.
func (c *testClient) call(method string, params any) message {
	c.t.Helper()
	c.mu.Lock()
	c.nextID++
	id := fmt.Sprint(c.nextID)
	c.mu.Unlock()
	c.send(id, method, params)
	return c.reply(id)
}

// reply waits for the reply to the request with id.
func (c *testClient) reply(id string) message {
	c.t.Helper()
	var m message
	c.await("the reply to request "+id, func() bool {
		var ok bool
		m, ok = c.replies[id]
		return ok
	})
	return m
}

// await waits up to two minutes (gopls's first load of client-go is slow
// on a loaded machine) for cond, called with c.mu held.
func (c *testClient) await(what string, cond func() bool) {
	c.t.Helper()
	deadline := time.After(2 * time.Minute)
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
			var methods []string
			for _, n := range c.notes {
				methods = append(methods, n.Method)
			}
			c.t.Fatalf("timed out waiting for %s; notifications: %s", what, strings.Join(methods, " "))
		}
	}
}
