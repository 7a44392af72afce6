package server_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/server"
)

// TestCallRefusesNumbersTooLongInPlainForm sends, through the MCP server,
// an array argument of numbers whose plain decimal form would be a
// million characters each (1e-1000000 is 10 bytes): 2,000 such items in a
// 22 KB body ran the server out of memory, at validation, before the
// policy and approval. The call is refused, naming the argument and what
// to send instead, and the server goes on serving.
func TestCallRefusesNumbersTooLongInPlainForm(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf(`name: fake-files
description: "A fake CLI for tests"
command: %q
env:
  %s: "1"
  GORACE: atexit_sleep_ms=0
tools:
  - name: fake_files
    description: "Echo the files named"
    command: echo
    args:
      - name: file
        type: array
        positional: true
`, exe, fakeEnv)
	cs := connect(t, server.New(parseIndex(t, cfg), executor.New()), nil)
	// Few enough items that without the bound the call still ends, in
	// seconds (about 70 ms and 3 MB each).
	items := make([]json.RawMessage, 50)
	for i := range items {
		items[i] = json.RawMessage("1e-1000000")
	}
	res := call(t, cs, "climax_call", map[string]any{"tool_name": "fake_files", "args": map[string]any{"file": items}})
	got := text(t, res)
	if !res.IsError || !strings.HasPrefix(got, "Argument validation failed:\n  - Argument 'file': item 1: cannot convert 1e-1000000 to string: in plain decimal notation it would take 1,000,002 characters, more than the 400 allowed; to pass the number as written, send it as a JSON string (in quotes)") ||
		!strings.Contains(got, "… and 45 more items refused") || len(got) > 4000 {
		t.Errorf("50 items of 1e-1000000: %v %.600q", res.IsError, got)
	}
	res = call(t, cs, "climax_call", map[string]any{"tool_name": "fake_files", "args": map[string]any{"file": []any{"1e-1000000", json.RawMessage("1.5e3")}}})
	if got := text(t, res); res.IsError || !strings.Contains(got, "1e-1000000 1500") {
		t.Errorf("the number as a string: %v %q", res.IsError, got)
	}
}

// TestCallRefusesLoneSurrogates checks, through the MCP server, that a
// string holding half of a UTF-16 surrogate pair alone is refused rather
// than passed on with U+FFFD in its place ({"message":"a\udc00b"} ran as
// "a\ufffdb"): the arguments reach CLImax as the text sent.
func TestCallRefusesLoneSurrogates(t *testing.T) {
	for _, classic := range []bool{false, true} {
		cs := newSession(t, server.WithClassic(classic))
		args := json.RawMessage(`{"message":"a\udc00b"}`)
		name, want := "fake_echo", `Argument validation failed:
  - Arguments hold the escape \udc00 (byte 13), half of a UTF-16 surrogate pair without its other half`
		if !classic {
			name, args = "climax_call", json.RawMessage(`{"tool_name":"fake_echo","args":`+string(args)+`}`)
			want = strings.Replace(want, "(byte 13)", "(byte 45)", 1)
		}
		res := call(t, cs, name, args)
		if got := text(t, res); !res.IsError || !strings.HasPrefix(got, want) {
			t.Errorf("classic=%v: %v %q", classic, res.IsError, got)
		}
		// A pair is one character, which runs.
		args = json.RawMessage(`{"message":"a\ud83d\ude00b"}`)
		if !classic {
			args = json.RawMessage(`{"tool_name":"fake_echo","args":` + string(args) + `}`)
		}
		res = call(t, cs, name, args)
		if got := text(t, res); res.IsError || !strings.Contains(got, "a\U0001F600b") {
			t.Errorf("classic=%v, a pair: %v %q", classic, res.IsError, got)
		}
	}
}
