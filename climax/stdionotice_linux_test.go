package main

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY returns the two ends of a new pseudo-terminal, or skips the test
// where there is none.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	fd := int(master.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlock pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Skipf("pseudo-terminal number: %v", err)
	}
	slave, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { slave.Close() })
	return master, slave
}

// A stdio server run by hand on a terminal says on stderr that it waits for
// an MCP client; stdout stays empty. With stdin from a pipe (an MCP client
// started it) nothing is printed.
func TestStdioNoticeOnTerminal(t *testing.T) {
	master, slave := openPTY(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	for _, tt := range []struct {
		name string
		v    any
		want bool
	}{{"pty", slave, true}, {"pipe", r, false}, {"/dev/null", null, false}, {"buffer", &bytes.Buffer{}, false}} {
		if got := isTerminal(tt.v); got != tt.want {
			t.Errorf("isTerminal(%s) = %v, want %v", tt.name, got, tt.want)
		}
	}

	// climax run git with stdin and stderr on the terminal: the line
	// appears, then Ctrl-D ends the input and the server.
	var stdout bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- run([]string{"run", "git"}, slave, &stdout, slave) }()
	got := make(chan string, 1)
	go func() {
		var seen []byte
		buf := make([]byte, 4096)
		for !bytes.Contains(seen, []byte("\n")) {
			n, err := master.Read(buf)
			seen = append(seen, buf[:n]...)
			if err != nil {
				break
			}
		}
		got <- string(seen)
	}()
	select {
	case line := <-got:
		if !regexp.MustCompile(`^climax: serving [0-9]+ tools \(discovery mode\) over stdio: waiting for an MCP client's JSON-RPC on stdin; Ctrl-D or Ctrl-C stops`).MatchString(line) {
			t.Errorf("stderr on the terminal: %q", line)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no line on the terminal within 30 s")
	}
	master.Write([]byte{4}) // Ctrl-D: end of input
	select {
	case code := <-done:
		if code != exitOK || stdout.Len() != 0 {
			t.Errorf("exit %d, stdout %q (want 0 and nothing)", code, stdout.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not stop at Ctrl-D")
	}

	// The same with stdin from a pipe: nothing on stderr.
	code, out, errOut := runClimax(t, "run", "git")
	if code != exitOK || out != "" || errOut != "" {
		t.Errorf("stdin not a terminal: exit %d, stdout %q, stderr %q (want nothing)", code, out, errOut)
	}
}
