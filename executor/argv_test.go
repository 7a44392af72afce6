package executor_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index/config"
)

func TestBuild(t *testing.T) {
	t.Setenv("CLIMAX_TEST_DIR", "/some dir")
	t.Setenv("CLIMAX_TEST_EMPTY", "")
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home directory")
	}
	gitArgs := []config.Arg{
		{Name: "message", Flag: "-m"},
		{Name: "path", Positional: true},
		{Name: "all", Type: config.TypeBoolean, Flag: "--all"},
		{Name: "amend", Type: config.TypeBoolean},
		{Name: "max_count", Type: config.TypeInteger, Default: 10},
		{Name: "format", Flag: "--format="},
		{Name: "ratio", Type: config.TypeNumber, Flag: "-r"},
		{Name: "input", Stdin: true},
		{Name: "dir", Cwd: true},
		{Name: "rev", Positional: true},
	}
	tests := []struct {
		name    string
		command string
		sub     string
		global  []config.Arg
		args    []config.Arg
		values  map[string]any
		want    []string
	}{
		{"base only", "git", "", nil, nil, nil, []string{"git"}},
		{"words", "python -m  app", "compose ps", nil, nil, nil, []string{"python", "-m", "app", "compose", "ps"}},
		{"positionals first, in definition order", "git", "log", nil, gitArgs,
			map[string]any{"rev": "HEAD~1", "message": "fix it", "path": "a b.txt"},
			[]string{"git", "log", "a b.txt", "HEAD~1", "-m", "fix it", "--max-count", "10"}},
		{"booleans, joined flags, numbers", "git", "log", nil, gitArgs,
			map[string]any{"all": true, "amend": false, "format": "%H %s", "ratio": 0.000001, "max_count": int64(50000000)},
			[]string{"git", "log", "--all", "--max-count", "50000000", "--format=%H %s", "-r", "0.000001"}},
		{"stdin and cwd stay off the command line", "git", "", nil, gitArgs,
			map[string]any{"input": "data", "dir": "/tmp"},
			[]string{"git", "--max-count", "10"}},
		{"expansion", "~/bin/tool ${CLIMAX_TEST_DIR}/x $CLIMAX_TEST_UNSET ~user", "", nil, nil, nil,
			[]string{home + "/bin/tool", "/some dir/x", "~user"}},
		{"global args", "kubectl", "get pods", []config.Arg{
			{Name: "context", Flag: "--context", Default: "${CLIMAX_TEST_DIR}"},
			{Name: "kubeconfig", Default: "$CLIMAX_TEST_UNSET"},
			{Name: "empty", Default: "${CLIMAX_TEST_EMPTY}"},
			{Name: "partly", Default: "a-${CLIMAX_TEST_UNSET}"},
			{Name: "no_default", Flag: "--x"},
			{Name: "verbose", Type: config.TypeBoolean, Default: true},
			{Name: "quiet", Type: config.TypeBoolean, Default: "false"},
			{Name: "level", Type: config.TypeInteger, Flag: "-v=", Default: 3},
		}, []config.Arg{{Name: "ns", Flag: "-n"}}, map[string]any{"ns": "kube-system"},
			[]string{"kubectl", "get", "pods", "-n", "kube-system", "--context", "/some dir", "--verbose", "-v=3"}},
		{"a flag of several words", "find", "", nil, []config.Arg{
			{Name: "path", Positional: true},
			{Name: "exclude", Type: config.TypeArray, Flag: "-not  -path"},
			{Name: "joined", Flag: "-a --b="},
			{Name: "pruned", Type: config.TypeBoolean, Flag: "-o -print"},
		}, map[string]any{"path": ".", "exclude": []any{"./a/*", "-b"}, "joined": "-v", "pruned": true},
			[]string{"find", ".", "-not", "-path", "./a/*", "-not", "-path", "-b", "-a", "--b=-v", "-o", "-print"}},
		{"flags after the double dash", "docker", "exec", nil, []config.Arg{
			{Name: "workdir", Flag: "--workdir="},
			{Name: "container", Positional: true, AfterDoubleDash: true},
			{Name: "shell", Positional: true, AfterDoubleDash: true},
			{Name: "command", Flag: "-c", AfterDoubleDash: true},
			{Name: "user", Flag: "--user="},
		}, map[string]any{"container": "web", "shell": "sh", "command": "ls -l", "workdir": "/app", "user": "1"},
			[]string{"docker", "exec", "--workdir=/app", "--user=1", "--", "web", "sh", "-c", "ls -l"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt := &config.ResolvedTool{
				Tool: &config.Tool{Name: "t", Command: tt.sub, Args: tt.args},
				CLI:  &config.Config{Name: "cli", Command: tt.command, GlobalArgs: tt.global},
			}
			got, err := executor.BuildArgv(rt, tt.values)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestBuildCommand(t *testing.T) {
	t.Setenv("CLIMAX_TEST_PROJECT", "/src/project")
	rt := &config.ResolvedTool{
		Tool: &config.Tool{Name: "t", Command: "status", Timeout: 0.5, MaxOutput: 1000, Args: []config.Arg{
			{Name: "input", Stdin: true},
			{Name: "dir", Cwd: true},
		}},
		CLI: &config.Config{Name: "git", Command: "git", WorkingDir: "$CLIMAX_TEST_PROJECT",
			Env: map[string]string{"B": "2", "A": "1"}},
	}
	cmd, err := executor.Build(rt, map[string]any{"input": "hello"})
	if err != nil {
		t.Fatal(err)
	}
	want := &executor.Command{
		Argv: []string{"git", "status"}, Dir: "/src/project", Env: []string{"A=1", "B=2"},
		Stdin: "hello", Timeout: 500 * time.Millisecond, MaxOutput: 1000,
	}
	if v, ok := cmd.Value("input"); !ok || v != "hello" {
		t.Errorf("Value(input) = %v, %v", v, ok)
	}
	if !reflect.DeepEqual(cmd.WithoutValues(), want) {
		t.Fatalf("got  %+v\nwant %+v", cmd, want)
	}
	// The cwd arg wins; a caller's value is not env-expanded.
	cmd, _ = executor.Build(rt, map[string]any{"dir": "$CLIMAX_TEST_PROJECT/sub"})
	if cmd.Dir != "$CLIMAX_TEST_PROJECT/sub" {
		t.Fatalf("dir %q", cmd.Dir)
	}

	// Docker: env goes into the container by name, cwd becomes -w, and
	// the docker client runs where the server runs.
	rt.Executor = config.Executor{Type: "docker", Image: "alpine/git", User: "1000:1000",
		Volumes: []string{"${CLIMAX_TEST_PROJECT}:/workspace", "cache:/cache"}, WorkingDir: "/workspace"}
	cmd, err = executor.Build(rt, map[string]any{"input": "x"})
	if err != nil {
		t.Fatal(err)
	}
	wantArgv := slices.Concat([]string{"docker", "run", "--rm", "-i"}, hardened("1000:1000"), []string{"-v", "/src/project:/workspace", "-v", "cache:/cache",
		"--workdir=/workspace", "-e", "A", "-e", "B", "alpine/git", "git", "status"})
	if !reflect.DeepEqual(cmd.Argv, wantArgv) || !slices.Equal(cmd.Env, []string{"A=1", "B=2"}) || cmd.Dir != "" {
		t.Fatalf("got %q env %q dir %q\nwant %q", cmd.Argv, cmd.Env, cmd.Dir, wantArgv)
	}
	cmd, _ = executor.Build(rt, map[string]any{"dir": "/workspace/sub"})
	wantArgv = slices.Concat([]string{"docker", "run", "--rm"}, hardened("1000:1000"), []string{"-v", "/src/project:/workspace", "-v", "cache:/cache",
		"--workdir=/workspace/sub", "-e", "A", "-e", "B", "alpine/git", "git", "status"})
	if !reflect.DeepEqual(cmd.Argv, wantArgv) {
		t.Fatalf("got %q", cmd.Argv)
	}
	rt.Executor = config.Executor{Type: "docker"}
	if _, err := executor.Build(rt, nil); err == nil {
		t.Fatal("docker without image accepted")
	}
}

func TestBuildErrors(t *testing.T) {
	rt := &config.ResolvedTool{Tool: &config.Tool{Name: "t"}, CLI: &config.Config{Name: "cli", Command: "$CLIMAX_TEST_UNSET"}}
	if _, err := executor.BuildArgv(rt, nil); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Fatalf("got %v", err)
	}
	if _, err := executor.BuildArgv(nil, nil); err == nil {
		t.Fatal("nil tool accepted")
	}
	if out := executor.New().Call(t.Context(), nil, nil); !out.IsError {
		t.Fatal("nil tool accepted by Call")
	}
}

func ExampleBuildArgv() {
	rt := &config.ResolvedTool{
		Tool: &config.Tool{Name: "git_log", Command: "log", Args: []config.Arg{
			{Name: "path", Positional: true},
			{Name: "max_count", Type: config.TypeInteger, Flag: "-n", Default: 10},
			{Name: "format", Flag: "--format="},
			{Name: "all", Type: config.TypeBoolean},
			{Name: "reverse", Type: config.TypeBoolean},
		}},
		CLI: &config.Config{Command: "git"},
	}
	values, _ := executor.Validate(rt, map[string]any{
		"path": "src/main.go", "format": "%h %s", "all": "true", "reverse": false, "max_count": 42.0,
	})
	argv, _ := executor.BuildArgv(rt, values)
	fmt.Printf("%q\n", argv)
	// Output:
	// ["git" "log" "src/main.go" "-n" "42" "--format=%h %s" "--all"]
}

func FuzzBuildArgv(f *testing.F) {
	f.Add("a b", "-x", "c\td", 1.5, true)
	f.Add("", "", "", 1e21, false)
	f.Add("$HOME", "~", "'\"", -0.0, true)
	f.Fuzz(func(t *testing.T, p1, p2, flagVal string, num float64, b bool) {
		rt := &config.ResolvedTool{
			Tool: &config.Tool{Name: "t", Command: "sub cmd", Args: []config.Arg{
				{Name: "p1", Positional: true},
				{Name: "flag", Flag: "--flag"},
				{Name: "p2", Positional: true, AllowLeadingDash: true},
				{Name: "joined", Flag: "--j="},
				{Name: "num", Type: config.TypeNumber, Flag: "-n"},
				{Name: "b", Type: config.TypeBoolean},
			}},
			CLI: &config.Config{Command: "prog"},
		}
		values := map[string]any{"p1": p1, "p2": p2, "flag": flagVal, "joined": flagVal, "num": num, "b": b}
		argv, err := executor.BuildArgv(rt, values)
		if err != nil {
			return // e.g. NaN
		}
		if len(argv) < 5 || argv[0] != "prog" || argv[3] != p1 || argv[4] != p2 {
			t.Fatalf("positionals not one token each: %q", argv)
		}
		rest := argv[5:]
		want := []string{"--flag", flagVal, "--j=" + flagVal, "-n", executor.Render(num)}
		if b {
			want = append(want, "--b")
		}
		if !reflect.DeepEqual(rest, want) {
			t.Fatalf("flags %q, want %q", rest, want)
		}
		// Validate never panics on the same values and, when it accepts
		// them, builds the same command line.
		if v, err := executor.Validate(rt, values); err == nil {
			again, err := executor.BuildArgv(rt, v)
			if err != nil || !reflect.DeepEqual(again, argv) {
				t.Fatalf("validated argv %q (%v), want %q", again, err, argv)
			}
		}
	})
}

func TestBaseCommand(t *testing.T) {
	t.Setenv("CLIMAX_TEST_PROG", "/opt/prog")
	t.Setenv("HOME", "/home/u")
	tests := []struct {
		command string
		env     map[string]string
		want    []string
	}{
		{"git", nil, []string{"git"}},
		{"python -m app", nil, []string{"python", "-m", "app"}},
		{"$CLIMAX_TEST_PROG sub", nil, []string{"/opt/prog", "sub"}},
		{"${CLIMAX_TEST_PROG}", nil, []string{"/opt/prog"}},
		{"$CLIMAX_TEST_PROG", map[string]string{"CLIMAX_TEST_PROG": "/from/config"}, []string{"/from/config"}},
		{"$CLIMAX_TEST_SPACED x", map[string]string{"CLIMAX_TEST_SPACED": "/a b/c"}, []string{"/a b/c", "x"}},
		{"~/bin/tool --flag", nil, []string{"/home/u/bin/tool", "--flag"}},
		{"$CLIMAX_TEST_UNSET tool", nil, []string{"tool"}},
		{"  ", nil, nil},
	}
	for _, tt := range tests {
		got := executor.BaseCommand(&config.Config{Command: tt.command, Env: tt.env})
		if !slices.Equal(got, tt.want) {
			t.Errorf("BaseCommand(%q, env %v) = %q, want %q", tt.command, tt.env, got, tt.want)
		}
	}
}

// Redacted hides exactly the words secret values became: after their
// flag, joined to it, each item of an array, positionals and values after
// "--", also behind the docker prefix; nothing else, even words equal to a
// secret.
func TestCommandRedacted(t *testing.T) {
	t.Parallel()
	args := []config.Arg{
		{Name: "user", Positional: true},
		{Name: "pin", Positional: true, Secret: true},
		{Name: "token", Flag: "--token=", Secret: true},
		{Name: "key", Flag: "-k", Type: config.TypeArray, Secret: true},
		{Name: "pass_word", Secret: true},
		{Name: "rest", Positional: true, AfterDoubleDash: true, Secret: true},
		{Name: "words", Flag: "-not -k", Type: config.TypeArray, Secret: true},
		{Name: "joined_words", Flag: "-a -b=", Type: config.TypeArray, Secret: true},
		{Name: "inner", Flag: "-c", AfterDoubleDash: true, Secret: true},
	}
	values := map[string]any{"user": "o", "pin": "o", "token": "o", "key": []any{"a", "b"}, "pass_word": "-k", "rest": "o",
		"words": []any{"-not", "-k"}, "joined_words": []any{"o", "-a"}, "inner": "-c"}
	for _, docker := range []bool{false, true} {
		rt := &config.ResolvedTool{Tool: &config.Tool{Name: "t", Command: "o", Args: args}, CLI: &config.Config{Name: "c", Command: "/bin/echo"}}
		want := "o o *** --token=*** -k *** -k *** --pass-word *** -not -k *** -not -k *** -a -b=*** -a -b=*** -- *** -c ***"
		if docker {
			rt.Executor = config.Executor{Type: config.ExecutorDocker, Image: "img", User: "1:1"}
			want = "docker run --rm " + strings.Join(hardened("1:1"), " ") + " img /bin/echo " + want
		} else {
			want = "/bin/echo " + want
		}
		cmd, err := executor.Build(rt, values)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(cmd.Redacted(), " "); got != want {
			t.Errorf("docker=%v: Redacted() = %q\nwant %q", docker, got, want)
		}
		if strings.Contains(strings.Join(cmd.Argv, " "), "***") {
			t.Errorf("Argv itself was changed: %q", cmd.Argv)
		}
	}
}

// A secret cwd arg's value is hidden in the working directory climax
// shows, in the docker -w word, and in the error for a missing directory.
func TestSecretWorkingDirectory(t *testing.T) {
	t.Parallel()
	args := []config.Arg{{Name: "dir", Cwd: true, Secret: true}}
	missing := filepath.Join(t.TempDir(), "hidden-place")
	values := map[string]any{"dir": missing}
	rt := &config.ResolvedTool{Tool: &config.Tool{Name: "t", Args: args, Timeout: 5}, CLI: &config.Config{Name: "c", Command: "echo"}}
	cmd, err := executor.Build(rt, values)
	if err != nil {
		t.Fatal(err)
	}
	if cmd.Dir != missing || cmd.RedactedDir() != "***" {
		t.Errorf("Dir %q, RedactedDir %q", cmd.Dir, cmd.RedactedDir())
	}
	out := executor.New().Call(context.Background(), rt, values)
	if !out.IsError || strings.Contains(out.Text, "hidden-place") || !strings.Contains(out.Text, "Working directory does not exist: ***") {
		t.Errorf("missing secret directory: %q", out.Text)
	}
	rt.Executor = config.Executor{Type: config.ExecutorDocker, Image: "img", User: "1:1"}
	if cmd, err = executor.Build(rt, values); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(cmd.Redacted(), " "); got != "docker run --rm "+strings.Join(hardened("1:1"), " ")+" --workdir=*** img echo" {
		t.Errorf("docker: Redacted() = %q", got)
	}
	// Not secret: shown as it is.
	args[0].Secret = false
	rt.Executor = config.Executor{}
	if cmd, err = executor.Build(rt, values); err != nil || cmd.RedactedDir() != missing {
		t.Errorf("RedactedDir of a plain cwd = %q, %v", cmd.RedactedDir(), err)
	}
}

// A relative working_dir is taken relative to the config's file, and an
// empty cwd value leaves the config's working directory in place.
func TestWorkingDirectory(t *testing.T) {
	t.Parallel()
	src := filepath.Join(t.TempDir(), "cfgs", "tool.yaml")
	args := []config.Arg{{Name: "dir", Cwd: true}}
	rt := &config.ResolvedTool{Tool: &config.Tool{Name: "t", Args: args}, CLI: &config.Config{Name: "c", Command: "./bin/prog", WorkingDir: "sub", Source: src}}
	want := filepath.Join(filepath.Dir(src), "sub")
	for _, values := range []map[string]any{nil, {"dir": ""}} {
		cmd, err := executor.Build(rt, values)
		if err != nil {
			t.Fatal(err)
		}
		if cmd.Dir != want || cmd.Argv[0] != filepath.Join(want, "bin", "prog") {
			t.Errorf("values %v: Dir %q, program %q; want %q and %s/bin/prog", values, cmd.Dir, cmd.Argv[0], want, want)
		}
	}
	cmd, err := executor.Build(rt, map[string]any{"dir": "/elsewhere"})
	if err != nil || cmd.Dir != "/elsewhere" {
		t.Errorf("a cwd value: Dir %q, %v", cmd.Dir, err)
	}
}

// A tool's env comes after its config's: its keys win, and the config's
// map is left as it was (other tools share it). Under the docker executor
// it goes into the container by name, like the config's.
func TestBuildToolEnv(t *testing.T) {
	cli := &config.Config{Name: "go", Command: "go", Env: map[string]string{"GOFLAGS": "-mod=mod", "A": "1"}}
	rt := &config.ResolvedTool{
		Tool: &config.Tool{Name: "go_vet", Command: "vet", Env: map[string]string{"GOFLAGS": "", "GOTOOLCHAIN": "local"}},
		CLI:  cli,
	}
	cmd, err := executor.Build(rt, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"A=1", "GOFLAGS=", "GOTOOLCHAIN=local"}
	if !reflect.DeepEqual(cmd.Env, want) {
		t.Errorf("env %q, want %q", cmd.Env, want)
	}
	if cli.Env["GOFLAGS"] != "-mod=mod" || len(cli.Env) != 2 {
		t.Errorf("the config's env changed: %v", cli.Env)
	}
	rt.Executor = config.Executor{Type: "docker", Image: "golang"}
	cmd, err = executor.Build(rt, nil)
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Join(cmd.Argv, " ")
	if !strings.Contains(line, "-e A -e GOFLAGS -e GOTOOLCHAIN golang go vet") || !reflect.DeepEqual(cmd.Env, want) {
		t.Errorf("docker: argv %q env %q, want -e A -e GOFLAGS -e GOTOOLCHAIN and env %q", cmd.Argv, cmd.Env, want)
	}
	// A tool's env the docker client would read itself is refused, as a
	// config's is.
	rt.Tool.Env = map[string]string{"DOCKER_HOST": "tcp://elsewhere"}
	if _, err := executor.Build(rt, nil); err == nil || !strings.Contains(err.Error(), "DOCKER_HOST") {
		t.Errorf("docker with DOCKER_HOST in the tool's env: %v", err)
	}
}

// A config written for CLImax 0.5 may give a stdin or cwd arg a flag or
// positional: true (docs/config.md, Coming from CLImax 0.5): the value
// still goes only to standard input or the working directory, never to
// the command line.
func TestBuildCompat05StdinCwd(t *testing.T) {
	c, err := config.Parse([]byte(`command: prog
tools:
  - name: t
    description: d
    args:
      - {name: workdir, cwd: true, flag: --workdir}
      - {name: data, stdin: true, positional: true}
      - {name: word, positional: true}
  - name: u
    description: d
    args:
      - {name: dir, cwd: true, positional: true}
      - {name: body, stdin: true, flag: --body}
`), "old.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for i, values := range []map[string]any{
		{"workdir": "/w", "data": "the input", "word": "w1"},
		{"dir": "/w", "body": "the input"},
	} {
		rt := &config.ResolvedTool{Tool: &c.Tools[i], CLI: c}
		cmd, err := executor.Build(rt, values)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"prog"}
		if w, ok := values["word"]; ok {
			want = append(want, w.(string))
		}
		if !slices.Equal(cmd.Argv, want) || cmd.Dir != "/w" || cmd.Stdin != "the input" {
			t.Errorf("%s: argv %q dir %q stdin %q; want argv %q, dir /w, stdin \"the input\"", rt.Tool.Name, cmd.Argv, cmd.Dir, cmd.Stdin, want)
		}
	}
}

// A positional arg with a flag, and an empty flag, as CLImax 0.5 read
// them: the value alone, and --NAME.
func TestBuildCompat05FlagForms(t *testing.T) {
	c, err := config.Parse([]byte(`command: prog
tools:
  - name: t
    description: d
    args:
      - {name: path, positional: true, flag: --path}
      - {name: max_count, type: integer, flag: ""}
`), "old.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cmd, err := executor.Build(&config.ResolvedTool{Tool: &c.Tools[0], CLI: c}, map[string]any{"path": "a.txt", "max_count": 5})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"prog", "a.txt", "--max-count", "5"}; !slices.Equal(cmd.Argv, want) {
		t.Errorf("argv %q, want %q", cmd.Argv, want)
	}
}
