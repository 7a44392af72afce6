package executor_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/executor"
)

// DecodeArgs decodes as a json.Decoder with UseNumber does, at every
// depth (it decodes the first levels without the Decoder, to spare a
// large argument the Decoder's copies).
func TestDecodeArgsLikeDecoder(t *testing.T) {
	deep := strings.Repeat(`{"a":[`, 12) + `1.50, "s", null` + strings.Repeat(`]}`, 12)
	for _, raw := range []string{
		`{}`,
		`{"n":12345678901234567890,"f":-1.5e3,"s":"a\u00e9\ud800","b":true,"z":null}`,
		`{"args":{"x":[[],{},[1,"2",{"y":0}]],"e":[]}}`,
		`{"deep":` + deep + `}`,
		` {"spaced" : [ 1 , 2 ] } `,
		"{\"esc\":\"\\\"q\\\" \\n\",\"plain\":[\"x\",\"\"]}",
	} {
		got, err := executor.DecodeArgs(json.RawMessage(raw))
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		dec := json.NewDecoder(bytes.NewReader([]byte(raw)))
		dec.UseNumber()
		var want map[string]any
		if err := dec.Decode(&want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\ngot  %#v\nwant %#v", raw, got, want)
		}
	}
	if _, err := executor.DecodeArgs(json.RawMessage(`{"a":`)); err == nil || !strings.Contains(err.Error(), "Arguments are not valid JSON") {
		t.Errorf("truncated arguments: %v", err)
	}
}

// TestDecodeArgsRefusesDuplicateKeys checks that an object naming a key
// twice is refused rather than read as its last occurrence: a call
// {"tool_name":"git_status","tool_name":"git_reset_hard"} ran the second,
// while anything reading the first (a log, a proxy) saw the harmless one.
func TestDecodeArgsRefusesDuplicateKeys(t *testing.T) {
	for _, raw := range []string{
		`{"tool_name":"git_status","tool_name":"git_reset_hard","args":{}}`,
		`{"tool_name":"git_log","args":{"path":"a","path":"/etc"}}`,
		`{"a":1,"\u0061":2}`,
		`{"v":{"deep":{"k":1, "k" :2}}}`,
	} {
		_, err := executor.DecodeArgs(json.RawMessage(raw))
		if err == nil || !strings.Contains(err.Error(), "twice") {
			t.Errorf("DecodeArgs(%s) = %v, want a duplicate-key error", raw, err)
		}
	}
	// Keys that only look alike: inside strings, in sibling objects, in
	// arrays of objects.
	for _, raw := range []string{
		`{"s":"x,\"s\":1","t":"}\\","u":1}`,
		`{"a":{"k":1},"b":{"k":2},"c":[{"k":1},{"k":2}]}`,
		`{"tool_name":"t","args":{"tool_name":"u"}}`,
	} {
		if _, err := executor.DecodeArgs(json.RawMessage(raw)); err != nil {
			t.Errorf("DecodeArgs(%s): %v", raw, err)
		}
	}
}

// TestDecodeArgsRefusesInvalidUTF8 checks that bytes that are not UTF-8
// are refused, naming where, rather than replaced by U+FFFD: a file name
// in another encoding would otherwise reach the command changed.
func TestDecodeArgsRefusesInvalidUTF8(t *testing.T) {
	_, err := executor.DecodeArgs(json.RawMessage("{\"revision\":\"\xc3\x28\"}"))
	if err == nil || !strings.Contains(err.Error(), "not valid UTF-8 (byte 13)") {
		t.Errorf("DecodeArgs(invalid UTF-8) = %v, want the offset of the bad byte", err)
	}
	// An escaped lone surrogate is valid JSON text; it decodes as U+FFFD.
	if _, err := executor.DecodeArgs(json.RawMessage(`{"s":"\ud800"}`)); err != nil {
		t.Errorf("escaped surrogate: %v", err)
	}
}
