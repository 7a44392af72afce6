package executor_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index/config"
)

// TestIgnoredArgNamesEscaped checks that an unknown argument name with
// control or format characters is shown escaped alike in every rendering:
// the note, structuredContent's ignored_args and a strict call's problem
// (ignored_args held the bidi override raw while the note replaced it).
func TestIgnoredArgNamesEscaped(t *testing.T) {
	tl := &config.Tool{Name: "t", Args: []config.Arg{{Name: "message"}}}
	name := "a\u202eb\n\x1b"
	const shown = `a\u202eb\n\x1b`
	ignored, more := executor.UnknownArgs(tl, map[string]any{name: 1})
	if len(ignored) != 1 || more != 0 || ignored[0].Name != shown {
		t.Fatalf("UnknownArgs = %+v, %d; want the name %s", ignored, more, shown)
	}
	res := executor.Result{IgnoredArgs: ignored}
	structured, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	for what, text := range map[string]string{"text": res.Text(), "structuredContent": string(structured)} {
		if strings.ContainsAny(text, "\u202e\x1b") {
			t.Errorf("%s holds the name raw: %q", what, text)
		}
	}
	if !strings.HasPrefix(res.Text(), `[ignored argument '`+shown+`'`) {
		t.Errorf("note: %q", res.Text())
	}
	var back struct {
		IgnoredArgs []executor.IgnoredArg `json:"ignored_args"`
	}
	if json.Unmarshal(structured, &back) != nil || len(back.IgnoredArgs) != 1 || back.IgnoredArgs[0].Name != shown {
		t.Errorf("structuredContent: %s", structured)
	}
	rt := &config.ResolvedTool{Tool: tl, CLI: &config.Config{Name: "cli", Command: "prog"}}
	r := executor.New(executor.WithStrictArgs(true))
	if _, out := r.Prepare(rt, map[string]any{name: 1}); !strings.Contains(out.Text, `Unknown argument '`+shown+`'`) {
		t.Errorf("strict: %q", out.Text)
	}
}
