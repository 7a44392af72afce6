package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves MCP over in and out (newline-delimited JSON-RPC) until
// in reaches EOF and every request read from it has been answered, or ctx
// is done. It returns nil after EOF, ctx's error when ctx ended the
// session. in and out are not closed.
//
// When ctx is done, the running tool calls are cancelled (their commands'
// process groups are killed) and ServeStdio returns once they have
// returned, without waiting for more input: this is how a server stops on
// SIGTERM, or when its client is gone.
//
// go-sdk v1.8.0 can lose the replies to requests still running when its
// input reaches EOF (go-sdk issue 1061), so that `printf '…' | climax git`
// printed nothing. ServeStdio therefore withholds EOF from go-sdk until
// each request id seen on in has had its response written to out (or was
// cancelled by the client). TestUpstreamStdioEOFLosesReplies fails once
// go-sdk no longer loses them, and this can go.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Calls run under lt, which ends with ctx (see lifetimeMiddleware).
	lt := newLifetime(ctx)
	// Questions to the client (approval) are given up when the input ends:
	// their answers could not arrive.
	ended, endSession := newSessionEnd()
	defer endSession(nil)
	g := newEOFGuard(ctx, in, out, s.log, func() { endSession(errInputEnded) })
	tr := &mcp.IOTransport{Reader: g, Writer: guardWriter{g}, MaxLineLength: maxMessageSize + 1}
	sctx := withInfo(ctx, &reqInfo{transport: "stdio", lt: lt, ended: ended})
	ss, err := s.mcp.Connect(sctx, tr, nil)
	if err != nil {
		return fmt.Errorf("serve stdio: %w", err)
	}
	s.log.Debug("stdio session started", "classic", s.cfg.classic)
	done := make(chan error, 1)
	go func() { done <- ss.Wait() }()
	select {
	case err = <-done:
	case <-ctx.Done():
		s.log.Info("stopping", "reason", context.Cause(ctx))
		if !lt.calls.wait(callDrainTimeout) {
			s.log.Warn("tool calls still running after the shutdown timeout", "timeout", callDrainTimeout)
		}
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
// would mishandle (see checkLine), and requests that reuse the id of a
// request in progress, and drops responses to cancelled requests.
type eofGuard struct {
	ctx context.Context
	in  *bufio.Reader
	out io.Writer
	log *slog.Logger
	// inputEnded is called when the input ends (EOF or a read error).
	inputEnded func()

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

func newEOFGuard(ctx context.Context, in io.Reader, out io.Writer, log *slog.Logger, inputEnded func()) *eofGuard {
	return &eofGuard{
		ctx:        ctx,
		in:         bufio.NewReader(in),
		out:        out,
		log:        log,
		inputEnded: inputEnded,
		pending:    map[string]int{},
		cancelled:  map[string]bool{},
		changed:    make(chan struct{}),
		closed:     make(chan struct{}),
	}
}

// Read implements io.Reader. go-sdk reads from one goroutine.
//
// Lines that go-sdk could not decode, or would answer wrongly, are
// answered here and not passed on: go-sdk v1.8.0 ends the whole session on
// one undecodable message, and a client's mistake must not take the server
// down.
func (g *eofGuard) Read(p []byte) (int, error) {
	for len(g.rbuf) == 0 {
		line, tooLong, err := readLine(g.in, maxMessageSize)
		if tooLong {
			g.reject(errorReply(nil, codeInvalidRequest, fmt.Sprintf("Invalid Request: message larger than %d bytes", maxMessageSize)))
		} else if len(line) > 0 {
			if reply, ok := checkLine(line); !ok {
				g.reject(reply)
			} else if reply := g.noteIncoming(line); reply != nil {
				g.reject(reply)
			} else {
				// One JSON value and a newline, without the spaces around
				// it: go-sdk ends the session on trailing data after a
				// value, even a space.
				g.rbuf = append(bytes.TrimSpace(line), '\n')
			}
		}
		if err != nil && len(g.rbuf) == 0 {
			// No answer to a question of ours can come any more.
			g.inputEnded()
			if err == io.EOF {
				g.waitAnswered()
			}
			return 0, err
		}
	}
	n := copy(p, g.rbuf)
	g.rbuf = g.rbuf[n:]
	if len(g.rbuf) == 0 {
		g.rbuf = nil // a large line's bytes are not held until the next one
	}
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
			g.log.Debug("dropped the response to a cancelled request", "response", shorten(string(bytes.TrimSpace(line))))
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

// reject writes the guard's own reply to a line it does not pass on (nil:
// none), without noting it as a response: the id it carries, if any, is
// not that of a request go-sdk saw.
func (g *eofGuard) reject(reply []byte) {
	if reply == nil {
		return
	}
	g.log.Info("stdio message rejected", "reply", shorten(string(bytes.TrimSpace(reply))))
	g.wmu.Lock()
	defer g.wmu.Unlock()
	g.out.Write(reply) // a write error ends the session at go-sdk's next write
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
// read to its end and dropped: tooLong reports it. The line is gathered
// in pieces of the reader's buffer and copied once into a slice of its
// exact size, as bufio.Reader.ReadBytes does: growing one slice would
// allocate about four times a long line's size on the way.
func readLine(r *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	var pieces [][]byte
	size := 0
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if size+len(chunk) > max {
				tooLong, pieces = true, nil
			} else {
				pieces = append(pieces, bytes.Clone(chunk))
				size += len(chunk)
			}
		}
		if err != bufio.ErrBufferFull {
			if tooLong || len(pieces) == 0 {
				return nil, tooLong, err
			}
			if len(pieces) == 1 {
				return pieces[0], false, err
			}
			line = make([]byte, 0, size)
			for _, p := range pieces {
				line = append(line, p...)
			}
			return line, false, err
		}
	}
}

// checkLine reports whether go-sdk can be given line: a blank line or
// one JSON-RPC message that go-sdk decodes as the client meant it. When it
// cannot (ok false), reply is the error response to send instead, or nil
// when nothing is to be answered: a parse error for text that is not JSON,
// an invalid request for JSON that is not a JSON-RPC 2.0 message, for
// batches (which go-sdk rejects for current protocol versions by ending
// the session), and for a request whose id go-sdk would not echo exactly
// (see exactID) or whose id is null. A response (no "method") with such an
// id is dropped without reply.
func checkLine(line []byte) (reply []byte, ok bool) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil, true
	}
	if !json.Valid(line) && !tooDeep(line) {
		return errorReply(nil, codeParseError, "Parse error: the line is not valid JSON"), false
	}
	if reply, ok := checkShape(line); !ok {
		return reply, false
	}
	if line[0] == '[' {
		return errorReply(nil, codeInvalidRequest, "Invalid Request: JSON-RPC batches are not supported; send one message per line"), false
	}
	v, isObject := scanMembers(line, "jsonrpc", "id", "method")
	if !isObject {
		return errorReply(nil, codeInvalidRequest, "Invalid Request: a message must be a JSON object"), false
	}
	var m struct {
		JSONRPC, ID, Method json.RawMessage
	}
	m.JSONRPC, m.ID, m.Method = v[0], v[1], v[2]
	isRequest := m.Method != nil
	id, reply, ok := checkID(m.ID, isRequest)
	if !ok {
		return reply, false
	}
	var version string
	if json.Unmarshal(m.JSONRPC, &version) != nil || version != "2.0" {
		return errorReply(id, codeInvalidRequest, `Invalid Request: "jsonrpc" must be "2.0"`), false
	}
	var method string
	if isRequest && json.Unmarshal(m.Method, &method) != nil {
		return errorReply(id, codeInvalidRequest, `Invalid Request: "method" must be a string`), false
	}
	if !isRequest && id == nil {
		return errorReply(nil, codeInvalidRequest, `Invalid Request: a message needs a "method", or an "id" if it is a response`), false
	}
	return nil, true
}

