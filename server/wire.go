package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/climax-mcp/climax/executor"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The JSON-RPC rules climax applies to the messages it reads, over stdio
// (one line) and HTTP (one POST body), before go-sdk sees them
// (docs/security.md, "stdio robustness"; docs/http.md, "Access rules").
// Lines and bodies are capped and read whole, so they are decoded with
// encoding/json; values are kept as slices of the message, not copies.

// JSON-RPC error codes of the replies climax writes itself.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// maxExactID is the largest integer id go-sdk echoes exactly: it decodes
// numeric ids as float64 before storing them as int64.
const maxExactID = 1<<53 - 1

// rawValue is a JSON value as it appears in a message: a slice of the
// message's bytes, not a copy. nil when absent.
type rawValue []byte

// UnmarshalJSON keeps b, which encoding/json slices from the message it
// decodes (owned by the caller).
func (v *rawValue) UnmarshalJSON(b []byte) error {
	*v = b
	return nil
}

// member names the members of a JSON-RPC message (and of the params of
// notifications/cancelled) the rules look at. Decoded as a map key, it
// matches names exactly, as go-sdk does (encoding/json would take "ID"
// for "id" in a struct), and maps every other name to otherMember, so
// that an object of many members costs no more than one of a few.
type member uint8

const (
	otherMember member = iota
	memberJSONRPC
	memberID
	memberMethod
	memberParams
	memberResult
	memberError
	memberRequestID
)

var memberNames = map[string]member{
	"jsonrpc": memberJSONRPC, "id": memberID, "method": memberMethod, "params": memberParams,
	"result": memberResult, "error": memberError, "requestId": memberRequestID,
}

// UnmarshalText implements encoding.TextUnmarshaler for map keys.
func (m *member) UnmarshalText(name []byte) error {
	*m = memberNames[string(name)]
	return nil
}

// members decodes the members of the JSON object b that the rules look
// at, taking the last of duplicates as go-sdk does. isObject is false
// when b is not an object. b must be valid JSON within the shape limits
// (see checkShape).
func members(b []byte) (m map[member]rawValue, isObject bool) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' || json.Unmarshal(b, &m) != nil {
		return nil, false
	}
	return m, true
}

// checkedID is the id of a message that passed checkID.
type checkedID struct {
	id   jsonrpc.ID // as go-sdk holds it; not valid when absent or null
	echo any        // for an error reply about the message: nil (null) or the id's JSON text
}

// checkID checks the id of a message, raw (nil when absent), for go-sdk:
// a request's id must be a string or a number that go-sdk echoes exactly
// (see exactID), not null. When the id is refused (ok false), reply is
// the error response to send instead, or nil for a response (no
// "method") with an id go-sdk would change, which is dropped.
//
// go-sdk v1.8.0 truncates a fractional id (7.5 is answered as 7; go-sdk
// pull request 1178, open): TestUpstreamFractionalIDTruncated fails once
// it no longer does, and these rules can go.
func checkID(raw rawValue, isRequest bool) (id checkedID, reply []byte, ok bool) {
	switch {
	case raw == nil:
	case string(raw) == "null":
		if isRequest {
			return id, errorReply(nil, codeInvalidRequest, `Invalid Request: "id" must not be null (omit it to send a notification)`), false
		}
	case raw[0] == '"':
		var s string
		if json.Unmarshal(raw, &s) != nil || !utf8.Valid(raw) || hasLoneSurrogate(raw) {
			if !isRequest {
				return id, nil, false
			}
			return id, errorReply(nil, codeInvalidRequest, "Invalid Request: a string id must be valid UTF-8 without unpaired surrogate escapes"), false
		}
		id.id, _ = jsonrpc.MakeID(s)
		id.echo = json.RawMessage(raw)
	case raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9':
		n, exact := exactInt(raw)
		if !exact {
			if !isRequest {
				return id, nil, false
			}
			return id, errorReply(json.RawMessage(raw), codeInvalidRequest, fmt.Sprintf("Invalid Request: a numeric id must be an integer from %d to %d; use a string id otherwise", -maxExactID, maxExactID)), false
		}
		id.id, _ = jsonrpc.MakeID(float64(n))
		id.echo = json.RawMessage(raw)
	default:
		return id, errorReply(nil, codeInvalidRequest, "Invalid Request: id must be a string or a number"), false
	}
	return id, nil, true
}

