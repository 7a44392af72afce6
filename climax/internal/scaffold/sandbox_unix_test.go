//go:build unix

package scaffold

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// A probe past its time limit gets SIGTERM before SIGKILL, so that what
// it holds is released: pyenv's shim takes a lock to rehash around
// `pip install --help`, and a probe killed outright left the lock behind,
// after which every pip on the machine waited 60 s for it.
func TestSandboxTimeoutTerminatesFirst(t *testing.T) {
	program := fake(t, "lockholder")
	sb := newTestSandbox(t, program)
	sb.Timeout = 300 * time.Millisecond
	out := sb.Run(context.Background(), "install", "--help")
	if !out.TimedOut {
		t.Fatalf("got %+v, want a timed-out probe", out)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(program), "lock")); err == nil {
		t.Error("the probe's lock is still there: it was killed without SIGTERM")
	}
}

// A process of the probe's group that ignores SIGTERM is killed after
// the grace period.
func TestSandboxTimeoutKillsWhatIgnoresTerm(t *testing.T) {
	program := fake(t, "deafchild")
	sb := newTestSandbox(t, program)
	sb.Timeout = 300 * time.Millisecond
	if out := sb.Run(context.Background(), "--help"); !out.TimedOut {
		t.Fatalf("got %+v, want a timed-out probe", out)
	}
	data, err := os.ReadFile(filepath.Join(filepath.Dir(program), "deaf.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(string(data))
	deadline := time.Now().Add(5 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatal("the child that ignores SIGTERM survived the probe")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
