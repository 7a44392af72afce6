package scaffold

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func newTestSandbox(t *testing.T, program string) *Sandbox {
	t.Helper()
	sb, err := NewSandbox(program)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	return sb
}

func TestSandboxHangIsKilled(t *testing.T) {
	for _, name := range []string{"hang", "hangchild"} {
		t.Run(name, func(t *testing.T) {
			sb := newTestSandbox(t, fake(t, name))
			sb.Timeout = 300 * time.Millisecond
			out := sb.Run(context.Background(), "--help")
			if !out.TimedOut || out.ExitCode != -1 {
				t.Fatalf("got %+v, want a timed-out probe", out)
			}
			if p := out.Problem(); !strings.Contains(p, "no answer within the time limit") {
				t.Errorf("problem %q", p)
			}
		})
	}
}

func TestSandboxSlowStartIsRetriedOnce(t *testing.T) {
	sb := newTestSandbox(t, fake(t, "slowstart"))
	sb.Timeout = 2 * time.Second
	// The first timeout is tried again with three times the limit.
	if out := sb.Run(context.Background(), "--help"); out.TimedOut || !strings.Contains(out.Stdout, "--quiet") {
		t.Fatalf("first probe: got %+v, want the help after one retry", out)
	}
	// Later ones are final: a program that is slow every time is cut off.
	if out := sb.Run(context.Background(), "--help"); !out.TimedOut {
		t.Fatalf("second probe: got %+v, want a timeout", out)
	}

	// Once the program has answered in time, a timeout is a hang: no
	// retry.
	sb = newTestSandbox(t, fake(t, "slowstart"))
	sb.Timeout = 2 * time.Second
	if out := sb.Run(context.Background(), "quick"); out.TimedOut {
		t.Fatalf("quick probe: got %+v", out)
	}
	if out := sb.Run(context.Background(), "--help"); !out.TimedOut {
		t.Fatalf("probe after an answer: got %+v, want a timeout without a retry", out)
	}
}

func TestSandboxFloodIsCutOff(t *testing.T) {
	sb := newTestSandbox(t, fake(t, "flood"))
	sb.OutputCap = 10000
	out := sb.Run(context.Background(), "--help")
	if !out.Flooded {
		t.Fatalf("got exit %d, timed out %v, want a flood", out.ExitCode, out.TimedOut)
	}
	if n := len(out.Stdout) + len(out.Stderr); n > 10000 {
		t.Errorf("kept %d bytes, more than the cap", n)
	}
	if p := out.Problem(); !strings.Contains(p, "more than the output cap") {
		t.Errorf("problem %q", p)
	}
}

func TestSandboxEnvironment(t *testing.T) {
	t.Setenv("AWS_SECRET_ACCESS_KEY", "hunter2")
	t.Setenv("GITHUB_TOKEN", "hunter2")
	sb := newTestSandbox(t, fake(t, "envdump"))
	out := sb.Run(context.Background())
	if out.ExitCode != 0 {
		t.Fatalf("exit %d: %s", out.ExitCode, out.Text())
	}
	if strings.Contains(out.Stdout, "hunter2") {
		t.Errorf("a credential reached the program:\n%s", out.Stdout)
	}
	env := map[string]string{}
	for _, line := range strings.Split(out.Stdout, "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			env[k] = v
		}
	}
	realHome, _ := os.UserHomeDir()
	if env["HOME"] == "" || env["HOME"] == realHome || !strings.HasPrefix(env["HOME"], sb.dir) {
		t.Errorf("HOME=%q, want a directory in the sandbox %s", env["HOME"], sb.dir)
	}
	if env["CWD"] != filepath.Join(sb.dir, "cwd") {
		t.Errorf("working directory %q, want the sandbox's empty cwd", env["CWD"])
	}
	for _, k := range []string{"KUBECONFIG", "DOCKER_HOST"} {
		if !strings.Contains(env[k], filepath.Join(sb.dir, "nowhere")) {
			t.Errorf("%s=%q, want it pointing nowhere", k, env[k])
		}
	}
}

func TestSandboxNonZeroExit(t *testing.T) {
	sb := newTestSandbox(t, fake(t, "mute"))
	out := sb.Run(context.Background(), "--help")
	if out.ExitCode != 3 || out.Problem() != "" {
		t.Errorf("got exit %d, problem %q; want exit 3 and no problem", out.ExitCode, out.Problem())
	}
}

func TestResolveProgram(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.txt")
	os.WriteFile(plain, []byte("x"), 0o644)
	for _, c := range []struct{ program, want string }{
		{"", "the program name is empty"},
		{"no-such-program-climax-test", `is not on PATH: install it, or give its path`},
		{"./no-such-program", "does not exist"},
		// Shell characters make a path, never a shell command.
		{"ls;rm -rf x", "does not exist"},
		{"$(touch x)", "does not exist"},
		{dir, "is a directory"},
		{plain, "is not executable"},
	} {
		_, err := ResolveProgram(c.program)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ResolveProgram(%q) = %v, want an error with %q", c.program, err, c.want)
		}
	}
	if IsBareName("ls;rm") || IsBareName("a/b") || !IsBareName("kubectl") || !IsBareName("g++") {
		t.Error("IsBareName misjudges a name")
	}
}

func TestSandboxNoInput(t *testing.T) {
	sb := newTestSandbox(t, fake(t, "asks"))
	out := sb.Run(context.Background(), "--help")
	if out.ExitCode != 4 || !strings.Contains(out.Stderr, "no answer: EOF") {
		t.Errorf("got exit %d, stderr %q; want end of input at once", out.ExitCode, out.Stderr)
	}
}