// exactInt returns the value of the JSON number raw when go-sdk echoes
// it with the same value: an integer written without fraction or
// exponent, other than -0, from -maxExactID to maxExactID. 1.5 would
// come back as 1, 1e2 as 100 and larger integers rounded.
func exactInt(raw rawValue) (n int64, exact bool) {
	if string(raw) == "-0" || bytes.ContainsAny(raw, ".eE") {
		return 0, false
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	return n, err == nil && n >= -maxExactID && n <= maxExactID
}

// hasLoneSurrogate reports whether the JSON string literal s holds a
// \uXXXX escape of a UTF-16 surrogate that is not part of a pair: go-sdk
// would decode it to U+FFFD, and echo another id.
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

// decodeLine applies the rules of stdio to one line read from stdin
// (docs/security.md, "stdio robustness") and returns the message go-sdk
// is to be given, built here so that go-sdk sees exactly what was
// checked, its params and result slices of line. When the line is not
// passed on (msg nil), reply is the error response to write instead, or
// nil when nothing is to be answered (a blank line, or a response whose
// id or error go-sdk would misread). go-sdk v1.8.0 ends the whole session
// on one undecodable message (go-sdk issue 1209, open;
// TestUpstreamStdioMalformedLineEndsSession fails once it no longer
// does): a client's mistake must not take the server down.
func decodeLine(line []byte) (msg jsonrpc.Message, reply []byte) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil, nil
	}
	if !json.Valid(line) && !tooDeep(line) {
		return nil, errorReply(nil, codeParseError, "Parse error: the line is not valid JSON")
	}
	if reply, ok := checkShape(line); !ok {
		return nil, reply
	}
	if line[0] == '[' {
		return nil, errorReply(nil, codeInvalidRequest, "Invalid Request: JSON-RPC batches are not supported; send one message per line")
	}
	m, isObject := members(line)
	if !isObject {
		return nil, errorReply(nil, codeInvalidRequest, "Invalid Request: a message must be a JSON object")
	}
	isRequest := m[memberMethod] != nil
	id, reply, ok := checkID(m[memberID], isRequest)
	if !ok {
		return nil, reply
	}
	var version, method string
	if json.Unmarshal(m[memberJSONRPC], &version) != nil || version != "2.0" {
		return nil, errorReply(id.echo, codeInvalidRequest, `Invalid Request: "jsonrpc" must be "2.0"`)
	}
	if isRequest {
		if json.Unmarshal(m[memberMethod], &method) != nil {
			return nil, errorReply(id.echo, codeInvalidRequest, `Invalid Request: "method" must be a string`)
		}
		return &jsonrpc.Request{ID: id.id, Method: method, Params: json.RawMessage(m[memberParams])}, nil
	}
	if !id.id.IsValid() {
		return nil, errorReply(nil, codeInvalidRequest, `Invalid Request: a message needs a "method", or an "id" if it is a response`)
	}
	resp := &jsonrpc.Response{ID: id.id, Result: json.RawMessage(m[memberResult])}
	if k := answerDuplicateKey(m[memberResult]); k != "" {
		// An answer of two readings (approve false, then true) counts as
		// no answer: go-sdk would take the last.
		resp.Result, resp.Error = nil, &jsonrpc.Error{Code: codeInvalidRequest, Message: duplicateKeyMessage(k)}
		return resp, nil
	}
	if raw := m[memberError]; raw != nil {
		var e *jsonrpc.Error
		if json.Unmarshal(raw, &e) != nil {
			return nil, nil // a response go-sdk cannot read: dropped
		}
		if e != nil {
			resp.Error = e
		}
	}
	return resp, nil
}

// checkBodyIDs applies checkID to the messages of an HTTP POST body (one
// message, or a batch of them); body must be valid JSON within the shape
// limits (see checkShape). reply is the error response to the first
// message refused. A response whose id go-sdk would change gets an error
// too: over HTTP the POST that carries it must be answered. Two requests
// of one batch must not share an id (as over stdio, where an id in
// progress is refused).
func checkBodyIDs(body []byte) (reply []byte, ok bool) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 || body[0] != '[' {
		_, reply, ok := checkBodyMessage(body)
		return reply, ok
	}
	var batch []rawValue
	if json.Unmarshal(body, &batch) != nil {
		return nil, true // not JSON: go-sdk refuses it
	}
	seen := map[jsonrpc.ID]bool{}
	for _, msg := range batch {
		id, reply, ok := checkBodyMessage(msg)
		if !ok {
			return reply, false
		}
		if id.id.IsValid() {
			if seen[id.id] {
				return errorReply(id.echo, codeInvalidRequest, fmt.Sprintf("Invalid Request: request id already in use: %s is the id of another request of the batch", id.echo)), false
			}
			seen[id.id] = true
		}
	}
	return nil, true
}

