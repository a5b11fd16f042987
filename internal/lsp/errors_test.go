package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/uri"
)

// The errors JSON-RPC 2.0 and LSP 3.17 prescribe, case by case, as the
// client sees them: the bytes of every reply, and the replies that must
// not come.

// syncID is the id of the request exchange ends with: a method the server
// does not have, which it answers whatever its state.
const syncID = `"sync"`

// exchange sends bodies, then the sync request, and returns what the
// server sent before the sync's reply.
func (s *rawSession) exchange(t *testing.T, bodies ...string) []received {
	t.Helper()
	for _, b := range bodies {
		s.send(t, "", b)
	}
	s.send(t, "", `{"jsonrpc":"2.0","id":`+syncID+`,"method":"ctrllint/sync"}`)
	var got []received
	timeout := time.After(10 * time.Second)
	for {
		select {
		case m, ok := <-s.msgs:
			if !ok {
				t.Fatalf("the server closed the connection; log:\n%s", s.log)
			}
			if _, ok := m.msg.(*jsonrpc2.Response); ok && sameJSON(m.members["id"], []byte(syncID)) {
				return got
			}
			got = append(got, m)
		case <-timeout:
			t.Fatalf("no reply to the sync request; log:\n%s", s.log)
		}
	}
}

// reply is what a test expects of a reply: its id (JSON text) and error
// code, 0 for a result.
type reply struct {
	id   string
	code jsonrpc2.Code
}

func (r reply) String() string {
	if r.code == 0 {
		return fmt.Sprintf("id %s, a result", r.id)
	}
	return fmt.Sprintf("id %s, error %d", r.id, r.code)
}

// replies are the responses among msgs, as replies.
func replies(t *testing.T, msgs []received) []reply {
	t.Helper()
	var out []reply
	for _, m := range msgs {
		if _, ok := m.msg.(*jsonrpc2.Response); !ok {
			continue
		}
		r := reply{id: string(m.members["id"])}
		if e, ok := m.members["error"]; ok {
			var v struct{ Code jsonrpc2.Code }
			if err := json.Unmarshal(e, &v); err != nil {
				t.Fatalf("error member of %q: %v", m.body, err)
			}
			r.code = v.Code
		}
		out = append(out, r)
	}
	return out
}

// sameJSON reports whether a and b are the same JSON value, numbers
// compared by their digits (ids beyond float64's precision included) and
// a string never equal to a number.
func sameJSON(a, b []byte) bool {
	decode := func(data []byte) (any, bool) {
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		var v any
		return v, d.Decode(&v) == nil
	}
	va, oka := decode(a)
	vb, okb := decode(b)
	return oka && okb && reflect.DeepEqual(va, vb)
}

// checkReplies fails unless the replies among got are want, in order.
func checkReplies(t *testing.T, got []received, want ...reply) {
	t.Helper()
	have := replies(t, got)
	ok := len(have) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = have[i].code == want[i].code && sameJSON([]byte(have[i].id), []byte(want[i].id))
	}
	if !ok {
		var bodies []string
		for _, m := range got {
			if _, isResp := m.msg.(*jsonrpc2.Response); isResp {
				bodies = append(bodies, string(m.body))
			}
		}
		t.Errorf("replies %v, want %v; the server wrote:\n%s", have, want, strings.Join(bodies, "\n"))
	}
}

const (
	noID      = `null`
	codeFixes = `"textDocument":{"uri":"file:///nowhere/a.go"},"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"context":{"diagnostics":[]}`
)