// checkID checks the id of a message, raw (its "id" member, nil when
// absent), for go-sdk: a request's id must be a string or a number that
// go-sdk echoes exactly (see exactID), not null. When the id is refused
// (ok false), reply is the error response to send instead, or nil for a
// response (no "method") with an id go-sdk would change, which is dropped.
// Otherwise id is the id to echo in an error reply about the message: nil
// (null) or the exact id text. go-sdk v1.8.0 truncates a fractional id
// (7.5 is answered as 7; go-sdk pull request 1178, open):
// TestUpstreamFractionalIDTruncated fails once it no longer does.
func checkID(raw json.RawMessage, isRequest bool) (id any, reply []byte, ok bool) {
	switch {
	case len(raw) == 0: // absent
	case string(raw) == "null":
		if isRequest {
			return nil, errorReply(nil, codeInvalidRequest, `Invalid Request: "id" must not be null (omit it to send a notification)`), false
		}
	case raw[0] == '"':
		if !exactID(raw) {
			if !isRequest {
				return nil, nil, false
			}
			return nil, errorReply(nil, codeInvalidRequest, "Invalid Request: a string id must be valid UTF-8 without unpaired surrogate escapes"), false
		}
		id = raw
	case raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9':
		if !exactID(raw) {
			if !isRequest {
				return nil, nil, false
			}
			return nil, errorReply(raw, codeInvalidRequest, fmt.Sprintf("Invalid Request: a numeric id must be an integer from %d to %d; use a string id otherwise", -maxExactID, maxExactID)), false
		}
		id = raw
	default:
		return nil, errorReply(nil, codeInvalidRequest, "Invalid Request: id must be a string or a number"), false
	}
	return id, nil, true
}

