package executor_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/executor/executortest"
	"github.com/climax-mcp/climax/index/config"
)

// fake returns a tool that runs the fake CLI (package executortest) with
// ops as the tool's command words.
func fake(ops string, timeout float64, args ...config.Arg) *config.ResolvedTool {
	return &config.ResolvedTool{
		Tool: &config.Tool{Name: "fake_run", Command: ops, Args: args, Timeout: timeout, MaxOutput: config.DefaultMaxOutput},
		CLI: &config.Config{
			Name:    "fake",
			Command: "$" + executortest.BinVar,
			Env:     executortest.Env(),
		},
	}
}

func readPID(t *testing.T, file string) int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("pid file: %v", err)
	}
	pid, err := strconv.Atoi(string(b))
	if err != nil {
		t.Fatalf("pid file %q: %v", b, err)
	}
	return pid
}

// waitUntil polls cond until it holds, and fails the test when it does
// not within d; what says what was awaited.
func waitUntil(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %s", d, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// assertGone polls briefly until pid is dead (a process that survived is
// killed, then the test fails).
func assertGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(time.Second)
	for executortest.Alive(pid) {
		if time.Now().After(deadline) {
			if p, err := os.FindProcess(pid); err == nil {
				p.Kill()
			}
			t.Fatalf("process %d survived the call", pid)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestCallResultText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, ops string
		want      string
		isError   bool
		exit      int
	}{
		{"stdout", "out=hello", "hello", false, 0},
		{"stdout trimmed", "out=__hello__ out=", "__hello__", false, 0},
		{"stdout and stderr", "out=output err=warning", "output\n\n[stderr]\nwarning", false, 0},
		{"failure", "err=error exit=1", "[stderr]\nerror\n\n[exit code: 1]", true, 1},
		{"all three", "out=a err=b exit=3", "a\n\n[stderr]\nb\n\n[exit code: 3]", true, 3},
		{"exit only", "exit=2", "[exit code: 2]", true, 2},
		{"no output", "", "(no output)", false, 0},
		{"blank output", "out= err=", "(no output)", false, 0},
		{"signal", "out=before signal=9", "before\n\n[exit code: 137]", true, 137},
	}
	r := executor.New()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out := r.Call(context.Background(), fake(tt.ops, 5), nil)
			if out.Text != tt.want || out.IsError != tt.isError {
				t.Fatalf("got %q (isError %v), want %q (isError %v)", out.Text, out.IsError, tt.want, tt.isError)
			}
			if out.Result == nil || out.Result.ExitCode != tt.exit {
				t.Fatalf("result %+v, want exit code %d", out.Result, tt.exit)
			}
		})
	}
}

func TestCallArgvReachesProgram(t *testing.T) {
	t.Parallel()
	rt := fake("args", 5,
		config.Arg{Name: "path", Positional: true},
		config.Arg{Name: "message", Flag: "-m"},
		config.Arg{Name: "count", Type: config.TypeInteger, Flag: "--count="},
		config.Arg{Name: "verbose", Type: config.TypeBoolean},
	)
	out := executor.New().Call(context.Background(), rt, map[string]any{
		"path": "a file; rm -rf /", "message": "it's $HOME", "count": "7", "verbose": true,
	})
	want := "a file; rm -rf /\n-m\nit's $HOME\n--count=7\n--verbose"
	if out.Text != want || out.IsError {
		t.Fatalf("got %q, want %q", out.Text, want)
	}
}

func TestCallStdin(t *testing.T) {
	t.Parallel()
	rt := fake("cat", 5, config.Arg{Name: "input", Stdin: true})
	r := executor.New()
	out := r.Call(context.Background(), rt, map[string]any{"input": "line 1\nline 2\x00\n"})
	if out.Text != "line 1\nline 2\x00" {
		t.Fatalf("got %q", out.Text)
	}
	// Without a value the input is empty, never the server's own stdin.
	start := time.Now()
	out = r.Call(context.Background(), rt, nil)
	if out.Text != "(no output)" || time.Since(start) > 3*time.Second {
		t.Fatalf("got %q after %v", out.Text, time.Since(start))
	}
	// A large input that the command does not read does not block.
	big := strings.Repeat("x", 1<<20)
	out = r.Call(context.Background(), fake("out=done", 5, config.Arg{Name: "input", Stdin: true}), map[string]any{"input": big})
	if out.Text != "done" {
		t.Fatalf("got %q", out.Text)
	}
}

func TestCallWorkingDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	other := t.TempDir()
	r := executor.New()

	rt := fake("pwd", 5, config.Arg{Name: "dir", Cwd: true})
	if out := r.Call(context.Background(), rt, map[string]any{"dir": dir}); out.Text != dir {
		t.Errorf("cwd arg: got %q, want %q", out.Text, dir)
	}
	rt.CLI.WorkingDir = other
	if out := r.Call(context.Background(), rt, nil); out.Text != other {
		t.Errorf("working_dir: got %q, want %q", out.Text, other)
	}
	if out := r.Call(context.Background(), rt, map[string]any{"dir": dir}); out.Text != dir {
		t.Errorf("cwd arg over working_dir: got %q, want %q", out.Text, dir)
	}
	missing := filepath.Join(dir, "missing")
	out := r.Call(context.Background(), rt, map[string]any{"dir": missing})
	if !out.IsError || out.Text != "Working directory does not exist: "+missing || out.Result != nil {
		t.Errorf("missing dir: got %+v", out)
	}
}

func TestCallEnv(t *testing.T) {
	t.Setenv("EXECUTOR_TEST_INHERITED", "inherited")
	t.Setenv("EXECUTOR_TEST_BOTH", "outer")
	rt := fake("env=EXECUTOR_TEST_INHERITED env=EXECUTOR_TEST_BOTH env=EXECUTOR_TEST_CONFIG", 5)
	rt.CLI.Env["EXECUTOR_TEST_BOTH"] = "config"
	rt.CLI.Env["EXECUTOR_TEST_CONFIG"] = "only config"
	out := executor.New().Call(context.Background(), rt, nil)
	if want := "inherited\nconfig\nonly config"; out.Text != want {
		t.Fatalf("got %q, want %q", out.Text, want)
	}
}

// Commands never see CLImax's own settings (its secrets, the audit log's
// path: docs/security.md), unless a config sets them; other variables
// pass.
func TestCallEnvHidesClimaxSettings(t *testing.T) {
	log := filepath.Join(t.TempDir(), "audit.log")
	t.Setenv("CLIMAX_AUTH_TOKEN", "s3cret")
	t.Setenv("climax_db_password", "s3cret")
	t.Setenv("CLIMAX_SIGNING_KEY", "s3cret")
	t.Setenv("CLIMAX_LOG_LEVEL", "debug")
	t.Setenv("CLIMAX_AUDIT_LOG", log)
	t.Setenv("CLIMAX_POLICY", "/etc/climax/policy.yaml")
	t.Setenv("CLIMAXIMUM", "not climax's")
	rt := fake("env=CLIMAX_AUTH_TOKEN env=climax_db_password env=CLIMAX_SIGNING_KEY env=CLIMAX_LOG_LEVEL env=CLIMAX_AUDIT_LOG env=CLIMAX_POLICY env=CLIMAXIMUM env=CLIMAX_API_TOKEN", 5)
	rt.CLI.Env["CLIMAX_API_TOKEN"] = "from the config"
	out := executor.New().Call(context.Background(), rt, nil)
	if want := "<unset>\n<unset>\n<unset>\n<unset>\n<unset>\n<unset>\nnot climax's\nfrom the config"; out.Text != want {
		t.Fatalf("got %q, want %q", out.Text, want)
	}
	if strings.Contains(out.Text, log) {
		t.Errorf("the audit log's path reached the command: %q", out.Text)
	}
}

