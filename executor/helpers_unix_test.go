//go:build unix

package executor_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/climax-mcp/climax/executor"
)

// alive reports whether pid is a live process. Where /proc tells, a
// zombie counts as dead: the container's init may not reap orphans.
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return !os.IsNotExist(err) || !procExists()
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z'
	}
	return true
}

func procExists() bool {
	_, err := os.Stat("/proc/self/stat")
	return err == nil
}

func TestCallTimeoutIgnoringSIGTERM(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "pid")
	// Both the command and its grandchild ignore SIGTERM: SIGKILL must follow.
	rt := fake("ignoreterm child="+pidFile+" sleep=20s", 0.2)
	start := time.Now()
	out := executor.New(executor.WithGracePeriod(200*time.Millisecond)).Call(context.Background(), rt, nil)
	if elapsed := time.Since(start); elapsed > 2*time.Second || elapsed < 400*time.Millisecond {
		t.Errorf("call took %v, want timeout + grace", elapsed)
	}
	if !out.Result.TimedOut || out.Result.ExitCode != 137 || out.Text != "Command timed out after 0.2 seconds" {
		t.Fatalf("got %q %+v", out.Text, out.Result)
	}
	assertGone(t, readPID(t, pidFile))
}
