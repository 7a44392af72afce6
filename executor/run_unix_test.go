//go:build unix

package executor_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index/config"
)

func TestCallTimeoutIgnoringSIGTERM(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "pid")
	// Both the command and its grandchild ignore SIGTERM: SIGKILL must follow.
	// The timeout leaves the fake, a race-instrumented test binary, time to
	// start and ignore SIGTERM on a busy machine (at 0.2s it was sometimes
	// still starting, and SIGTERM ended it).
	rt := fake("ignoreterm child="+pidFile+" sleep=20s", 1)
	start := time.Now()
	out := executor.New(executor.WithGracePeriod(200*time.Millisecond)).Call(context.Background(), rt, nil)
	if elapsed := time.Since(start); elapsed > 5*time.Second || elapsed < 1200*time.Millisecond {
		t.Errorf("call took %v, want timeout + grace", elapsed)
	}
	if !out.Result.TimedOut || out.Result.ExitCode != 137 || out.Text != "Command timed out after 1 second" {
		t.Fatalf("got %q %+v", out.Text, out.Result)
	}
	assertGone(t, readPID(t, pidFile))
}

// FindProgram looks a config's program up as Run does: in the PATH the
// config's env sets, and relative paths against its working_dir.
func TestFindProgram(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "climax-test-prog")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(dir, "not-executable")
	if err := os.WriteFile(plain, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		cfg config.Config
		ok  bool
	}{
		{config.Config{Command: "climax-test-prog"}, false},
		{config.Config{Command: "climax-test-prog sub", Env: map[string]string{"PATH": dir}}, true},
		{config.Config{Command: "./climax-test-prog", WorkingDir: dir}, true},
		{config.Config{Command: "./climax-test-prog"}, false},
		{config.Config{Command: plain}, false},
		{config.Config{Command: "$CLIMAX_TEST_UNSET_VAR"}, false},
	}
	for _, tt := range tests {
		_, err := executor.FindProgram(&tt.cfg)
		if (err == nil) != tt.ok {
			t.Errorf("FindProgram(%+v): error %v, want ok=%v", tt.cfg, err, tt.ok)
		}
	}
}
