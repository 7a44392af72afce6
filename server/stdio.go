package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves MCP over in and out (newline-delimited JSON-RPC) until
// in reaches EOF and every request read from it has been answered, or ctx
// is done. It returns nil after EOF, ctx's error when ctx ended the
// session. in and out are not closed.
//
// go-sdk v1.8.0 can lose the replies to requests still running when its
// input reaches EOF (go-sdk issue 1061), so that `printf '…' | climax git`
// printed nothing. ServeStdio therefore withholds EOF from go-sdk until
// each request id seen on in has had its response written to out (or was
// cancelled by the client).
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	g := newEOFGuard(ctx, in, out)
	ss, err := s.mcp.Connect(ctx, &mcp.IOTransport{Reader: g, Writer: guardWriter{g}, MaxLineLength: maxMessageSize + 1}, nil)
	if err != nil {
		return fmt.Errorf("serve stdio: %w", err)
	}
	s.log.Debug("stdio session started", "classic", s.cfg.classic)
	done := make(chan error, 1)
	go func() { done <- ss.Wait() }()
	select {
	case err = <-done:
	case <-ctx.Done():
		ss.Close()
		<-done
		s.log.Debug("stdio session ended", "reason", context.Cause(ctx))
		return ctx.Err()
	}
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, mcp.ErrConnectionClosed) {
		s.log.Debug("stdio session ended", "error", err)
		return fmt.Errorf("serve stdio: %w", err)
	}
	s.log.Debug("stdio session ended")
	return nil
}

// eofGuard sits between the stdio streams and go-sdk. It passes lines
// through, noting the ids of the requests it reads (lines with "method"
// and "id") and of the responses written back (lines with "id" and no
// "method"). At input EOF it waits until every noted request has been
// answered before go-sdk sees EOF. It also answers input lines go-sdk
// could not decode (see checkLine) and drops responses to cancelled
// requests.
type eofGuard struct {
	ctx context.Context
	in  *bufio.Reader
	out io.Writer

	rbuf []byte // rest of the line being read

	wmu  sync.Mutex
	wbuf []byte // incomplete line being written

	mu        sync.Mutex
	pending   map[string]int  // request id key → requests not yet answered
	cancelled map[string]bool // requests the client cancelled while pending: their responses are dropped
	changed   chan struct{}   // closed (and replaced) when pending shrinks

	closeOnce sync.Once
	closed    chan struct{}
}

func newEOFGuard(ctx context.Context, in io.Reader, out io.Writer) *eofGuard {
	return &eofGuard{
		ctx:       ctx,
		in:        bufio.NewReader(in),
		out:       out,
		pending:   map[string]int{},
		cancelled: map[string]bool{},
		changed:   make(chan struct{}),
		closed:    make(chan struct{}),
	}
}

// Read implements io.Reader. go-sdk reads from one goroutine.
//
// Lines that go-sdk could not decode are answered here and not passed on:
// go-sdk v1.8.0 ends the whole session on one undecodable message, and a
// client's mistake must not take the server down.
func (g *eofGuard) Read(p []byte) (int, error) {
	for len(g.rbuf) == 0 {
		line, tooLong, err := readLine(g.in, maxMessageSize)
		if tooLong {
			g.write(errorReply(nil, codeInvalidRequest, fmt.Sprintf("Invalid Request: message larger than %d bytes", maxMessageSize)))
		} else if len(line) > 0 {
			if reply := checkLine(line); reply != nil {
				g.write(reply)
			} else {
				g.noteIncoming(line)
				g.rbuf = line
			}
		}
		if err != nil && len(g.rbuf) == 0 {
			if err == io.EOF {
				g.waitAnswered()
			}
			return 0, err
		}
	}
	n := copy(p, g.rbuf)
	g.rbuf = g.rbuf[n:]
	return n, nil
}

// Close unblocks a Read waiting at EOF. It does not close the input, which
// belongs to the caller.
func (g *eofGuard) Close() error {
	g.closeOnce.Do(func() { close(g.closed) })
	return nil
}

// waitAnswered returns when no request is pending, ctx is done or the
// guard is closed.
func (g *eofGuard) waitAnswered() {
	for {
		g.mu.Lock()
		n, ch := len(g.pending), g.changed
		g.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-ch:
		case <-g.ctx.Done():
			return
		case <-g.closed:
			return
		}
	}
}

// write passes p to the output line by line, noting the responses it
// holds. A response to a request the client cancelled is dropped: MCP says
// the receiver of a cancellation should not respond, and go-sdk responds
// anyway. go-sdk writes one whole line per call; a partial line is held
// until its newline arrives.
func (g *eofGuard) write(p []byte) (int, error) {
	g.wmu.Lock()
	defer g.wmu.Unlock()
	g.wbuf = append(g.wbuf, p...)
	for {
		i := bytes.IndexByte(g.wbuf, '\n')
		if i < 0 {
			break
		}
		line := g.wbuf[:i+1]
		g.wbuf = g.wbuf[i+1:]
		if g.noteOutgoing(line) {
			continue
		}
		if _, err := g.out.Write(line); err != nil {
			g.wbuf = nil
			return 0, err
		}
	}
	if len(g.wbuf) == 0 {
		g.wbuf = nil // let a large message's buffer go
	}
	return len(p), nil
}

// guardWriter is the write side of an eofGuard, as an io.WriteCloser that
// does not close the output.
type guardWriter struct{ g *eofGuard }

