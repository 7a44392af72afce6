package metatools_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestSearchIgnoredNamesEscaped checks that climax_search shows a key
// name with a bidi override or a control character escaped in its
// ignored_args as in its note (ignored_args held it raw).
func TestSearchIgnoredNamesEscaped(t *testing.T) {
	t.Parallel()
	res := newTools(t).Search(map[string]any{"query": "commit", "x\u202ey\n": 1})
	const shown = `x\u202ey\n`
	var got struct {
		Note        string `json:"note"`
		IgnoredArgs []struct {
			Name string `json:"name"`
		} `json:"ignored_args"`
	}
	if err := json.Unmarshal([]byte(res.Text), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.IgnoredArgs) != 1 || got.IgnoredArgs[0].Name != shown || len(res.IgnoredArgs) != 1 || res.IgnoredArgs[0].Name != shown ||
		!strings.HasPrefix(got.Note, `[ignored argument '`+shown+`'`) || strings.Contains(res.Text, "\u202e") {
		t.Errorf("got %s", res.Text)
	}
}

// TestCallBesideKeysEscaped checks that a key given beside climax_call's
// args is shown escaped as the other notes show a name (it was quoted in
// Go syntax, "x\u202e", inside the quotes of the note).
func TestCallBesideKeysEscaped(t *testing.T) {
	out := newTools(t).Call(context.Background(), map[string]any{"tool_name": "fake_echo", "args": map[string]any{"message": "hi"}, "r\u202eq": 1})
	if want := `[ignored climax_call key 'r\u202eq': the tool's arguments go in args]` + "\n\nhi"; out.Text != want {
		t.Errorf("Call = %q, want %q", out.Text, want)
	}
}
