package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"go.lsp.dev/jsonrpc2"
)

// The server reads its messages itself and leaves the rest to jsonrpc2.
// jsonrpc2's connection ends on the first frame it cannot decode (not
// JSON, or JSON that is no request), with no word on why and no answer,
// where JSON-RPC asks for an error response and the framing, intact, lets
// the server go on; and its header reader allocates whatever
// Content-Length says up to 1 GiB before a byte of the body arrives, and
// reads header lines of any length. Reading frames here, with limits, and
// answering bodies that are no message from here, keeps jsonrpc2 for what
// it does well: dispatch, replies, cancellation, writing.

const (
	// maxMessage bounds a message's body. A didOpen carries the whole
	// document: the largest generated Go files are a few megabytes.
	maxMessage = 64 << 20
	// maxHeaderLine bounds a header line ("Content-Length: 123"; the
	// only other field LSP defines is Content-Type) and maxHeaderLines
	// their number.
	maxHeaderLine  = 1 << 10
	maxHeaderLines = 32
)

// errFraming is what every broken frame's error wraps: the message
// boundaries are lost, and the connection with them.
var errFraming = errors.New("broken message framing")

type framingError struct{ msg string }

func (e *framingError) Error() string { return e.msg }
func (e *framingError) Unwrap() error { return errFraming }

func framingErrorf(format string, args ...any) error {
	return &framingError{fmt.Sprintf(format, args...)}
}

// frameReader reads LSP base-protocol frames: header lines, a blank line,
// and a body of Content-Length bytes.
type frameReader struct {
	in  *bufio.Reader
	max int // bound on a body
}

func newFrameReader(r io.Reader, max int) *frameReader {
	// ReadSlice cannot return a line longer than the buffer.
	return &frameReader{in: bufio.NewReaderSize(r, maxHeaderLine), max: max}
}

// read returns the next frame's body. It returns io.EOF when the input
// ends between frames, and an error wrapping errFraming when the frame is
// broken (the input ending within it included).
func (r *frameReader) read() ([]byte, error) {
	length := -1
	for lines := 0; ; lines++ {
		line, err := r.in.ReadSlice('\n')
		switch {
		case err == io.EOF && len(line) == 0 && lines == 0:
			return nil, io.EOF
		case err == io.EOF:
			return nil, framingErrorf("the input ended within a message's header")
		case errors.Is(err, bufio.ErrBufferFull):
			return nil, framingErrorf("a header line is longer than %d bytes", maxHeaderLine)
		case err != nil:
			return nil, err
		}
		if lines == maxHeaderLines {
			return nil, framingErrorf("a message has more than %d header lines", maxHeaderLines)
		}
		text := strings.TrimSuffix(strings.TrimSuffix(string(line), "\n"), "\r")
		if text == "" {
			break
		}
		name, value, ok := strings.Cut(text, ":")
		if !ok {
			return nil, framingErrorf("header line %q is not \"Name: value\"", text)
		}
		if !strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			continue // Content-Type, or a field of a later version
		}
		value = strings.TrimSpace(value)
		n, err := strconv.ParseInt(value, 10, 64)
		switch {
		case errors.Is(err, strconv.ErrRange) || err == nil && n > int64(r.max):
			return nil, framingErrorf("Content-Length %s is more than the %d bytes a message may have", value, r.max)
		case err != nil || n < 0:
			return nil, framingErrorf("Content-Length %q is not a length", value)
		case length >= 0 && int(n) != length:
			return nil, framingErrorf("a message has two Content-Lengths, %d and %d", length, n)
		}
		length = int(n)
	}
	if length < 0 {
		return nil, framingErrorf("a message has no Content-Length header")
	}
	return r.body(length)
}

// body reads n bytes, allocating as they arrive rather than as announced:
// a peer that announces the limit and sends nothing costs nothing.
func (r *frameReader) body(n int) ([]byte, error) {
	const chunk = 64 << 10
	buf := make([]byte, 0, min(n, chunk))
	for len(buf) < n {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, min(n-len(buf), cap(buf)))
		}
		m, err := r.in.Read(buf[len(buf):min(cap(buf), n)])
		buf = buf[:len(buf)+m]
		if err == io.EOF && len(buf) < n {
			return nil, framingErrorf("the input ended after %d of a message's %d bytes", len(buf), n)
		}
		if err != nil && err != io.EOF {
			return nil, err
		}
	}
	return buf, nil
}

// stream is the server's jsonrpc2.Stream: frames read by frameReader,
// written by jsonrpc2's own header stream.
type stream struct {
	frames *frameReader
	out    jsonrpc2.Stream
	// log says why a message was refused; set before the first Read.
	log func(format string, args ...any)
}

func newStream(rwc io.ReadWriteCloser) *stream {
	return &stream{
		frames: newFrameReader(rwc, maxMessage),
		out:    jsonrpc2.NewHeaderStream(rwc),
		log:    func(string, ...any) {},
	}
}

