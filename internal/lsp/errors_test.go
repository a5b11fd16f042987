package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
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