// checkBodyIDs applies checkID to the messages of an HTTP POST body (one
// message, or a batch of them). reply is the error response to the first
// message refused. A response whose id go-sdk would change gets an error
// too: over HTTP the POST that carries it must be answered. Bodies that
// are not JSON are left to go-sdk, which refuses them. Only the top level
// of each message is read (see scanMessage): a body may hold megabytes of
// arguments.
func checkBodyIDs(body []byte) (reply []byte, ok bool) {
	// check checks one message; requestID is the id of a request, nil
	// for anything else.
	check := func(msg []byte) (requestID, reply []byte, ok bool) {
		id, method, isObject := scanMessage(msg)
		if !isObject {
			return nil, nil, true
		}
		_, reply, ok = checkID(id, method != nil)
		if !ok && reply == nil {
			reply = errorReply(nil, codeInvalidRequest, "Invalid Request: a response's id must be the id of the server's request")
		}
		if method != nil && len(id) > 0 {
			requestID = id
		}
		return requestID, reply, ok
	}
	i := skipSpace(body, 0)
	if i == len(body) || body[i] != '[' {
		_, reply, ok := check(body[i:])
		return reply, ok
	}
	// A batch: check each element; two requests of one batch must not
	// share an id (as over stdio, where an id in progress is refused).
	var ids []string
	for i = skipSpace(body, i+1); i < len(body) && body[i] != ']'; {
		end := skipValue(body, i)
		id, reply, ok := check(body[i:end])
		if !ok {
			return reply, false
		}
		if id != nil {
			if slices.Contains(ids, string(id)) {
				return errorReply(id, codeInvalidRequest, fmt.Sprintf("Invalid Request: request id already in use: %s is the id of another request of the batch", id)), false
			}
			ids = append(ids, string(id))
		}
		i = skipSpace(body, end)
		if i == len(body) || body[i] != ',' {
			break
		}
		i = skipSpace(body, i+1)
	}
	return nil, true
}

// scanMessage returns the raw values of the members "id" and "method" of
// the JSON object msg (nil when absent), matching names exactly and taking
// the last of duplicates, as go-sdk does, without decoding the other
// members. isObject is false when msg is not an object. Invalid JSON gives
// some result: go-sdk refuses it anyway.
func scanMessage(msg []byte) (id, method json.RawMessage, isObject bool) {
	v, isObject := scanMembers(msg, "id", "method")
	return v[0], v[1], isObject
}

// scanMembers returns the raw values of the members of the JSON object
// msg named names, in that order (nil when absent), matching names
// exactly and taking the last of duplicates, as go-sdk does. The values
// are slices of msg: nothing is copied or decoded, so that a message of
// megabytes costs nothing more here. isObject is false when msg is not an
// object.
func scanMembers(msg []byte, names ...string) (vals []json.RawMessage, isObject bool) {
	vals = make([]json.RawMessage, len(names))
	i := skipSpace(msg, 0)
	if i == len(msg) || msg[i] != '{' {
		return vals, false
	}
	for i = skipSpace(msg, i+1); i < len(msg) && msg[i] == '"'; {
		keyEnd := skipString(msg, i)
		key := msg[i:keyEnd]
		i = skipSpace(msg, keyEnd)
		if i == len(msg) || msg[i] != ':' {
			break
		}
		i = skipSpace(msg, i+1)
		end := skipValue(msg, i)
		if end == i {
			break // no value: not JSON
		}
		for n, name := range names {
			if memberIs(key, name) {
				vals[n] = msg[i:end]
			}
		}
		i = skipSpace(msg, end)
		if i == len(msg) || msg[i] != ',' {
			break
		}
		i = skipSpace(msg, i+1)
	}
	return vals, true
}

