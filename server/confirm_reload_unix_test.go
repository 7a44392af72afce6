//go:build unix

package server_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A call approved in a dialog on this machine (--confirm-via) after the
// tool set was replaced is checked against the current set too: its tool
// is gone, so nothing runs.
func TestApprovalViaDialogRecheckedAfterReload(t *testing.T) {
	dir := t.TempDir()
	answer := filepath.Join(dir, "answer")
	if err := syscall.Mkfifo(answer, 0o600); err != nil {
		t.Fatal(err)
	}
	started := filepath.Join(dir, "started")
	// zenity that says it started and approves once told to (shell
	// builtins only: PATH holds nothing else).
	script := "#!/bin/sh\n: > " + started + "\nread x < " + answer + "\nexit 0\n"
	if err := os.WriteFile(filepath.Join(dir, "zenity"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	t.Setenv("DISPLAY", ":99")
	t.Setenv("WAYLAND_DISPLAY", "")
	marker := filepath.Join(t.TempDir(), "resolved")
	srv := server.New(parseIndex(t, resolveConfig(t, marker)), executor.New(), server.WithConfirmVia(server.ViaDialog))
	cs := connectAt(t, srv, nil, oldProtocol) // no elicitation capability
	done := startCall(context.Background(), cs, &mcp.CallToolParams{Name: "climax_call", Arguments: map[string]any{"tool_name": "store_rm", "args": map[string]any{"bucket": "prod-logs"}}})
	waitUntil(t, "the dialog was shown", func() bool { return exists(started) })
	srv.Replace(auditIndex(t)) // store_rm is gone
	if err := os.WriteFile(answer, []byte("y\n"), 0); err != nil {
		t.Fatal(err)
	}
	r := receive(t, done)
	if r.err != nil {
		t.Fatal(r.err)
	}
	want := "store_rm was approved, but the served tools were reloaded while the user was asked, and it is no longer among them. Nothing ran."
	if got := text(t, r.res); !r.res.IsError || got != want || strings.Contains(got, "deleted") {
		t.Errorf("result %v %q, want %q", r.res.IsError, got, want)
	}
}
