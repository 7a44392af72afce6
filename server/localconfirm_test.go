//go:build unix

package server_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/server"
	"github.com/climax-mcp/climax/server/localconfirm"
)

// fakeZenity puts a zenity on PATH (and nothing else) that records its
// arguments and exits with status; DISPLAY is set, as on a desktop.
func fakeZenity(t *testing.T, status string) (argsFile string) {
	dir := t.TempDir()
	argsFile = filepath.Join(dir, "args")
	script := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > " + argsFile + "\nexit " + status + "\n"
	if err := os.WriteFile(filepath.Join(dir, "zenity"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	t.Setenv("DISPLAY", ":99")
	t.Setenv("WAYLAND_DISPLAY", "")
	return argsFile
}

// A client that cannot be asked: --confirm-via dialog asks through the
// native dialog, whose answer decides; the question is the tool's
// confirm message with the resolved value, never markup.
func TestApprovalViaDialog(t *testing.T) {
	for _, tc := range []struct {
		status string
		ran    bool
		text   string
	}{
		{"0", true, "deleted prod-logs"},
		{"1", false, "The user declined to run store_rm: nothing ran."},
		{"5", false, "Could not get the user's approval for store_rm (zenity: "},
	} {
		t.Run("zenity exits "+tc.status, func(t *testing.T) {
			argsFile := fakeZenity(t, tc.status)
			marker := filepath.Join(t.TempDir(), "resolved")
			srv := server.New(parseIndex(t, resolveConfig(t, marker)), executor.New(), server.WithConfirmVia(server.ViaDialog))
			cs := connectAt(t, srv, nil, oldProtocol) // no elicitation capability
			res := call(t, cs, "climax_call", map[string]any{"tool_name": "store_rm", "args": map[string]any{"bucket": "prod-logs"}})
			if res.IsError == tc.ran || !strings.Contains(text(t, res), tc.text) {
				t.Fatalf("result %v %q", res.IsError, text(t, res))
			}
			args, err := os.ReadFile(argsFile)
			if err != nil {
				t.Fatal("zenity was not run")
			}
			for _, want := range []string{"--question", "--no-markup", "--title=CLImax approval", "--text=Delete bucket prod-logs (--id prod-logs)?"} {
				if !strings.Contains(string(args), want+"\n") {
					t.Errorf("zenity arguments lack %q:\n%s", want, args)
				}
			}
		})
	}
}

// --confirm-via auto without a display or a terminal falls to the
// headless rule, and says why; resolvers do not run then.
func TestApprovalViaAutoHeadless(t *testing.T) {
	fakeZenity(t, "0")
	t.Setenv("DISPLAY", "")
	old := localconfirm.TTYPath
	localconfirm.TTYPath = filepath.Join(t.TempDir(), "no-tty") // as under a desktop client, whatever runs the test
	t.Cleanup(func() { localconfirm.TTYPath = old })
	marker := filepath.Join(t.TempDir(), "resolved")
	srv := server.New(parseIndex(t, resolveConfig(t, marker)), executor.New(), server.WithConfirmVia(server.ViaAuto))
	cs := connectAt(t, srv, nil, oldProtocol)
	res := call(t, cs, "climax_call", map[string]any{"tool_name": "store_rm", "args": map[string]any{"bucket": "prod-logs"}})
	if !res.IsError || !strings.Contains(text(t, res), "could not ask for it: the client did not declare the elicitation capability; ") || exists(marker) {
		t.Fatalf("result %v %q, resolver ran %v", res.IsError, text(t, res), exists(marker))
	}
}

// The policy's approval.headless: approve runs a call nobody can be asked
// about; an operator's --confirm-fallback deny wins over it.
func TestApprovalPolicyHeadless(t *testing.T) {
	t.Parallel()
	marker := filepath.Join(t.TempDir(), "resolved")
	ix := parseIndexWithPolicy(t, "default: enabled\napproval: {headless: approve}\n", resolveConfig(t, marker))
	cs := connectAt(t, server.New(ix, executor.New()), nil, oldProtocol)
	res := call(t, cs, "climax_call", map[string]any{"tool_name": "store_rm", "args": map[string]any{"bucket": "prod-logs"}})
	if res.IsError || !strings.Contains(text(t, res), "deleted prod-logs") {
		t.Fatalf("headless approve: %v %q", res.IsError, text(t, res))
	}
	cs = connectAt(t, server.New(ix, executor.New(), server.WithConfirmFallback(false)), nil, oldProtocol)
	if res := call(t, cs, "climax_call", map[string]any{"tool_name": "store_rm", "args": map[string]any{"bucket": "prod-logs"}}); !res.IsError {
		t.Fatalf("--confirm-fallback deny did not win: %q", text(t, res))
	}
}