// JSON-RPC 2.0's errors for what is no request: -32700 for a body that
// is not JSON (the params' interior included), -32600 for JSON that is no
// request, both with the request's id when it is an integer or a string
// and null otherwise; a response that is none is logged and not answered.
// Each is answered alone and the server goes on: initialize after it
// succeeds (so a batch's initialize did not run).
func TestJSONRPCErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		body string
		want []reply // none: no reply
		log  string
	}{
		{"params not JSON", `{"jsonrpc":"2.0","id":4,"method":"textDocument/codeAction","params":{"textDocument":]}}`, []reply{{noID, jsonrpc2.ParseError}}, "refused a message: the message is not JSON"},
		{"params balanced but not JSON", `{"jsonrpc":"2.0","id":4,"method":"textDocument/codeAction","params":{]}`, []reply{{noID, jsonrpc2.ParseError}}, "refused a message: the message is not JSON"},
		{"notification's params balanced but not JSON", `{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{]}`, []reply{{noID, jsonrpc2.ParseError}}, "refused a message: the message is not JSON"},
		{"text after the message", `{"jsonrpc":"2.0","id":4,"method":"shutdown"} {}`, []reply{{noID, jsonrpc2.ParseError}}, "refused a message: the message is not JSON"},
		{"a number", `5`, []reply{{noID, jsonrpc2.InvalidRequest}}, "refused a message"},
		{"null", `null`, []reply{{noID, jsonrpc2.InvalidRequest}}, "refused a message"},
		{"no jsonrpc", `{"id":4,"method":"shutdown"}`, []reply{{`4`, jsonrpc2.InvalidRequest}}, `("jsonrpc" is not "2.0")`},
		{"jsonrpc a number", `{"jsonrpc":2.0,"id":4,"method":"shutdown"}`, []reply{{`4`, jsonrpc2.InvalidRequest}}, `("jsonrpc" is not "2.0")`},
		{"method a number", `{"jsonrpc":"2.0","id":4,"method":5}`, []reply{{`4`, jsonrpc2.InvalidRequest}}, "(the method is not a string)"},
		{"method null", `{"jsonrpc":"2.0","id":"m","method":null}`, []reply{{`"m"`, jsonrpc2.InvalidRequest}}, "(the method is not a string)"},
		{"id an object", `{"jsonrpc":"2.0","id":{"n":4},"method":"shutdown"}`, []reply{{noID, jsonrpc2.InvalidRequest}}, "(the id is neither an integer nor a string)"},
		{"id an array", `{"jsonrpc":"2.0","id":[4],"method":"shutdown"}`, []reply{{noID, jsonrpc2.InvalidRequest}}, "(the id is neither an integer nor a string)"},
		{"id a bool", `{"jsonrpc":"2.0","id":true,"method":"shutdown"}`, []reply{{noID, jsonrpc2.InvalidRequest}}, "(the id is neither an integer nor a string)"},
		{"id a fraction", `{"jsonrpc":"2.0","id":4.5,"method":"shutdown"}`, []reply{{noID, jsonrpc2.InvalidRequest}}, "(the id is neither an integer nor a string)"},
		{"id null", `{"jsonrpc":"2.0","id":null,"method":"shutdown"}`, []reply{{noID, jsonrpc2.InvalidRequest}}, "(the id is null: LSP's are integers or strings)"},
		{"params a number", `{"jsonrpc":"2.0","id":4,"method":"textDocument/codeAction","params":5}`, []reply{{`4`, jsonrpc2.InvalidRequest}}, "(params is neither an object nor an array)"},
		{"params a string", `{"jsonrpc":"2.0","id":"p","method":"initialize","params":"{}"}`, []reply{{`"p"`, jsonrpc2.InvalidRequest}}, "(params is neither an object nor an array)"},
		{"notification's params a bool", `{"jsonrpc":"2.0","method":"textDocument/didOpen","params":false}`, []reply{{noID, jsonrpc2.InvalidRequest}}, "(params is neither an object nor an array)"},
		{"request with a result", `{"jsonrpc":"2.0","id":4,"method":"shutdown","result":null}`, []reply{{`4`, jsonrpc2.InvalidRequest}}, "(a request with a result or an error)"},
		{"no method and no result", `{"jsonrpc":"2.0","id":4}`, []reply{{noID, jsonrpc2.InvalidRequest}}, "refused a message: the message is not a JSON-RPC 2.0 request"},
		{"empty batch", `[ ]`, []reply{{noID, jsonrpc2.InvalidRequest}}, "(an empty batch)"},
		{"batch", `[{"jsonrpc":"2.0","id":4,"method":"initialize","params":{}}]`, []reply{{noID, jsonrpc2.InvalidRequest}}, "(a batch: "},
		{"batch of numbers", `[1,2]`, []reply{{noID, jsonrpc2.InvalidRequest}}, "(a batch: "},

		// Ids come back as they were sent (the request is answered -32602,
		// before the lifecycle's -32002).
		{"string id", `{"jsonrpc":"2.0","id":"a\"b\\c\u00e9 ","method":"textDocument/codeAction","params":{"textDocument":5}}`, []reply{{`"a\"b\\cé "`, jsonrpc2.InvalidParams}}, ""},
		{"string of digits id", `{"jsonrpc":"2.0","id":"7","method":"textDocument/codeAction","params":{"textDocument":5}}`, []reply{{`"7"`, jsonrpc2.InvalidParams}}, ""},
		{"integer id beyond float64", `{"jsonrpc":"2.0","id":9007199254740993,"method":"textDocument/codeAction","params":{"textDocument":5}}`, []reply{{`9007199254740993`, jsonrpc2.InvalidParams}}, ""},
		{"negative id", `{"jsonrpc":"2.0","id":-7,"method":"textDocument/codeAction","params":{"textDocument":5}}`, []reply{{`-7`, jsonrpc2.InvalidParams}}, ""},
		{"zero id", `{"jsonrpc":"2.0","id":0,"method":"textDocument/codeAction","params":{"textDocument":5}}`, []reply{{`0`, jsonrpc2.InvalidParams}}, ""},

		// Responses: the server has asked nothing, and answers none.
		{"response with result and error", `{"jsonrpc":"2.0","id":4,"result":1,"error":{"code":1,"message":"m"}}`, nil, "ignored a message: the message is not a JSON-RPC 2.0 response: "},
		{"response with no error object", `{"jsonrpc":"2.0","id":4,"error":5}`, nil, "ignored a message: the message is not a JSON-RPC 2.0 response: "},
		{"response of JSON-RPC 1.0", `{"jsonrpc":"1.0","id":4,"result":1}`, nil, "ignored a message: the message is not a JSON-RPC 2.0 response: "},
		{"response to no request", `{"jsonrpc":"2.0","id":4,"result":1}`, nil, ""},
		{"error response to no request", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"m"}}`, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := startRaw(t)
			checkReplies(t, s.exchange(t, tc.body), tc.want...)
			if !strings.Contains(s.log.String(), tc.log) {
				t.Errorf("log:\n%s\nwant a line containing %s", s.log, tc.log)
			}
			checkReplies(t, s.exchange(t, initialize), reply{`1`, 0})
		})
	}
}

// What JSON-RPC leaves to methods, after initialize: a method the server
// does not implement is not found (-32601) whatever its params, LSP's
// "$/" requests included; a known one's params that do not decode are
// invalid (-32602). Notifications get no reply, even unknown ones, and
// "$/" ones are dropped without a word.
func TestMethodErrors(t *testing.T) {
	s := startRaw(t)
	checkReplies(t, s.exchange(t, initialize), reply{`1`, 0})
	before := s.log.String()

	got := s.exchange(t,
		`{"jsonrpc":"2.0","id":2,"method":"ctrllint/nope"}`,
		`{"jsonrpc":"2.0","id":3,"method":"ctrllint/nope","params":{}}`,
		`{"jsonrpc":"2.0","id":4,"method":"ctrllint/nope","params":[1]}`,
		`{"jsonrpc":"2.0","id":5,"method":"ctrllint/nope","params":null}`,
		`{"jsonrpc":"2.0","id":6,"method":"textDocument/hover","params":{"textDocument":5}}`,
		`{"jsonrpc":"2.0","id":7,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///a.go"},"position":{"line":0,"character":0}}}`,
		`{"jsonrpc":"2.0","id":8,"method":"$/ctrllint"}`,
		`{"jsonrpc":"2.0","id":9,"method":"$/cancelRequest","params":{"id":2}}`,
		`{"jsonrpc":"2.0","id":10,"method":"textDocument/codeAction","params":{"textDocument":5}}`,
		`{"jsonrpc":"2.0","id":11,"method":"textDocument/codeAction"}`,
		`{"jsonrpc":"2.0","id":12,"method":"textDocument/codeAction","params":{`+codeFixes+`}}`,

		`{"jsonrpc":"2.0","method":"ctrllint/nope"}`,
		`{"jsonrpc":"2.0","method":"ctrllint/nope","params":{"x":1}}`,
		`{"jsonrpc":"2.0","method":"$/ctrllint"}`,
		`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":12}}`,
		`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"nothing running"}}`,
		`{"jsonrpc":"2.0","method":"$/setTrace","params":{"value":"off"}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":5}}`,
	)
	checkReplies(t, got,
		reply{`2`, jsonrpc2.MethodNotFound},
		reply{`3`, jsonrpc2.MethodNotFound},
		reply{`4`, jsonrpc2.MethodNotFound},
		reply{`5`, jsonrpc2.MethodNotFound},
		reply{`6`, jsonrpc2.MethodNotFound},
		reply{`7`, jsonrpc2.MethodNotFound},
		reply{`8`, jsonrpc2.MethodNotFound},
		reply{`9`, jsonrpc2.MethodNotFound},
		reply{`10`, jsonrpc2.InvalidParams},
		reply{`11`, jsonrpc2.InvalidParams},
		reply{`12`, 0},
	)
	log := strings.TrimPrefix(s.log.String(), before)
	for _, want := range []string{
		"refused a ctrllint/nope request: method not found: ctrllint/nope",
		"refused a $/ctrllint request: method not found: $/ctrllint",
		"refused a textDocument/codeAction request: invalid params: ",
		"ignoring notification textDocument/didOpen: ",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("log:\n%s\nwant a line containing %s", log, want)
		}
	}
	for _, unwanted := range []string{"notification $/", "notification ctrllint/nope"} {
		if strings.Contains(log, unwanted) {
			t.Errorf("log:\n%s\nwant no line containing %s", log, unwanted)
		}
	}
}

