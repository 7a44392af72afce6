package server

import (
	"strings"
	"testing"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index/config"
)

// The working directory is quoted like the command: a name with a newline
// cannot add a line of its own to the question.
func TestApprovalMessageQuotesTheDirectory(t *testing.T) {
	rt := &config.ResolvedTool{Tool: &config.Tool{Name: "t"}, CLI: &config.Config{}}
	msg := approvalMessage(rt, &executor.Command{Argv: []string{"rm", "x"}, Dir: "/tmp/a\nExecutor: docker, image safe"}, executor.Resolution{})
	if strings.Count(msg, "\nExecutor:") != 1 || !strings.HasSuffix(msg, "\nExecutor: local") {
		t.Errorf("the directory added a line:\n%s", msg)
	}
}

// A secret working directory is shown as *** in the question.
func TestApprovalMessageHidesASecretDirectory(t *testing.T) {
	rt := &config.ResolvedTool{
		Tool: &config.Tool{Name: "t", Args: []config.Arg{{Name: "dir", Cwd: true, Secret: true}}},
		CLI:  &config.Config{Name: "c", Command: "ls"},
	}
	cmd, err := executor.Build(rt, map[string]any{"dir": "/srv/hidden-place"})
	if err != nil {
		t.Fatal(err)
	}
	if msg := approvalMessage(rt, cmd, executor.Resolution{}); strings.Contains(msg, "hidden-place") || !strings.Contains(msg, "Working directory: '***'") && !strings.Contains(msg, "Working directory: ***") {
		t.Errorf("question:\n%s", msg)
	}
}

// The size of standard input is counted in the question, one byte too.
func TestApprovalMessageCountsStandardInput(t *testing.T) {
	rt := &config.ResolvedTool{Tool: &config.Tool{Name: "t"}, CLI: &config.Config{}}
	for stdin, want := range map[string]string{"x": "\nStandard input: 1 byte", "xy": "\nStandard input: 2 bytes"} {
		msg := approvalMessage(rt, &executor.Command{Argv: []string{"cat"}, Stdin: stdin}, executor.Resolution{})
		if !strings.HasSuffix(msg, want) {
			t.Errorf("stdin %q: %q, want it to end in %q", stdin, msg, want)
		}
	}
}
