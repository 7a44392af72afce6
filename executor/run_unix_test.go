//go:build unix

package executor_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/climax-mcp/climax/executor"
)

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