// LSP 3.17's lifecycle: before initialize, requests get -32002 and
// notifications (exit excepted) are dropped, and the server sends nothing
// of its own; initialize comes once; after shutdown every request gets
// -32600; exit after shutdown ends the server with status 0. What is
// wrong with a request whenever it comes (an unknown method, params that
// do not decode) is said first.
func TestLifecycle(t *testing.T) {
	s := startRaw(t)
	early, late := t.TempDir(), t.TempDir() // no go.mod above them
	for _, dir := range []string{early, late} {
		if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	didOpen := func(dir string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":%q,"languageId":"go","version":1,"text":"package a\n"}}}`,
			uri.File(filepath.Join(dir, "a.go")))
	}

	got := s.exchange(t,
		`{"jsonrpc":"2.0","id":1,`,
		`{"jsonrpc":"2.0","id":2,"method":"textDocument/codeAction","params":{`+codeFixes+`}}`,
		`{"jsonrpc":"2.0","id":3,"method":"shutdown"}`,
		`{"jsonrpc":"2.0","id":4,"method":"ctrllint/nope"}`,
		`{"jsonrpc":"2.0","id":5,"method":"textDocument/codeAction","params":{"textDocument":5}}`,
		didOpen(early),
		`{"jsonrpc":"2.0","method":"initialized","params":{}}`,
	)
	checkReplies(t, got,
		reply{noID, jsonrpc2.ParseError},
		reply{`2`, jsonrpc2.ServerNotInitialized},
		reply{`3`, jsonrpc2.ServerNotInitialized},
		reply{`4`, jsonrpc2.MethodNotFound},
		reply{`5`, jsonrpc2.InvalidParams},
	)
	for _, m := range got {
		if _, ok := m.msg.(*jsonrpc2.Response); !ok {
			t.Errorf("before initialize the server sent %s", m.body)
		}
	}
	for _, want := range []string{
		"refused a textDocument/codeAction request: the server is not initialized",
		"dropped a textDocument/didOpen notification: it came before initialize",
		"dropped a initialized notification: it came before initialize",
	} {
		if !strings.Contains(s.log.String(), want) {
			t.Errorf("log:\n%s\nwant a line containing %s", s.log, want)
		}
	}

	checkReplies(t, s.exchange(t, `{"jsonrpc":"2.0","id":6,"method":"initialize","params":{}}`), reply{`6`, 0})
	checkReplies(t, s.exchange(t, `{"jsonrpc":"2.0","id":7,"method":"initialize","params":{}}`), reply{`7`, jsonrpc2.InvalidRequest})

	// The document opened before initialize was dropped: only the one
	// opened after it is analysed (a message that it has no module).
	s.send(t, "", didOpen(late))
	timeout := time.After(20 * time.Second)
	for shown := false; !shown; {
		select {
		case m, ok := <-s.msgs:
			if !ok {
				t.Fatalf("the server closed the connection; log:\n%s", s.log)
			}
			n, isNote := m.msg.(*jsonrpc2.Notification)
			if !isNote || n.Method() != "window/showMessage" {
				continue
			}
			if strings.Contains(string(m.body), filepath.Base(early)) {
				t.Errorf("the document opened before initialize was analysed: %s", m.body)
			}
			shown = strings.Contains(string(m.body), filepath.Base(late))
		case <-timeout:
			t.Fatalf("no message about %s; log:\n%s", late, s.log)
		}
	}

	got = s.exchange(t,
		`{"jsonrpc":"2.0","id":8,"method":"shutdown"}`,
		`{"jsonrpc":"2.0","id":9,"method":"shutdown"}`,
		`{"jsonrpc":"2.0","id":10,"method":"textDocument/codeAction","params":{`+codeFixes+`}}`,
		`{"jsonrpc":"2.0","id":11,"method":"initialize","params":{}}`,
		`{"jsonrpc":"2.0","id":12,"method":"ctrllint/nope"}`,
		`{"jsonrpc":"2.0","id":13,"method":"textDocument/codeAction","params":{"textDocument":5}}`,
		didOpen(late),
	)
	checkReplies(t, got,
		reply{`8`, 0},
		reply{`9`, jsonrpc2.InvalidRequest},
		reply{`10`, jsonrpc2.InvalidRequest},
		reply{`11`, jsonrpc2.InvalidRequest},
		reply{`12`, jsonrpc2.MethodNotFound},
		reply{`13`, jsonrpc2.InvalidParams},
	)
	s.send(t, "", `{"jsonrpc":"2.0","method":"exit"}`)
	if code := s.status(t); code != 0 {
		t.Errorf("exit status %d after shutdown and exit", code)
	}
}

// exit before initialize ends the server, with status 1: there was no
// shutdown.
func TestExitBeforeInitialize(t *testing.T) {
	s := startRaw(t)
	s.send(t, "", `{"jsonrpc":"2.0","method":"exit"}`)
	if code := s.status(t); code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}
}
