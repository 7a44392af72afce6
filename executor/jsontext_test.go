package executor_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index/config"
)

// TestJSONArgTextGetsTheObjectChecks checks that a json argument sent as a
// string that holds JSON gets the checks the same value sent as an
// object gets: {"j":"{\"a\":1,\"a\":2}"} passed where {"j":{"a":1,"a":2}}
// was refused, a string-held array of 1,000,000 items passed the 100,000
// limit, one nested 10,001 deep became a quoted JSON string, and a lone
// surrogate escape in it went on.
func TestJSONArgTextGetsTheObjectChecks(t *testing.T) {
	rt := tool(config.Arg{Name: "j", Type: config.TypeJSON, Positional: true})
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	many := "[" + strings.Repeat("0,", executor.MaxJSONItems) + "0]"
	for text, want := range map[string]string{
		`{"a":1,"a":2}`:                      `its JSON text names 'a' twice in one object: send each key once`,
		` {"a":{"b":[{"k":1,"\u006b":2}]}} `: `its JSON text names 'k' twice in one object`,
		`["x","\udc00"]`:                     `its JSON text holds the escape \udc00 (byte 6), half of a UTF-16 surrogate pair without its other half`,
		`{"\ud800":1}`:                       `its JSON text holds the escape \ud800 (byte 2)`,
		deep(1001):                           `its JSON text nests deeper than 1,000 levels of arrays and objects`,
		deep(10001):                          `its JSON text nests deeper than 1,000 levels of arrays and objects`,
		many:                                 `its JSON text holds more than 100,000 array items and object members; send fewer`,
	} {
		_, err := executor.Validate(rt, map[string]any{"j": text})
		if err == nil || !strings.Contains(err.Error(), "Argument 'j': cannot convert '") || !strings.Contains(err.Error(), "to json: "+want) {
			t.Errorf("j=%.60q: %v; want it refused: %s", text, err, want)
		}
	}
	// The same checks on the object form, through DecodeArgs.
	for _, raw := range []string{`{"j":{"a":1,"a":2}}`, `{"j":{"a":{"b":[{"k":1,"\u006b":2}]}}}`, `{"j":["x","\udc00"]}`} {
		if _, err := executor.DecodeArgs(json.RawMessage(raw)); err == nil {
			t.Errorf("DecodeArgs(%s) passed", raw)
		}
	}
	// Within the limits, and text that is not JSON, as before.
	for text, want := range map[string]string{
		deep(1000): strings.Repeat("[", 1000) + strings.Repeat("]", 1000),
		"[" + strings.Repeat("0,", executor.MaxJSONItems-1) + "0]": "[" + strings.Repeat("0,", executor.MaxJSONItems-1) + "0]",
		` {"a" : [1, "\ud83d\ude00", {"a":2}]} `:                   `{"a":[1,"\ud83d\ude00",{"a":2}]}`,
		`{"a":"\\udc00"}`:                                          `{"a":"\\udc00"}`,
		"{not json":                                                `"{not json"`,
		`[1,2`:                                                     `"[1,2"`,
		`<b>&`:                                                     `"<b>&"`,
	} {
		values, err := executor.Validate(rt, map[string]any{"j": text})
		if err != nil || string(values["j"].(json.RawMessage)) != want {
			t.Errorf("j=%.60q: %.80v, %v; want %.80q", text, values["j"], err, want)
		}
	}
}

// TestJSONArgStringTextMatchesEncoder checks that a string sent for a json
// argument becomes the JSON string encoding/json's Encoder writes (HTML
// characters as they are): CLImax writes it into a buffer of its size
// rather than through the Encoder's, which doubled as it grew.
func TestJSONArgStringTextMatchesEncoder(t *testing.T) {
	rt := tool(config.Arg{Name: "j", Type: config.TypeJSON, Positional: true})
	var all strings.Builder
	for r := rune(0); r < 0x300; r++ {
		all.WriteRune(r)
	}
	for _, s := range []string{"", "x", `a "quoted" \ back\slash`, "<b>&amp;</b>", "tab\tline\nret\r\x00\x1f\x7f", "\u2028\u2029\u2027\u202a", "é😀", all.String(), "\xe2\x80"} {
		values, err := executor.Validate(rt, map[string]any{"j": s})
		var want strings.Builder
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if err != nil || string(values["j"].(json.RawMessage)) != strings.TrimSuffix(want.String(), "\n") {
			t.Errorf("j=%.80q: %.200s, %v; want %.200s", s, values["j"], err, want.String())
		}
	}
}

// TestJSONArgSafetyChecks checks that JSON text still gets an argument's
// pattern and leading-dash checks, which it skips when it cannot fail them.
func TestJSONArgSafetyChecks(t *testing.T) {
	rt := tool(config.Arg{Name: "j", Type: config.TypeJSON, Positional: true})
	if got := problems(rt, map[string]any{"j": json.Number("-1")}); !strings.Contains(got, "starts with '-'") {
		t.Errorf("j=-1: %q", got)
	}
	if got := problems(rt, map[string]any{"j": "[-1]"}); got != "" {
		t.Errorf("j=[-1]: %q", got)
	}
}