func (w guardWriter) Write(p []byte) (int, error) { return w.g.write(p) }
func (w guardWriter) Close() error                { return nil }

// JSON-RPC error codes of the replies checkLine writes.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// maxMessageSize bounds one message (one line) read from stdin, so that a
// client cannot make the server buffer without limit. go-sdk's own limit
// is raised above it (it ends the session when a line exceeds it).
const maxMessageSize = 32 << 20

// readLine reads one line, newline included. A line longer than max is
// read to its end and dropped: tooLong reports it.
func readLine(r *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if err != bufio.ErrBufferFull {
			return line, tooLong, err
		}
	}
}

// maxDepth is the deepest nesting go-sdk accepts in a message.
const maxDepth = 1000

// checkLine returns nil when go-sdk can decode line as one JSON-RPC
// message (or when the line is blank), and otherwise the error response to
// send instead: a parse error for text that is not JSON, an invalid
// request for JSON that is not a JSON-RPC 2.0 message, and for batches,
// which go-sdk rejects for current protocol versions by ending the
// session.
func checkLine(line []byte) []byte {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil
	}
	if !json.Valid(line) {
		return errorReply(nil, codeParseError, "Parse error: the line is not valid JSON")
	}
	if nestingDepth(line) > maxDepth {
		return errorReply(nil, codeInvalidRequest, fmt.Sprintf("Invalid Request: nested deeper than %d levels", maxDepth))
	}
	if line[0] == '[' {
		return errorReply(nil, codeInvalidRequest, "Invalid Request: JSON-RPC batches are not supported; send one message per line")
	}
	var m struct {
		JSONRPC any             `json:"jsonrpc"`
		ID      any             `json:"id"`
		Method  json.RawMessage `json:"method"`
	}
	if line[0] != '{' || json.Unmarshal(line, &m) != nil {
		return errorReply(nil, codeInvalidRequest, "Invalid Request: a message must be a JSON object")
	}
	var id any
	switch m.ID.(type) {
	case nil, string, float64:
		id = m.ID
	default:
		return errorReply(nil, codeInvalidRequest, "Invalid Request: id must be a string or a number")
	}
	if m.JSONRPC != "2.0" {
		return errorReply(id, codeInvalidRequest, `Invalid Request: "jsonrpc" must be "2.0"`)
	}
	var method string
	if m.Method != nil && json.Unmarshal(m.Method, &method) != nil {
		return errorReply(id, codeInvalidRequest, `Invalid Request: "method" must be a string`)
	}
	if m.Method == nil && id == nil {
		return errorReply(nil, codeInvalidRequest, `Invalid Request: a message needs a "method", or an "id" if it is a response`)
	}
	return nil
}

// errorReply is a JSON-RPC error response line.
func errorReply(id any, code int, msg string) []byte {
	b, _ := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      any    `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	return append(b, '\n')
}

// nestingDepth returns the deepest nesting of arrays and objects in the
// valid JSON text b.
func nestingDepth(b []byte) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
			deepest = max(deepest, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}

// message holds the fields of a JSON-RPC message the guard looks at.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method *string         `json:"method"`
	Params struct {
		RequestID json.RawMessage `json:"requestId"`
	} `json:"params"`
}

// decodeMessage decodes the fields the guard looks at from one line. Lines
// go-sdk sees hold one message each (checkLine refuses batches, and go-sdk
// writes batches only in answer to them).
func decodeMessage(line []byte) (message, bool) {
	var m message
	return m, json.Unmarshal(line, &m) == nil
}

func (g *eofGuard) noteIncoming(line []byte) {
	m, ok := decodeMessage(line)
	if !ok || m.Method == nil {
		return // a response to a request of ours
	}
	if *m.Method == "notifications/cancelled" {
		// The client gave up on that request: do not wait for it, and
		// drop its response.
		if k, ok := idKey(m.Params.RequestID); ok {
			g.mu.Lock()
			if g.pending[k] > 0 {
				g.cancelled[k] = true
			}
			g.mu.Unlock()
			g.answered(k, true)
		}
		return
	}
	if k, ok := idKey(m.ID); ok {
		g.mu.Lock()
		g.pending[k]++
		g.mu.Unlock()
	}
}

// noteOutgoing notes the response in an outgoing line and reports whether
// it answers a cancelled request, and is to be dropped.
func (g *eofGuard) noteOutgoing(line []byte) (drop bool) {
	m, ok := decodeMessage(line)
	if !ok || m.Method != nil {
		return false // a request or notification of ours
	}
	k, ok := idKey(m.ID)
	if !ok {
		return false
	}
	g.mu.Lock()
	drop = g.cancelled[k]
	delete(g.cancelled, k)
	g.mu.Unlock()
	g.answered(k, false)
	return drop
}

// answered removes one pending request with id key k, or all of them.
func (g *eofGuard) answered(k string, all bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	n, ok := g.pending[k]
	if !ok {
		return
	}
	if n <= 1 || all {
		delete(g.pending, k)
	} else {
		g.pending[k] = n - 1
	}
	close(g.changed)
	g.changed = make(chan struct{})
}

// idKey normalises a JSON-RPC id (a string or an integer) to a map key.
// Other ids (absent, null, fractions, objects) are not tracked.
func idKey(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "", false
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return "", false
	}
	switch x := v.(type) {
	case string:
		return "s:" + x, true
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return "n:" + strconv.FormatInt(i, 10), true
		}
		if f, err := x.Float64(); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return "n:" + strconv.FormatInt(int64(f), 10), true
		}
	}
	return "", false
}