// Read returns the next message. A body that is no message (see decode)
// is answered with the error JSON-RPC prescribes, or only logged if it is
// a response, and skipped: its frame was intact, so the next one can be
// read.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		body, err := s.frames.read()
		if err != nil {
			return nil, 0, err
		}
		msg, no := decode(body)
		if no == nil {
			return msg, int64(len(body)), nil
		}
		detail := ""
		if no.detail != "" {
			detail = " (" + no.detail + ")"
		}
		if no.code == 0 {
			s.log("ignored a message: %s: %s%s", no.message, excerpt(body), detail)
			continue
		}
		s.log("refused a message: %s: %s%s", no.message, excerpt(body), detail)
		if _, err := s.out.Write(ctx, no.reply()); err != nil {
			return nil, 0, err
		}
	}
}

// refusal is what becomes of a body that is no message.
type refusal struct {
	// code is the error the body is answered with; 0 for a response,
	// which is never answered.
	code    jsonrpc2.Code
	id      jsonrpc2.ID // the request's id; null when it has none or it cannot be told
	message string
	detail  string // the error's data, for the client and the log; "" for none
}

// reply is the error response to a refused body.
func (r *refusal) reply() *jsonrpc2.Response {
	e := jsonrpc2.NewError(r.code, r.message)
	if r.detail != "" {
		e.Data, _ = json.Marshal(r.detail)
	}
	return jsonrpc2.NewResponse(r.id, nil, e)
}

const notRequest = "the message is not a JSON-RPC 2.0 request"

// decode reads a body as JSON-RPC 2.0 asks, with LSP's narrowing of it,
// and says what is wrong with one that is no message, in this order:
//
//   - A body that is not JSON, anywhere in it (params included), is a
//     parse error (-32700), answered with id null.
//   - An array is a batch. LSP does not use batches (its base protocol
//     carries one message per frame), so a batch is refused as a whole
//     with one invalid-request error (-32600, id null) and none of its
//     requests is run; an empty array gets the same, as JSON-RPC asks.
//   - A value that is not an object, or an object with no "method" and
//     neither "result" nor "error", is an invalid request (-32600, id
//     null).
//   - An object with a "method" is a request, or a notification if it
//     has no "id". It is an invalid request (-32600) if "jsonrpc" is not
//     "2.0", "method" is not a string, "id" is not an integer or a string
//     (LSP's ids; JSON-RPC allows null but discourages it, and a request
//     with a null id is refused: the reply's id is null, which reaches
//     the client whichever it meant), "params" is neither an object nor
//     an array ("params": null is taken as no params, which some clients
//     send for shutdown and exit), or it also has a "result" or an
//     "error". The reply carries the request's id when it is an integer
//     or a string, else null. An invalid notification is answered too,
//     with id null, as in JSON-RPC's examples: what is invalid cannot be
//     trusted to be a notification.
//   - An object with "result" or "error" and no "method" is a response.
//     One that is not valid ("jsonrpc" not "2.0", both members, an id
//     that is no integer, string or null, an error that is no error
//     object) is logged and dropped, not answered: its id is one of the
//     server's, and an answer under it would read as the answer to a
//     request of the client's.
//
// What JSON-RPC leaves to the method (an unknown method, params that do
// not fit it) is the handler's.
func decode(body []byte) (jsonrpc2.Message, *refusal) {
	if !json.Valid(body) {
		var detail string
		if err := json.Unmarshal(body, new(json.RawMessage)); err != nil {
			detail = err.Error()
		}
		return nil, &refusal{code: jsonrpc2.ParseError, message: "the message is not JSON", detail: detail}
	}
	invalid := func(id jsonrpc2.ID, detail string) (jsonrpc2.Message, *refusal) {
		return nil, &refusal{code: jsonrpc2.InvalidRequest, id: id, message: notRequest, detail: detail}
	}
	switch body[skipSpace(body, 0)] {
	case '[':
		if bytes.Equal(bytes.TrimSpace(body[skipSpace(body, 0)+1:]), []byte("]")) {
			return invalid(jsonrpc2.ID{}, "an empty batch")
		}
		return invalid(jsonrpc2.ID{}, "a batch: LSP sends one message per frame, and none of a batch's requests is run")
	case '{':
	default:
		return invalid(jsonrpc2.ID{}, "")
	}
	env := members(body)

	if env.method == nil {
		if env.result == nil && env.errObj == nil {
			return invalid(jsonrpc2.ID{}, "")
		}
		return response(env)
	}

	// A request or a notification.
	var id jsonrpc2.ID
	idErr := ""
	if env.id != nil {
		var ok bool
		switch id, ok = requestID(env.id); {
		case string(env.id) == "null":
			idErr = "the id is null: LSP's are integers or strings"
		case !ok:
			idErr = "the id is neither an integer nor a string"
		}
	}
	var method string
	switch {
	case !isVersion(env.jsonrpc):
		return invalid(id, `"jsonrpc" is not "2.0"`)
	case idErr != "":
		return invalid(id, idErr)
	case env.method[0] != '"' || json.Unmarshal(env.method, &method) != nil:
		return invalid(id, "the method is not a string")
	case env.result != nil || env.errObj != nil:
		return invalid(id, "a request with a result or an error")
	}
	var params jsonrpc2.RawMessage
	if env.params != nil {
		switch env.params[0] {
		case '{', '[':
			params = jsonrpc2.RawMessage(env.params)
		case 'n': // null: none
		default:
			return invalid(id, "params is neither an object nor an array")
		}
	}
	if env.id == nil {
		return jsonrpc2.NewNotification(method, params), nil
	}
	return jsonrpc2.NewCall(id, method, params), nil
}

