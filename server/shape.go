package server

import (
	"fmt"

	"github.com/climax-mcp/climax/executor"
)

// Limits on the shape of one message, checked before it is decoded
// (docs/security.md, "Memory per message"). Decoding a JSON array item or
// object member into Go values costs about a hundred bytes even when it
// takes three bytes to send ("[],"): a message of millions of them made
// the server hold tens of times what it was sent. A message beyond these
// limits is refused, over stdio and HTTP, with a JSON-RPC error, and
// costs no more than its own bytes.
const (
	// maxDepth is the deepest nesting of arrays and objects (go-sdk's own
	// limit too), the same as the executor's for one argument's JSON.
	maxDepth = executor.MaxJSONDepth
	// maxItems bounds the array items and object members of one message,
	// all levels together: a few megabytes of decoded values at most; the
	// executor bounds one argument's JSON text alike.
	maxItems = executor.MaxJSONItems
)

// jsonShape returns the deepest nesting of arrays and objects in the
// valid JSON text b, and how many array items and object members it
// holds at all levels, without decoding it: every comma outside strings
// separates two items, and every container that is not empty holds a
// first one.
func jsonShape(b []byte) (depth, items int) {
	level := 0
	inString, escaped, opened := false, false, false
	for _, c := range b {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		if opened && c != ']' && c != '}' {
			items++ // the first item of a container
		}
		opened = false
		switch c {
		case '"':
			inString = true
		case '[', '{':
			level++
			depth = max(depth, level)
			opened = true
		case ']', '}':
			level--
		case ',':
			items++
		}
	}
	return depth, items
}

// tooDeep reports whether b nests deeper than maxDepth. encoding/json
// calls nesting past its own limit (10,000 levels) a syntax error: such
// text is refused for its depth, as shallower nesting is, not as text
// that is not JSON.
func tooDeep(b []byte) bool {
	depth, _ := jsonShape(b)
	return depth > maxDepth
}

// checkShape refuses a message (or an HTTP body: a batch of them) that
// holds more than the limits allow; b must be valid JSON, or too deep
// (see tooDeep). The reply is the JSON-RPC error to send, with the
// message's id when it is a request whose id can be echoed.
func checkShape(b []byte) (reply []byte, ok bool) {
	depth, items := jsonShape(b)
	var msg string
	switch {
	case depth > maxDepth:
		msg = fmt.Sprintf("Invalid Request: nested deeper than %d levels", maxDepth)
	case items > maxItems:
		msg = fmt.Sprintf("Invalid Request: the message holds %d array items and object members, more than the %d allowed in one message; send fewer or smaller arguments", items, maxItems)
	default:
		return nil, true
	}
	return errorReply(refusedRequestID(b), codeInvalidRequest, msg), false
}
