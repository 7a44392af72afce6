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
		`{"n":12345678901234567890,"f":-1.5e3,"s":"a\u00e9\ud83d\ude00","b":true,"z":null}`,
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
		// Deeper than the levels decoded a level at a time.
		`{"a":{"b":{"c":{"d":{"e":[{"f":{"k":1,"k":2}}]}}}}}`,
		`{"a":[[[[[[[{"k":1,"\u006b":2}]]]]]]]}`,
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
}

// TestDecodeArgsRefusesLoneSurrogates checks that a string holding the
// escape of half a UTF-16 surrogate pair without its other half is
// refused, naming the escape and where, at any depth: encoding/json
// decodes it as U+FFFD, so {"s":"a\udc00b"} reached the command as
// "a\ufffdb", a value other than the one sent.
func TestDecodeArgsRefusesLoneSurrogates(t *testing.T) {
	for raw, want := range map[string]string{
		`{"s":"a\udc00b"}`:                         `the escape \udc00 (byte 7)`,
		`{"s":"\ud800"}`:                           `the escape \ud800 (byte 6)`,
		`{"s":"\uD800x"}`:                          `the escape \uD800 (byte 6)`,
		`{"s":"\ud800\u0041"}`:                     `the escape \ud800 (byte 6)`,
		`{"s":"\ud800\ud800\udc00"}`:               `the escape \ud800 (byte 6)`,
		`{"s":"\\\udfff"}`:                         `the escape \udfff (byte 8)`,
		`{"\udc00":1}`:                             `the escape \udc00 (byte 2)`,
		`{"a":[[[[[[[{"s":["x","\udbff"]}]]]]]]]}`: `the escape \udbff (byte 23)`,
	} {
		_, err := executor.DecodeArgs(json.RawMessage(raw))
		if err == nil || !strings.Contains(err.Error(), "Arguments hold "+want+", half of a UTF-16 surrogate pair without its other half") {
			t.Errorf("DecodeArgs(%s) = %v, want it refused: %s", raw, err, want)
		}
	}
	// A pair, an escaped backslash before "u", and the character itself
	// are what they say.
	for raw, want := range map[string]string{
		`{"s":"\ud83d\ude00"}`:     "\U0001F600",
		`{"s":"\\udc00"}`:          `\udc00`,
		`{"s":"x\\\ud83d\ude00"}`:  "x\\\U0001F600",
		`{"s":"\u00e9\uFFFD\u00"}`: "",
		`{"s":"\u00e9\uFFFD"}`:     "\u00e9\uFFFD",
	} {
		args, err := executor.DecodeArgs(json.RawMessage(raw))
		if want == "" {
			if err == nil || !strings.Contains(err.Error(), "not valid JSON") {
				t.Errorf("DecodeArgs(%s) = %v, want it refused as not JSON", raw, err)
			}
			continue
		}
		if err != nil || args["s"] != want {
			t.Errorf("DecodeArgs(%s) = %q, %v; want %q", raw, args["s"], err, want)
		}
	}
}