// response decodes a response, or says why it is none.
func response(env envelope) (jsonrpc2.Message, *refusal) {
	ignored := func(detail string) (jsonrpc2.Message, *refusal) {
		return nil, &refusal{message: "the message is not a JSON-RPC 2.0 response", detail: detail}
	}
	var id jsonrpc2.ID
	if env.id != nil && string(env.id) != "null" {
		var ok bool
		if id, ok = requestID(env.id); !ok {
			return ignored("the id is neither an integer, a string nor null")
		}
	}
	switch {
	case !isVersion(env.jsonrpc):
		return ignored(`"jsonrpc" is not "2.0"`)
	case env.result != nil && env.errObj != nil:
		return ignored("it has both a result and an error")
	case env.result != nil:
		return jsonrpc2.NewResponse(id, bytes.Clone(env.result), nil), nil
	}
	var e struct {
		Code    *int32          `json:"code"`
		Message *string         `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
	if env.errObj[0] != '{' || json.Unmarshal(env.errObj, &e) != nil || e.Code == nil || e.Message == nil {
		return ignored("the error is not an error object")
	}
	werr := jsonrpc2.NewError(jsonrpc2.Code(*e.Code), *e.Message)
	if len(e.Data) > 0 && string(e.Data) != "null" {
		werr.Data = jsonrpc2.RawMessage(e.Data)
	}
	return jsonrpc2.NewResponse(id, nil, werr), nil
}

// requestID reads an id that is an integer or a string.
func requestID(raw []byte) (jsonrpc2.ID, bool) {
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return jsonrpc2.ID{}, false
		}
		return jsonrpc2.NewStringID(s), true
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return jsonrpc2.ID{}, false
	}
	return jsonrpc2.NewNumberID(n), true
}

// isVersion reports whether a "jsonrpc" member is the string "2.0".
func isVersion(raw []byte) bool {
	var v string
	return len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &v) == nil && v == jsonrpc2.Version
}

// envelope is the members of a message object that JSON-RPC defines, as
// raw JSON values; nil when absent.
type envelope struct {
	jsonrpc, id, method, params, result, errObj []byte
}

// members reads the top-level members of an object that is valid JSON.
// Member names are compared unescaped and, as encoding/json does, the
// last of two with the same name wins.
func members(body []byte) envelope {
	var env envelope
	i := skipSpace(body, 0) + 1 // past '{'
	for {
		i = skipSpace(body, i)
		if body[i] == '}' {
			return env
		}
		if body[i] == ',' {
			i = skipSpace(body, i+1)
		}
		keyEnd := skipValue(body, i)
		key := body[i:keyEnd]
		var name string
		if bytes.IndexByte(key, '\\') < 0 {
			name = string(key[1 : len(key)-1])
		} else {
			json.Unmarshal(key, &name)
		}
		i = skipSpace(body, keyEnd) + 1 // past ':'
		i = skipSpace(body, i)
		end := skipValue(body, i)
		value := body[i:end]
		i = end
		switch name {
		case "jsonrpc":
			env.jsonrpc = value
		case "id":
			env.id = value
		case "method":
			env.method = value
		case "params":
			env.params = value
		case "result":
			env.result = value
		case "error":
			env.errObj = value
		}
	}
}

// skipSpace returns the index of the first byte at or after i that is not
// JSON whitespace.
func skipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipValue returns the index just past the JSON value that starts at i in
// data, which is valid JSON.
func skipValue(data []byte, i int) int {
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		for ; i < len(data); i++ {
			switch data[i] {
			case '"':
				i = skipString(data, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return i
	default: // a number, true, false or null
		for i < len(data) && !strings.ContainsRune(",}] \t\r\n", rune(data[i])) {
			i++
		}
		return i
	}
}

// skipString returns the index just past the string whose quote is at i.
func skipString(data []byte, i int) int {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}

// excerpt is the start of a body, for the log.
func excerpt(body []byte) string {
	const n = 200
	if len(body) <= n {
		return strconv.Quote(string(body))
	}
	return strconv.Quote(string(bytes.ToValidUTF8(body[:n], nil))) + "..."
}

func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	return s.out.Write(ctx, msg)
}

func (s *stream) Close() error { return s.out.Close() }

// FrameReader reads LSP base-protocol frames with the server's limits;
// the gopls proxy reads both its peers with it.
type FrameReader struct{ r *frameReader }

func NewFrameReader(r io.Reader) *FrameReader { return &FrameReader{newFrameReader(r, maxMessage)} }

// Read returns the next frame's body; io.EOF when the input ends between
// frames.
func (f *FrameReader) Read() ([]byte, error) { return f.r.read() }
