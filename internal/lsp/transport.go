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

// Read returns the next message. A body that is no message is answered
// with the error JSON-RPC prescribes (-32700 for one that is not JSON,
// -32600 for JSON that is not a request) and skipped: its frame was
// intact, so the next one can be read.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		body, err := s.frames.read()
		if err != nil {
			return nil, 0, err
		}
		msg, err := jsonrpc2.DecodeMessage(body)
		if err == nil {
			return msg, int64(len(body)), nil
		}
		id, reply := refusal(body, err)
		s.log("refused a message: %s: %s", reply.Message, excerpt(body))
		if _, err := s.out.Write(ctx, jsonrpc2.NewResponse(id, nil, reply)); err != nil {
			return nil, 0, err
		}
	}
}

// refusal is the answer to a body DecodeMessage rejected with err, and the
// id to send it under: the body's own when it has one, as a request the
// server cannot make sense of is answered all the same; else null.
func refusal(body []byte, err error) (jsonrpc2.ID, *jsonrpc2.Error) {
	if !json.Valid(body) {
		return jsonrpc2.ID{}, jsonrpc2.NewError(jsonrpc2.ParseError, "the message is not JSON")
	}
	var withID struct {
		ID json.RawMessage `json:"id"`
	}
	var id jsonrpc2.ID
	if json.Unmarshal(body, &withID) == nil && len(withID.ID) > 0 {
		var num int64
		var str string
		if json.Unmarshal(withID.ID, &num) == nil {
			id = jsonrpc2.NewNumberID(num)
		} else if json.Unmarshal(withID.ID, &str) == nil {
			id = jsonrpc2.NewStringID(str)
		}
	}
	msg := "the message is not a JSON-RPC 2.0 request"
	if !errors.Is(err, jsonrpc2.ErrInvalidRequest) {
		msg += ": " + err.Error()
	}
	return id, jsonrpc2.NewError(jsonrpc2.InvalidRequest, msg)
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