// inherit_env limits what a command inherits from climax's environment
// to the names it lists and the prefixes it ends in "*": everything else
// is left out (the server's secrets with it), the config's env is given
// whatever the list says, CLIMAX_* stays out even when a prefix matches
// it, and a tool's list replaces the config's. Without a list everything
// is inherited: the control.
func TestCallInheritEnv(t *testing.T) {
	t.Setenv("EXECUTOR_TEST_KEEP", "kept")
	t.Setenv("EXECUTOR_TEST_SECRET", "s3cret")
	t.Setenv("EXECUTOR_TEST_LC_ONE", "one")
	t.Setenv("EXECUTOR_TEST_LC_TWO", "two")
	t.Setenv("CLIMAX_TEST_TOKEN", "climax's")
	ops := "env=EXECUTOR_TEST_KEEP env=EXECUTOR_TEST_SECRET env=EXECUTOR_TEST_LC_ONE env=EXECUTOR_TEST_LC_TWO env=CLIMAX_TEST_TOKEN env=EXECUTOR_TEST_CONFIG"
	cases := []struct {
		name           string
		config, tool   []string
		want           string
		wantInheritEnv []string
	}{
		{"no limit", nil, nil, "kept\ns3cret\none\ntwo\n<unset>\nset", nil},
		{"config's list", []string{"EXECUTOR_TEST_KEEP", "EXECUTOR_TEST_LC_*", "C*"}, nil, "kept\n<unset>\none\ntwo\n<unset>\nset", []string{"EXECUTOR_TEST_KEEP", "EXECUTOR_TEST_LC_*", "C*"}},
		{"tool's list replaces it", []string{"EXECUTOR_TEST_KEEP"}, []string{"EXECUTOR_TEST_LC_TWO"}, "<unset>\n<unset>\n<unset>\ntwo\n<unset>\nset", []string{"EXECUTOR_TEST_LC_TWO"}},
		{"an empty list keeps nothing", []string{"EXECUTOR_TEST_KEEP"}, []string{}, "<unset>\n<unset>\n<unset>\n<unset>\n<unset>\nset", []string{}},
		{"a name is whole", []string{"EXECUTOR_TEST_KEE", "EXECUTOR_TEST_LC_ONE_"}, nil, "<unset>\n<unset>\n<unset>\n<unset>\n<unset>\nset", []string{"EXECUTOR_TEST_KEE", "EXECUTOR_TEST_LC_ONE_"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rt := fake(ops, 5)
			rt.CLI.Env["EXECUTOR_TEST_CONFIG"] = "set"
			rt.CLI.InheritEnv, rt.Tool.InheritEnv = tc.config, tc.tool
			cmd, err := executor.Build(rt, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(cmd.InheritEnv, tc.wantInheritEnv) || (cmd.InheritEnv == nil) != (tc.wantInheritEnv == nil) {
				t.Errorf("Command.InheritEnv = %#v, want %#v", cmd.InheritEnv, tc.wantInheritEnv)
			}
			out := executor.New().Call(context.Background(), rt, nil)
			if out.Text != tc.want {
				t.Fatalf("got %q, want %q", out.Text, tc.want)
			}
		})
	}
}

func TestInherits(t *testing.T) {
	keep := []string{"PATH", "LC_*", "X"}
	for _, tc := range []struct {
		keep []string
		name string
		want bool
	}{
		{nil, "ANYTHING", true},
		{[]string{}, "PATH", false},
		{keep, "PATH", true},
		{keep, "PATHEXT", false},
		{keep, "LC_ALL", true},
		{keep, "LC_", true},
		{keep, "LC", false},
		{keep, "X", true},
		{keep, "XY", false},
		{keep, "AWS_SECRET_ACCESS_KEY", false},
		{[]string{"*"}, "AWS_SECRET_ACCESS_KEY", true},
	} {
		if got := executor.Inherits(tc.keep, tc.name); got != tc.want {
			t.Errorf("Inherits(%q, %q) = %v, want %v", tc.keep, tc.name, got, tc.want)
		}
	}
	// Windows compares variable names without regard to case; elsewhere
	// Path is not PATH.
	if got, want := executor.Inherits(keep, "Path"), runtime.GOOS == "windows"; got != want {
		t.Errorf("Inherits(%q, Path) = %v, want %v on %s", keep, got, want, runtime.GOOS)
	}
}

// A cwd arg's value "~" or "~/DIR" is the home directory or DIR in it;
// nothing else is expanded: not "$HOME", not "~user", not a
// "~" inside the path. The policy checks the expanded directory, and a
// docker executor keeps "~" for the container.
func TestCallCwdHome(t *testing.T) {
	home := t.TempDir()
	if err := os.Mkdir(filepath.Join(home, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	rt := fake("pwd", 5, config.Arg{Name: "dir", Cwd: true})
	for dir, want := range map[string]string{"~": home, "~/": home, "~/sub": filepath.Join(home, "sub")} {
		out := executor.New().Call(context.Background(), rt, map[string]any{"dir": dir})
		got, _ := filepath.EvalSymlinks(out.Text)
		if wantReal, _ := filepath.EvalSymlinks(want); out.IsError || got != wantReal {
			t.Errorf("cwd %q: got %q, want %q", dir, out.Text, want)
		}
	}
	// A config's default is config text: its "~" is the home directory too.
	byDefault := fake("pwd", 5, config.Arg{Name: "dir", Cwd: true, Default: "~/sub"})
	if out := executor.New().Call(context.Background(), byDefault, nil); !strings.HasSuffix(out.Text, "/sub") || out.IsError {
		t.Errorf("default ~/sub: got %q", out.Text)
	}
	for _, dir := range []string{"$HOME", "~user", "sub/~", "${HOME}"} {
		out := executor.New().Call(context.Background(), rt, map[string]any{"dir": dir})
		if want := "Working directory does not exist: " + dir; out.Text != want {
			t.Errorf("cwd %q: got %q, want %q", dir, out.Text, want)
		}
	}

	policed := withPolicy(t, map[string]config.Constraint{"dir": {Pattern: `~.*`}}, config.Arg{Name: "dir", Cwd: true})
	if _, err := executor.Validate(policed, map[string]any{"dir": "~/sub"}); err == nil || !strings.Contains(err.Error(), "value '"+home+"/sub' does not match pattern") {
		t.Errorf("the policy saw the unexpanded directory: %v", err)
	}

	// In a container "~" is not the host's home: a directory there is
	// given from the container's root, and one that is not is refused.
	rt.Executor = config.Executor{Type: "docker", Image: "img"}
	for _, dir := range []string{"~/src", "~", "src", "--privileged"} {
		if _, err := executor.Validate(rt, map[string]any{"dir": dir}); err == nil || !strings.Contains(err.Error(), "is not an absolute path: under the docker executor") {
			t.Errorf("docker, dir %q: %v", dir, err)
		}
	}
	vals, err := executor.Validate(rt, map[string]any{"dir": "/src"})
	if err != nil {
		t.Fatal(err)
	}
	cmd, err := executor.Build(rt, vals)
	if err != nil || !slices.Contains(cmd.Argv, "--workdir=/src") {
		t.Errorf("docker argv %q, %v: want --workdir=/src", cmd.Argv, err)
	}
}

func TestCallNotFound(t *testing.T) {
	t.Parallel()
	rt := fake("", 5)
	rt.CLI.Command = "climax-no-such-program --version"
	out := executor.New().Call(context.Background(), rt, nil)
	want := "Command not found: climax-no-such-program (is it installed and on PATH?)"
	if !out.IsError || out.Text != want || out.Result != nil {
		t.Fatalf("got %+v, want %q", out, want)
	}
	rt.CLI.Command = "/nonexistent/tool"
	if out := executor.New().Call(context.Background(), rt, nil); !out.IsError || !strings.HasPrefix(out.Text, "Command not found: /nonexistent/tool") {
		t.Fatalf("got %+v", out)
	}
}

func TestCallValidationFailureStartsNothing(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "pid")
	rt := fake("pid="+pidFile, 5, config.Arg{Name: "message", Required: true})
	out := executor.New().Call(context.Background(), rt, map[string]any{})
	if !out.IsError || out.Text != "Argument validation failed:\n  - Missing required argument 'message'" || out.Argv != nil {
		t.Fatalf("got %+v", out)
	}
	if _, err := os.Stat(pidFile); err == nil {
		t.Fatal("the command ran")
	}
}

func TestCallTimeout(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "pid")
	// The grandchild holds stdout and stderr open: the call must still end.
	rt := fake("out=partial child="+pidFile+" sleep=20s", 0.3)
	start := time.Now()
	out := executor.New().Call(context.Background(), rt, nil)
	elapsed := time.Since(start)
	if elapsed > 2*time.Second {
		t.Errorf("call took %v", elapsed)
	}
	want := "Command timed out after 0.3 seconds\n\npartial"
	if !out.IsError || out.Text != want || !out.Result.TimedOut {
		t.Fatalf("got %q (%+v), want %q", out.Text, out.Result, want)
	}
	assertGone(t, readPID(t, pidFile))
}

func TestCallCancel(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "pid")
	rt := fake("err=started child="+pidFile+" sleep=20s", 10)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for {
			if _, err := os.Stat(pidFile); err == nil {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	start := time.Now()
	out := executor.New().Call(ctx, rt, nil)
	if elapsed := time.Since(start); elapsed > 3*time.Second {
		t.Errorf("call took %v", elapsed)
	}
	want := "Command cancelled\n\n[stderr]\nstarted"
	if !out.IsError || out.Text != want || out.Result.TimedOut || !out.Result.Cancelled() {
		t.Fatalf("got %q %+v, want %q", out.Text, out.Result, want)
	}
	assertGone(t, readPID(t, pidFile))

	// A call whose context is already done starts nothing.
	out = executor.New().Call(ctx, fake("out=x", 5), nil)
	if !out.IsError || out.Text != "Command cancelled" || out.Result != nil {
		t.Fatalf("got %+v", out)
	}
}

func TestCallKillsLeftoversAfterExit(t *testing.T) {
	t.Parallel()
	for _, op := range []string{"daemon", "child"} {
		t.Run(op, func(t *testing.T) {
			t.Parallel()
			pidFile := filepath.Join(t.TempDir(), "pid")
			start := time.Now()
			out := executor.New().Call(context.Background(), fake("out=done "+op+"="+pidFile, 5), nil)
			if elapsed := time.Since(start); elapsed > 2*time.Second {
				t.Errorf("call took %v", elapsed)
			}
			if out.IsError || out.Text != "done" {
				t.Fatalf("got %+v", out)
			}
			assertGone(t, readPID(t, pidFile))
		})
	}
}

func TestCallOutputLimit(t *testing.T) {
	t.Parallel()
	const n = 5 << 20
	out := executor.New().Call(context.Background(), fake("bytes="+strconv.Itoa(n), 10), nil)
	res := out.Result
	if out.IsError || !res.Truncated {
		t.Fatalf("isError %v, truncated %v", out.IsError, res.Truncated)
	}
	limit := config.DefaultMaxOutput
	marker := "\n[... " + strconv.Itoa(n-limit) + " bytes omitted ...]\n"
	head, tail, ok := strings.Cut(res.Stdout, marker)
	if !ok {
		t.Fatalf("no marker %q in output of %d bytes", marker, len(res.Stdout))
	}
	if len(head) != limit/2 || head[0] != 'H' || strings.Trim(head[1:], "x") != "" {
		t.Errorf("head: %d bytes, starts %q", len(head), head[:10])
	}
	if len(tail) != limit-limit/2 || tail[len(tail)-1] != 'T' {
		t.Errorf("tail: %d bytes, ends %q", len(tail), tail[len(tail)-10:])
	}

	// A server-wide limit overrides the tool's.
	out = executor.New(executor.WithMaxOutput(100)).Call(context.Background(), fake("bytes=1000 err=short", 5), nil)
	if want := "H" + strings.Repeat("x", 49) + "\n[... 900 bytes omitted ...]\n" + strings.Repeat("x", 49) + "T"; out.Result.Stdout != want {
		t.Errorf("stdout %q, want %q", out.Result.Stdout, want)
	}
	if out.Result.Stderr != "short\n" || !out.Result.Truncated {
		t.Errorf("stderr %q, truncated %v", out.Result.Stderr, out.Result.Truncated)
	}
	// Under the limit nothing is cut.
	out = executor.New().Call(context.Background(), fake("bytes=1000", 5), nil)
	if len(out.Result.Stdout) != 1000 || out.Result.Truncated {
		t.Errorf("got %d bytes, truncated %v", len(out.Result.Stdout), out.Result.Truncated)
	}
}

func TestCallInvalidUTF8(t *testing.T) {
	t.Parallel()
	out := executor.New().Call(context.Background(), fake("invalid", 5), nil)
	if !utf8.ValidString(out.Text) || !utf8.ValidString(out.Result.Stdout) {
		t.Fatalf("invalid UTF-8 passed through: %q", out.Text)
	}
	if out.Text != "\uFFFDok\uFFFD" {
		t.Fatalf("got %q", out.Text)
	}
}

func TestRunDuration(t *testing.T) {
	t.Parallel()
	res, err := executor.New().Run(context.Background(), &executor.Command{
		Argv: []string{executortest.Program(), "sleep=50ms"},
		Env:  []string{executortest.EnvVar + "=1", "GORACE=atexit_sleep_ms=0"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.DurationMS < 50 || res.DurationMS > 2000 {
		t.Fatalf("duration %d ms", res.DurationMS)
	}
}

// On a busy machine the output readers may lag well behind the command's
// exit; what the command wrote must still arrive in full.
func TestRunKeepsAllOutputUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("starts many processes")
	}
	const calls, size = 48, 60000
	var wg sync.WaitGroup
	errs := make(chan string, calls)
	r := executor.New()
	for range calls {
		wg.Go(func() {
			out := r.Call(context.Background(), fake(fmt.Sprintf("bytes=%d", size), 30), nil)
			if out.Result == nil || len(out.Result.Stdout) != size {
				n := -1
				if out.Result != nil {
					n = len(out.Result.Stdout)
				}
				errs <- fmt.Sprintf("got %d of %d bytes: %.80s", n, size, out.Text)
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
