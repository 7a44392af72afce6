package server

import (
	"bytes"
	"encoding/json"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// FuzzDecodeLine checks the stdio rules for any input line: a line they
// pass gives the message go-sdk's own decoding gives, and a request's id
// comes back from go-sdk with the value the client sent; a line they
// refuse gets at most one reply, valid JSON, whose id is null or the
// line's own id text.
func FuzzDecodeLine(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"a","method":"ping"}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1e400,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":-0,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"\ud800","method":"ping"}`,
		`{"jsonrpc":"2.0","id":"\ud83d\ude00","method":"ping"}`,
		`{"jsonrpc":"2.0","id":7,"result":{}}`,
		`{"jsonrpc":"2.0","id":7,"error":{"code":-1,"message":"no"}}`,
		`{"jsonrpc":"2.0","ID":8,"method":"ping"}`,
		`{"jsonrpC":"2.0","id":9,"method":"ping"}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":[1,"b"]},"params":{"c":2}}`,
		`{"\u0069d":2,"jsonrpc":"2.0","method":"ping"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`not json`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		msg, reply := decodeLine([]byte(line))
		if msg == nil {
			if reply == nil {
				return
			}
			var r struct {
				ID json.RawMessage `json:"id"`
			}
			if bytes.Count(reply, []byte("\n")) != 1 || json.Unmarshal(reply, &r) != nil {
				t.Fatalf("reply %q to %q is not one JSON line", reply, line)
			}
			if obj, _ := refMembers([]byte(line)); string(r.ID) != "null" && (obj["id"] == nil || !sameID(obj["id"], r.ID)) {
				t.Fatalf("reply to %q has id %s, not the line's", line, r.ID)
			}
			return
		}
		want, err := jsonrpc.DecodeMessage([]byte(line))
		if err != nil {
			t.Fatalf("passed %q, which go-sdk cannot decode: %v", line, err)
		}
		if !sameMessage(msg, want) {
			t.Fatalf("%q decodes as %#v; go-sdk decodes it as %#v", line, msg, want)
		}
		req, isRequest := msg.(*jsonrpc.Request)
		if !isRequest || !req.ID.IsValid() {
			return
		}
		obj, _ := refMembers([]byte(line))
		echoed, err := json.Marshal(req.ID.Raw())
		if err != nil {
			t.Fatal(err)
		}
		if obj["id"] == nil || !sameID(obj["id"], echoed) {
			t.Fatalf("id %s of %q comes back as %s", obj["id"], line, echoed)
		}
	})
}

// sameMessage reports whether two decoded messages are the same request,
// or responses with the same id, result and presence of an error.
func sameMessage(a, b jsonrpc.Message) bool {
	switch a := a.(type) {
	case *jsonrpc.Request:
		b, ok := b.(*jsonrpc.Request)
		return ok && a.ID == b.ID && a.Method == b.Method && bytes.Equal(a.Params, b.Params)
	case *jsonrpc.Response:
		b, ok := b.(*jsonrpc.Response)
		return ok && a.ID == b.ID && bytes.Equal(a.Result, b.Result) && (a.Error == nil) == (b.Error == nil)
	}
	return false
}

// sameID reports whether two JSON ids denote the same value: the same
// text, numbers equal exactly (-0 is not 0), strings equal without the
// replacement of invalid text by U+FFFD that decoding does.
func sameID(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	if a[0] == '"' || b[0] == '"' {
		var sa, sb string
		if json.Unmarshal(a, &sa) != nil || json.Unmarshal(b, &sb) != nil || sa != sb {
			return false
		}
		// A U+FFFD in the decoded string must have been sent as such.
		return !strings.ContainsRune(sa, '\uFFFD') || bytes.Contains(a, []byte("\uFFFD")) || bytes.Contains(bytes.ToLower(a), []byte(`\ufffd`))
	}
	ra, oka := new(big.Rat).SetString(string(a))
	rb, okb := new(big.Rat).SetString(string(b))
	return oka && okb && ra.Cmp(rb) == 0 && string(a) != "-0"
}

// FuzzCheckBodyIDs checks the id rules of HTTP bodies (one message or a
// batch) against go-sdk's own decoding: when a body within the shape
// limits passes, each request in it comes back from go-sdk with the id
// the client sent, and no two requests share one; when it is refused,
// the reply is one JSON line whose id is null or an id of the body.
func FuzzCheckBodyIDs(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		` {"method":"tools/call","params":{"id":1.5,"s":"}\"]"},"id":-0} `,
		`{"\u0069d":2.5,"method":"ping"}`,
		`{"id":1,"id":1e2,"method":"x"}`,
		`{"ID":1.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":9007199254740993,"result":{}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2.9,"method":"ping"}]`,
		`[1,"x",{"id":null,"method":"m"}]`,
		`[{"id":7,"method":"a"},{"id":7,"method":"b"}]`,
		`[{"id":"a","method":"a"},{"id":"\u0061","method":"b"}]`,
		`{"id":"\ud800","method":"m"}`,
		`{"id":[1],"method":"m"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		body := []byte(s)
		if !json.Valid(body) {
			return
		}
		if _, ok := checkShape(body); !ok {
			return
		}
		reply, ok := checkBodyIDs(body)
		msgs := []json.RawMessage{body}
		if trimmed := bytes.TrimSpace(body); trimmed[0] == '[' {
			json.Unmarshal(trimmed, &msgs)
		}
		if !ok {
			var r struct {
				ID json.RawMessage `json:"id"`
			}
			if bytes.Count(reply, []byte("\n")) != 1 || json.Unmarshal(reply, &r) != nil {
				t.Fatalf("reply %q to %s is not one JSON line", reply, body)
			}
			if string(r.ID) != "null" && !slices.ContainsFunc(msgs, func(m json.RawMessage) bool {
				obj, _ := refMembers(m)
				return obj["id"] != nil && sameID(obj["id"], r.ID)
			}) {
				t.Fatalf("reply to %s has id %s, not one of the body's", body, r.ID)
			}
			return
		}
		var ids []jsonrpc.ID
		for _, m := range msgs {
			msg, err := jsonrpc.DecodeMessage(m)
			req, isRequest := msg.(*jsonrpc.Request)
			if err != nil || !isRequest || !req.ID.IsValid() {
				continue // go-sdk refuses it, or there is no id to echo
			}
			obj, _ := refMembers(m)
			echoed, _ := json.Marshal(req.ID.Raw())
			if !sameID(obj["id"], echoed) {
				t.Fatalf("passed %s, whose id %s comes back as %s", body, obj["id"], echoed)
			}
			if slices.Contains(ids, req.ID) {
				t.Fatalf("passed %s, whose requests share the id %s", body, echoed)
			}
			ids = append(ids, req.ID)
		}
	})
}

// refMembers decodes the members of a JSON object by their exact names
// (the last of duplicates, as go-sdk takes them), or returns false when b
// is not one: the reference the rules are checked against.
func refMembers(b []byte) (map[string]json.RawMessage, bool) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return nil, false
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(b, &obj) != nil {
		return nil, false
	}
	return obj, true
}
