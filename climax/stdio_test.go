//go:build unix

package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// stdioServer is the climax binary serving a config with one tool,
// "sleep" (fakecli sleep SECONDS PIDFILE), over pipes; startStdio's args
// are flags of run.
type stdioServer struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	stdout  *os.File // the reading end of climax's stdout
	lines   *bufio.Scanner
	stderr  *strings.Builder
	pidfile string
	exited  chan error
}

func startStdio(t *testing.T, args ...string) *stdioServer {
	t.Helper()
	bin, err := exec.LookPath("climax") // the test binary as climax (TestMain)
	if err != nil {
		t.Skip("climax not on PATH:", err)
	}
	dir := t.TempDir()
	config := filepath.Join(dir, "sleep.yaml")
	yaml := "name: sleeper\ncommand: fakecli\ntools:\n  - name: sleep\n    description: Sleep\n    command: sleep\n    timeout: 600\n    args:\n      - {name: seconds, positional: true}\n      - {name: pidfile, positional: true}\n"
	if err := os.WriteFile(config, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &stdioServer{stderr: &strings.Builder{}, pidfile: filepath.Join(dir, "pid"), exited: make(chan error, 1)}
	s.cmd = exec.Command(bin, append(append([]string{"--log-level", "info"}, args...), config)...)
	s.cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0")
	s.cmd.Stderr = s.stderr
	if s.stdin, err = s.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	s.cmd.Stdout = w
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	s.stdout = r
	s.lines = bufio.NewScanner(r)
	go func() { s.exited <- s.cmd.Wait() }()
	t.Cleanup(func() {
		s.cmd.Process.Kill()
		r.Close()
	})
	return s
}

func (s *stdioServer) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(s.stdin, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

// initialize opens the session and starts a long call, and returns the
// pid of its command.
func (s *stdioServer) startCall(t *testing.T) int {
	t.Helper()
	s.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if !s.lines.Scan() || !strings.Contains(s.lines.Text(), `"id":1`) {
		t.Fatalf("initialize: %q %v\n%s", s.lines.Text(), s.lines.Err(), s.stderr)
	}
	s.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	s.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"climax_call","arguments":{"tool_name":"sleep","args":{"seconds":"300","pidfile":%q}}}}`, s.pidfile))
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(s.pidfile); err == nil {
			if pid, err := strconv.Atoi(string(b)); err == nil {
				return pid
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the command did not start\n%s", s.stderr)
	return 0
}

// wantExit0 checks that climax exits with status 0 (not killed by a
// signal) and that the command pid is gone.
func (s *stdioServer) wantExit0(t *testing.T, pid int) {
	t.Helper()
	select {
	case err := <-s.exited:
		if err != nil {
			t.Errorf("climax: %v\n%s", err, s.stderr)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("climax still running 30s later\n%s", s.stderr)
	}
	if pid != 0 {
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("the command (pid %d) survived climax: %v", pid, err)
		}
	}
}

// SIGTERM (and SIGINT) over stdio cancel the running call and exit 0,
// although stdin is still open.
func TestRunStdioStopsOnSignal(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			s := startStdio(t)
			pid := s.startCall(t)
			if err := s.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			s.wantExit0(t, pid)
		})
	}
}

// A client that closes its end of climax's stdout is gone: the running
// call is cancelled and climax exits 0, whether stdin is still open or
// not, and without dying of SIGPIPE.
func TestRunStdioClientClosesStdout(t *testing.T) {
	t.Parallel()
	for _, closeStdin := range []bool{false, true} {
		t.Run(fmt.Sprintf("stdin closed=%v", closeStdin), func(t *testing.T) {
			t.Parallel()
			s := startStdio(t)
			pid := s.startCall(t)
			if closeStdin {
				s.stdin.Close()
			}
			s.stdout.Close()
			s.wantExit0(t, pid)
			if !strings.Contains(s.stderr.String(), "the client closed stdout") {
				t.Errorf("no reason logged:\n%s", s.stderr)
			}
		})
	}
}

// Writing to a stdout nobody reads fails quietly: climax exits 0.
func TestRunStdioStdoutClosedFromTheStart(t *testing.T) {
	t.Parallel()
	s := startStdio(t)
	s.stdout.Close()
	for i := range 3 {
		io.WriteString(s.stdin, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", i+1))
	}
	s.wantExit0(t, 0)
}
