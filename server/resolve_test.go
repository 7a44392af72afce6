package server_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/server"
)

// resolveConfig is a 0.5-style config: a destructive tool whose approval
// question names the bucket and what a resolver found out about it. The
// resolver writes its pid to marker when it runs.
func resolveConfig(t *testing.T, marker string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf(`name: store
command: %q
env: {CLIMAX_FAKE_CLI: "1", GORACE: atexit_sleep_ms=0}
tools:
  - name: store_rm
    description: Delete a bucket
    risk: destructive
    command: echo deleted
    confirm_message: "Delete bucket {bucket} ({_count})?"
    resolve:
      _count:
        command: pid=%s echo
        args: {id: "{bucket}"}
    args:
      - {name: bucket, positional: true, required: true, pattern: "[a-z-]+"}
`, exe, marker)
}

// The resolver runs before the user is asked, and its output is in the
// question; with no policy and no --confirm, risk: destructive asks.
func TestApprovalResolvedQuestion(t *testing.T) {
	t.Parallel()
	for _, version := range protocols {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			marker := filepath.Join(t.TempDir(), "resolved")
			a := &answering{answer: answer("accept", map[string]any{"approve": true})}
			cs := connectAt(t, server.New(parseIndex(t, resolveConfig(t, marker)), executor.New()), a.options(), version)
			res := call(t, cs, "climax_call", map[string]any{"tool_name": "store_rm", "args": map[string]any{"bucket": "prod-logs"}})
			if res.IsError || !strings.Contains(text(t, res), "deleted") {
				t.Fatalf("approved call: %v %q", res.IsError, text(t, res))
			}
			asked := a.asked()
			if len(asked) != 1 || !strings.HasPrefix(asked[0].Message, "Delete bucket prod-logs (--id prod-logs)?\n\n") || !exists(marker) {
				t.Fatalf("asked %d times, resolver ran %v; question:\n%v", len(asked), exists(marker), asked)
			}
		})
	}
}

// Resolvers never run for a call refused before anyone is asked: by
// validation, or because the client cannot be asked.
func TestApprovalResolversNotRunForRefusedCalls(t *testing.T) {
	t.Parallel()
	marker := filepath.Join(t.TempDir(), "resolved")
	ix := parseIndex(t, resolveConfig(t, marker))
	a := &answering{answer: answer("accept", map[string]any{"approve": true})}
	cs := connectAt(t, server.New(ix, executor.New()), a.options(), oldProtocol)
	res := call(t, cs, "climax_call", map[string]any{"tool_name": "store_rm", "args": map[string]any{"bucket": "Prod Logs"}})
	if !res.IsError || len(a.asked()) != 0 {
		t.Fatalf("invalid call: %v %q, asked %d", res.IsError, text(t, res), len(a.asked()))
	}
	cs = connectAt(t, server.New(ix, executor.New()), nil, oldProtocol) // cannot be asked
	res = call(t, cs, "climax_call", map[string]any{"tool_name": "store_rm", "args": map[string]any{"bucket": "prod-logs"}})
	if !res.IsError || !strings.Contains(text(t, res), "could not ask") {
		t.Fatalf("unaskable call: %v %q", res.IsError, text(t, res))
	}
	if exists(marker) {
		t.Error("a resolver ran for a refused call")
	}
}
