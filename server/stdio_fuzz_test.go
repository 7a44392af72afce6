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

// FuzzCheckLine checks the stdio guard's promises for any input line: a
// line it passes on decodes in go-sdk, and a request's id comes back from
// go-sdk with the value the client sent; a line it refuses gets at most
// one reply, valid JSON, whose id is null or the line's own id text.
func FuzzCheckLine(f *testing.F) {
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
		`{"jsonrpc":"2.0","ID":8,"method":"ping"}`,
		`{"jsonrpC":"2.0","id":9,"method":"ping"}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`not json`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		reply, ok := checkLine([]byte(line))
		if !ok {
			if reply == nil {
				return
			}
			var r struct {
				ID json.RawMessage `json:"id"`
			}
			if bytes.Count(reply, []byte("\n")) != 1 || json.Unmarshal(reply, &r) != nil {
				t.Fatalf("reply %q to %q is not one JSON line", reply, line)
			}
			if obj, _ := members([]byte(line)); string(r.ID) != "null" && (obj["id"] == nil || !sameID(obj["id"], r.ID)) {
				t.Fatalf("reply to %q has id %s, not the line's", line, r.ID)
			}
			return
		}
		if strings.TrimSpace(line) == "" {
			return
		}
		msg, err := jsonrpc.DecodeMessage([]byte(line))
		if err != nil {
			t.Fatalf("passed %q, which go-sdk cannot decode: %v", line, err)
		}
		req, isRequest := msg.(*jsonrpc.Request)
		if !isRequest || !req.ID.IsValid() {
			return
		}
		obj, _ := members([]byte(line))
		echoed, err := json.Marshal(req.ID.Raw())
		if err != nil {
			t.Fatal(err)
		}
		if obj["id"] == nil || !sameID(obj["id"], echoed) {
			t.Fatalf("id %s of %q comes back as %s", obj["id"], line, echoed)
		}
	})
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

// FuzzCheckBodyIDs checks the top-level scan of HTTP bodies against a full
// decoding: on valid JSON, scanMessage finds the "id" and "method" that
// members finds, and checkBodyIDs refuses a body exactly when checkID
// refuses one of its messages, with the same reply. Invalid JSON must not
// make it fail.
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
		`{"id":"\ud800","method":"m"}`,
		`{"id":[1],"method":"m"}`,
		`not json`,
		`{"id":1.5`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		body := []byte(s)
		reply, ok := checkBodyIDs(body)
		if !json.Valid(body) {
			return
		}
		check := func(msg []byte) ([]byte, bool) {
			obj, isObject := members(msg)
			if !isObject {
				return nil, true
			}
			id, method, scanned := scanMessage(msg)
			_, hasMethod := obj["method"]
			if !scanned || !bytes.Equal(id, obj["id"]) || (id == nil) != (obj["id"] == nil) || !bytes.Equal(method, obj["method"]) || (method != nil) != hasMethod {
				t.Fatalf("scanMessage(%s) = %s, %s, %v; members: %s, %s", msg, id, method, scanned, obj["id"], obj["method"])
			}
			_, r, ok := checkID(obj["id"], hasMethod)
			if !ok && r == nil {
				r = []byte("dropped")
			}
			return r, ok
		}
		wantReply, wantOK := []byte(nil), true
		if trimmed := bytes.TrimSpace(body); len(trimmed) > 0 && trimmed[0] == '[' {
			var msgs []json.RawMessage
			json.Unmarshal(trimmed, &msgs)
			var ids []string // of the batch's requests
			for _, m := range msgs {
				if wantReply, wantOK = check(m); !wantOK {
					break
				}
				obj, isObject := members(m)
				if _, hasMethod := obj["method"]; !isObject || !hasMethod || obj["id"] == nil {
					continue
				}
				if id := string(obj["id"]); slices.Contains(ids, id) {
					wantReply, wantOK = []byte("dropped"), false // refused as a repeated id
					break
				} else {
					ids = append(ids, id)
				}
			}
		} else {
			wantReply, wantOK = check(body)
		}
		if ok != wantOK || !ok && string(wantReply) != "dropped" && !bytes.Equal(reply, wantReply) {
			t.Fatalf("checkBodyIDs(%s) = %s, %v; want %s, %v", body, reply, ok, wantReply, wantOK)
		}
	})
}

// members decodes the members of a JSON object by their exact names (the
// last of duplicates, as go-sdk takes them), or returns false when b is
// not one: the reference the scanners (scanMembers, scanMessage) are
// checked against.
func members(b []byte) (map[string]json.RawMessage, bool) {
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