// checkBodyMessage checks the id of one message of an HTTP body, and
// returns it when the message is a request.
func checkBodyMessage(msg []byte) (requestID checkedID, reply []byte, ok bool) {
	m, isObject := members(msg)
	if !isObject {
		return requestID, nil, true // go-sdk refuses it
	}
	isRequest := m[memberMethod] != nil
	id, reply, ok := checkID(m[memberID], isRequest)
	if !ok && reply == nil {
		reply = errorReply(nil, codeInvalidRequest, "Invalid Request: a response's id must be the id of the server's request")
	}
	if k := answerDuplicateKey(m[memberResult]); ok && !isRequest && k != "" {
		reply, ok = errorReply(nil, codeInvalidRequest, duplicateKeyMessage(k)), false
	}
	if isRequest {
		requestID = id
	}
	return requestID, reply, ok
}

// checkOpensSession refuses a message that comes without a session id
// (a POST without the Mcp-Session-Id header) and is not initialize: the
// MCP specification asks for a 400, go-sdk answers 200 with an error whose
// code is 0 ("invalid during session initialization"). A batch or a body
// that is not an object is left to go-sdk, which refuses both.
func checkOpensSession(body []byte) (reply []byte, ok bool) {
	m, isObject := members(body)
	if !isObject {
		return nil, true
	}
	var method string
	if json.Unmarshal(m[memberMethod], &method) == nil && method == "initialize" {
		return nil, true
	}
	return errorReply(refusedRequestID(body), codeInvalidRequest, "Bad Request: no "+sessionIDHeader+" header: a session starts with an initialize request, and every later request sends the "+sessionIDHeader+" its response gave"), false
}

// answerDepth is how deep in the result of a client's answer (an
// approval: result, content, a field's value) keys named twice are looked
// for.
const answerDepth = 3

// answerDuplicateKey returns a key the result of a client's answer names
// twice in one object, or "" (see [executor.DuplicateKey]).
func answerDuplicateKey(result rawValue) string {
	if result == nil {
		return ""
	}
	return executor.DuplicateKey(result, answerDepth)
}

func duplicateKeyMessage(key string) string {
	return "Invalid Request: the result names " + key + " twice in one object; send each key once"
}

// cancelledID returns the id of the request that the params of a
// notifications/cancelled name, as go-sdk reads it (a number is
// truncated to an integer, as go-sdk cancels it).
func cancelledID(params json.RawMessage) (jsonrpc.ID, bool) {
	m, isObject := members(params)
	if !isObject {
		return jsonrpc.ID{}, false
	}
	var v any
	if json.Unmarshal(m[memberRequestID], &v) != nil {
		return jsonrpc.ID{}, false
	}
	id, err := jsonrpc.MakeID(v)
	return id, err == nil && id.IsValid()
}

// errorReply is a JSON-RPC error response line.
func errorReply(id any, code int, msg string) []byte {
	type rpcError struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	b, _ := json.Marshal(struct {
		JSONRPC string   `json:"jsonrpc"`
		ID      any      `json:"id"`
		Error   rpcError `json:"error"`
	}{"2.0", id, rpcError{code, msg}})
	return append(b, '\n')
}

// refusedRequestID returns the id to echo in the refusal of a message
// refused for its shape (see checkShape): that of a request whose id
// passes checkID, else nil. The message may nest deeper than
// encoding/json decodes, so its top level is read token by token.
func refusedRequestID(b []byte) any {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber() // a number beyond float64's range is no error here
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var id rawValue
	isRequest := false
	for dec.More() {
		name, err := dec.Token()
		if err != nil {
			return nil
		}
		start := dec.InputOffset()
		for depth := 0; ; {
			t, err := dec.Token()
			if err != nil {
				return nil
			}
			switch t {
			case json.Delim('{'), json.Delim('['):
				depth++
			case json.Delim('}'), json.Delim(']'):
				depth--
			}
			if depth == 0 {
				break
			}
		}
		switch name {
		case "id":
			// The value, without the colon and spaces before it.
			id = bytes.TrimLeft(b[start:dec.InputOffset()], " \t\r\n:")
		case "method":
			isRequest = true
		}
	}
	if checked, _, ok := checkID(id, true); ok && isRequest {
		return checked.echo
	}
	return nil
}