// memberIs reports whether the JSON object key (a string literal) names
// name.
func memberIs(key []byte, name string) bool {
	if bytes.IndexByte(key, '\\') < 0 {
		return len(key) >= 2 && string(key[1:len(key)-1]) == name
	}
	var s string
	return json.Unmarshal(key, &s) == nil && s == name
}

// skipSpace returns the index of the first byte of b from i on that is not
// JSON white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just past the JSON string that starts at
// b[i] (a quote), or len(b) when it does not end.
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

// skipValue returns the index just past the JSON value that starts at
// b[i]: a string, an object or array (with all it holds), or a literal.
func skipValue(b []byte, i int) int {
	if i == len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = skipString(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return len(b)
	}
	for ; i < len(b); i++ {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
	}
	return i
}

// maxExactID is the largest integer id go-sdk echoes exactly: it decodes
// numeric ids as float64 before storing them as int64.
const maxExactID = 1<<53 - 1

// exactID reports whether go-sdk echoes the JSON id raw (a string or a
// number, as valid JSON text) with the same value: a string that is valid
// UTF-8 with no unpaired surrogate escape (go-sdk would decode either to
// U+FFFD), or an integer written without fraction or exponent, other than
// -0, between -maxExactID and maxExactID. 1.5 would come back as 1, 1e2
// as 100 and larger integers rounded.
func exactID(raw json.RawMessage) bool {
	if len(raw) == 0 {
		return false
	}
	if raw[0] == '"' {
		return utf8.Valid(raw) && !hasLoneSurrogate(raw)
	}
	digits := raw
	if digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 16 || string(raw) == "-0" {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	n, err := strconv.ParseInt(string(digits), 10, 64)
	return err == nil && n <= maxExactID
}

// hasLoneSurrogate reports whether the JSON string literal s holds a
// \uXXXX escape of a UTF-16 surrogate that is not part of a pair.
func hasLoneSurrogate(s []byte) bool {
	hex4 := func(i int) (rune, bool) { // the value of the escape at s[i:] (`\uXXXX`)
		if i+6 > len(s) || s[i] != '\\' || s[i+1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(string(s[i+2:i+6]), 16, 16)
		return rune(v), err == nil
	}
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		r, ok := hex4(i)
		if !ok {
			i++ // a two-character escape such as \\ or \"
			continue
		}
		switch {
		case r >= 0xd800 && r < 0xdc00: // high: a low one must follow
			if lo, ok := hex4(i + 6); ok && lo >= 0xdc00 && lo < 0xe000 {
				i += 11
				continue
			}
			return true
		case r >= 0xdc00 && r < 0xe000:
			return true
		}
		i += 5
	}
	return false
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

// message holds the fields of a JSON-RPC message the guard looks at.
type message struct {
	ID     json.RawMessage // nil when absent
	Method *string         // nil when absent
	Params struct {
		RequestID json.RawMessage
	}
}

// decodeMessage decodes the fields the guard looks at from one line. Lines
// go-sdk sees hold one message each (checkLine refuses batches, and go-sdk
// writes batches only in answer to them). Member names match exactly, as
// go-sdk matches them: encoding/json would take "ID" for "id".
func decodeMessage(line []byte) (message, bool) {
	var m message
	v, ok := scanMembers(line, "id", "method", "params")
	if !ok {
		return m, false
	}
	m.ID = v[0]
	if raw := v[1]; raw != nil {
		var method string
		if json.Unmarshal(raw, &method) != nil {
			return m, false
		}
		m.Method = &method
	}
	if params, ok := scanMembers(v[2], "requestId"); ok {
		m.Params.RequestID = params[0]
	}
	return m, true
}

// noteIncoming notes the request in an incoming line, or returns the
// error reply to send instead of passing it on: a request whose id is that
// of a request still in progress (go-sdk would drop it, and its response
// could not be told apart from the first one's).
func (g *eofGuard) noteIncoming(line []byte) (reply []byte) {
	m, ok := decodeMessage(line)
	if !ok || m.Method == nil {
		return nil // a response to a request of ours
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
		return nil
	}
	k, ok := idKey(m.ID)
	if !ok {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.pending[k] > 0 {
		return errorReply(nil, codeInvalidRequest, fmt.Sprintf("Invalid Request: request id already in use: %s is the id of a request in progress", bytes.TrimSpace(m.ID)))
	}
	g.pending[k]++
	return nil
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
