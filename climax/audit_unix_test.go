//go:build unix

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// An audit log that is a FIFO nobody reads fails the start at once with a
// message saying so, instead of blocking the start.
func TestRunAuditLogFIFOWithoutReader(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "audit.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	config := writeFile(t, dir, "c.yaml", "name: c\ncommand: echo\ntools:\n  - name: c_echo\n    description: Echo\n")
	done := make(chan struct{})
	var code int
	var stderr string
	go func() {
		defer close(done)
		code, _, stderr = runClimax(t, "run", "--audit-log", fifo, config)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("climax run still blocked 30s later")
	}
	if code != exitError || !strings.Contains(stderr, "is a named pipe (FIFO) that no process has open for reading: start its reader first") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
}

// A FIFO audit log whose reader stops reading holds no call, and SIGTERM
// still stops the server promptly: records that
// cannot be written are dropped, and the wait for them at shutdown is
// bounded.
func TestRunAuditLogStalledFIFO(t *testing.T) {
	t.Parallel()
	fifo := filepath.Join(t.TempDir(), "audit.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	reader, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0) // open, never read
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	s := startStdio(t, "--audit-log", fifo)
	s.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	s.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	// Records of about 4 KB each: 40 of them overflow a pipe's buffer
	// (64 KiB on Linux).
	var args []string
	for i := range 20 {
		args = append(args, fmt.Sprintf(`"arg%d":%q`, i, strings.Repeat("v", 190)))
	}
	const calls = 40
	for i := range calls {
		s.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"climax_call","arguments":{"tool_name":"made_up","args":{%s}}}}`, i+2, strings.Join(args, ",")))
	}
	answered := make(chan int, 1)
	go func() {
		n := 0
		for n < calls+1 && s.lines.Scan() {
			n++
		}
		answered <- n
	}()
	select {
	case n := <-answered:
		if n != calls+1 {
			t.Fatalf("%d of %d answers: %v", n, calls+1, s.lines.Err())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the calls were not all answered 30s later: the audit log holds them")
	}
	start := time.Now()
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	s.wantExit0(t, 0)
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("climax took %s to stop after SIGTERM", d)
	}
	if !strings.Contains(s.stderr.String(), "audit log: records of the last calls not written at shutdown") {
		t.Errorf("stderr:\n%s", s.stderr)
	}
}
