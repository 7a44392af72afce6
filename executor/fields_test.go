package executor_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index/config"
)

// Array args: a positional array gives one argv entry per item, a flag
// array repeats its flag, a joined flag ("--x=") joins each item.
func ExampleBuildArgv_arrays() {
	rt := &config.ResolvedTool{
		Tool: &config.Tool{Name: "curl_get", Args: []config.Arg{
			{Name: "urls", Type: config.TypeArray, Positional: true},
			{Name: "headers", Type: config.TypeArray, Flag: "-H"},
			{Name: "resolve", Type: config.TypeArray, Flag: "--resolve="},
			{Name: "retries", Type: config.TypeArray, Items: config.TypeInteger},
		}},
		CLI: &config.Config{Command: "curl"},
	}
	values, err := executor.Validate(rt, map[string]any{
		"urls":    []any{"http://a.test/", "http://b.test/"},
		"headers": []any{"Accept: text/plain", "X-Trace: 1"},
		"resolve": "a.test:80:127.0.0.1", // a single value is a one-item array
		"retries": []any{1.0, "2"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	argv, _ := executor.BuildArgv(rt, values)
	fmt.Printf("%q\n", argv)
	// Output:
	// ["curl" "http://a.test/" "http://b.test/" "-H" "Accept: text/plain" "-H" "X-Trace: 1" "--resolve=a.test:80:127.0.0.1" "--retries" "1" "--retries" "2"]
}

// after_double_dash: the values go last, after one "--", behind the
// positionals, the flags and the global args; they may start with "-".
func ExampleBuildArgv_afterDoubleDash() {
	rt := &config.ResolvedTool{
		Tool: &config.Tool{Name: "git_log", Command: "log", Args: []config.Arg{
			{Name: "paths", Type: config.TypeArray, Positional: true, AfterDoubleDash: true},
			{Name: "rev", Positional: true},
			{Name: "max_count", Type: config.TypeInteger, Flag: "-n"},
		}},
		CLI: &config.Config{Command: "git", GlobalArgs: []config.Arg{{Name: "pager", Flag: "--no-pager", Type: config.TypeBoolean, Default: true}}},
	}
	values, err := executor.Validate(rt, map[string]any{"paths": []any{"-odd-name.txt", "src"}, "rev": "main", "max_count": 5})
	if err != nil {
		fmt.Println(err)
		return
	}
	argv, _ := executor.BuildArgv(rt, values)
	fmt.Printf("%q\n", argv)
	// Without after-dash values there is no "--".
	values, _ = executor.Validate(rt, map[string]any{"paths": []any{}, "rev": "main"})
	argv, _ = executor.BuildArgv(rt, values)
	fmt.Printf("%q\n", argv)
	// Output:
	// ["git" "log" "main" "-n" "5" "--no-pager" "--" "-odd-name.txt" "src"]
	// ["git" "log" "main" "--no-pager"]
}

func TestBuildArrays(t *testing.T) {
	t.Setenv("CLIMAX_TEST_NS", "prod")
	tests := []struct {
		name   string
		global []config.Arg
		args   []config.Arg
		values map[string]any
		want   []string
	}{
		{"array default", nil, []config.Arg{{Name: "p", Type: config.TypeArray, Positional: true, Default: []any{"a", "b"}}},
			nil, []string{"prog", "a", "b"}},
		{"empty array gives nothing", nil, []config.Arg{{Name: "p", Type: config.TypeArray, Flag: "-p"}},
			map[string]any{"p": []any{}}, []string{"prog"}},
		{"implicit flag repeated", nil, []config.Arg{{Name: "exclude_dir", Type: config.TypeArray}},
			map[string]any{"exclude_dir": []any{"a", "b"}}, []string{"prog", "--exclude-dir", "a", "--exclude-dir", "b"}},
		{"numbers rendered per item", nil, []config.Arg{{Name: "n", Type: config.TypeArray, Items: config.TypeNumber, Flag: "-n="}},
			map[string]any{"n": []any{0.5, int64(3)}}, []string{"prog", "-n=0.5", "-n=3"}},
		{"global array default, expanded item by item", []config.Arg{
			{Name: "ns", Type: config.TypeArray, Flag: "-n", Default: []any{"$CLIMAX_TEST_NS", "$CLIMAX_TEST_UNSET", "x"}},
			{Name: "none", Type: config.TypeArray, Flag: "-z", Default: []any{"$CLIMAX_TEST_UNSET"}},
		}, nil, nil, []string{"prog", "-n", "prod", "-n", "x"}},
		{"two after-dash args share one separator", nil, []config.Arg{
			{Name: "a", Positional: true, AfterDoubleDash: true},
			{Name: "f", Flag: "-f"},
			{Name: "b", Type: config.TypeArray, Positional: true, AfterDoubleDash: true},
		}, map[string]any{"a": "-x", "b": []any{"--y", "z"}, "f": "v"}, []string{"prog", "-f", "v", "--", "-x", "--y", "z"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt := &config.ResolvedTool{Tool: &config.Tool{Name: "t", Args: tt.args}, CLI: &config.Config{Command: "prog", GlobalArgs: tt.global}}
			argv, err := executor.BuildArgv(rt, tt.values)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(argv, tt.want) {
				t.Errorf("argv = %q, want %q", argv, tt.want)
			}
		})
	}
}

func TestValidateArrays(t *testing.T) {
	args := []config.Arg{
		{Name: "paths", Type: config.TypeArray, Positional: true, Required: true},
		{Name: "counts", Type: config.TypeArray, Items: config.TypeInteger, Flag: "-c"},
		{Name: "modes", Type: config.TypeArray, Enum: []string{"fast", "slow"}, Flag: "-m"},
		{Name: "rest", Type: config.TypeArray, Positional: true, AfterDoubleDash: true},
		{Name: "dashed", Type: config.TypeArray, Positional: true, AllowLeadingDash: true},
	}
	tests := []struct {
		name string
		args map[string]any
		want string // the error text; "" for none
		vals map[string]any
	}{
		{name: "list values", args: map[string]any{"paths": []any{"a", 1.5, "true"}, "counts": []any{json.Number("2"), "3"}, "rest": []any{"-v", "--", ""}, "dashed": []any{"-x"}},
			vals: map[string]any{"paths": []any{"a", "1.5", "true"}, "counts": []any{int64(2), int64(3)}, "rest": []any{"-v", "--", ""}, "dashed": []any{"-x"}}},
		{name: "a string is a one-item array", args: map[string]any{"paths": "a b", "counts": "4"},
			vals: map[string]any{"paths": []any{"a b"}, "counts": []any{int64(4)}}},
		{name: "Go slices too", args: map[string]any{"paths": []string{"a"}, "counts": []int{5}},
			vals: map[string]any{"paths": []any{"a"}, "counts": []any{int64(5)}}},
		{name: "required array that is empty", args: map[string]any{"paths": []any{}},
			want: "Argument validation failed:\n  - Missing required argument 'paths' (got an empty list)"},
		{name: "every bad item is named", args: map[string]any{"paths": []any{"ok", nil, []any{"x"}, true}, "counts": []any{"1", "two", 2.5}},
			want: "Argument validation failed:\n" +
				"  - Argument 'paths': item 2: cannot convert null to string\n" +
				"  - Argument 'paths': item 3: cannot convert array [\"x\"] to string\n" +
				"  - Argument 'paths': item 4: cannot convert true to string\n" +
				"  - Argument 'counts': item 2: cannot convert 'two' to integer\n" +
				"  - Argument 'counts': item 3: cannot convert 2.5 to integer"},
		{name: "object and null", args: map[string]any{"paths": map[string]any{"a": 1}, "counts": nil},
			want: "Argument validation failed:\n" +
				"  - Argument 'paths': cannot convert object {\"a\":1} to array of string\n" +
				"  - Argument 'counts': cannot convert null to array of integer"},
		{name: "a single value of the wrong type", args: map[string]any{"paths": "a", "counts": "x"},
			want: "Argument validation failed:\n  - Argument 'counts': cannot convert 'x' to integer"},
		{name: "enum per item", args: map[string]any{"paths": "a", "modes": []any{"fast", "medium"}},
			want: "Argument validation failed:\n  - Argument 'modes': item 2 ('medium') must be one of: fast, slow"},
		// A value of the wrong type for an enum says which values are
		// allowed: true for a list of modes is no mode.
		{name: "enum item of the wrong type", args: map[string]any{"paths": "a", "modes": []any{"fast", true}},
			want: "Argument validation failed:\n  - Argument 'modes': item 2: cannot convert true to string; each item must be one of: fast, slow"},
		{name: "leading dash and NUL per item", args: map[string]any{"paths": []any{"a", "-rf", "b\x00"}, "rest": []any{"-ok", "x\x00"}},
			want: "Argument validation failed:\n" +
				"  - Argument 'paths': item 2: value '-rf' starts with '-', which this argument refuses (the program would read it as an option): pass a value that does not start with '-'\n" +
				"  - Argument 'paths': item 3 contains a NUL byte, which cannot be passed to a command\n" +
				"  - Argument 'rest': item 2 contains a NUL byte, which cannot be passed to a command"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vals, err := executor.Validate(tool(args...), tt.args)
			if tt.want != "" {
				if err == nil || err.Error() != tt.want {
					t.Fatalf("error = %v\nwant %s", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(vals, tt.vals) {
				t.Errorf("values = %#v\nwant %#v", vals, tt.vals)
			}
		})
	}
}

// A leading dash is fine after "--" without allow_leading_dash, and the
// guard stays on for every other positional.
func TestValidateAfterDoubleDash(t *testing.T) {
	rt := tool(config.Arg{Name: "prog_args", Positional: true, AfterDoubleDash: true}, config.Arg{Name: "pkg", Positional: true})
	if _, err := executor.Validate(rt, map[string]any{"prog_args": "-v"}); err != nil {
		t.Errorf("after-dash value refused: %v", err)
	}
	if _, err := executor.Validate(rt, map[string]any{"pkg": "-v"}); err == nil {
		t.Error("a leading dash was accepted in a positional before \"--\"")
	}
}

func TestValidateArrayPolicy(t *testing.T) {
	one, three := 1, 3
	rt := withPolicy(t, map[string]config.Constraint{
		"paths": {Pattern: `src/.*`, MinItems: &one, MaxItems: &three},
		"ns":    {Min: ptr(1), Max: ptr(10)},
		"def":   {Pattern: `ok`},
	},
		config.Arg{Name: "paths", Type: config.TypeArray, Positional: true},
		config.Arg{Name: "ns", Type: config.TypeArray, Items: config.TypeInteger, Flag: "-n"},
		config.Arg{Name: "def", Type: config.TypeArray, Flag: "-d", Default: []any{"ok", "bad"}},
	)
	tests := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"paths": []any{"src/a", "src/b"}, "ns": []any{1, 10}, "def": []any{"ok"}}, ""},
		{map[string]any{"paths": []any{}, "def": "ok"}, "Policy validation failed:\n  - Argument 'paths' has 0 items; the policy requires at least 1"},
		{map[string]any{"paths": []any{"src/a", "etc/passwd", "src/c", "src/d"}, "ns": []any{0, 5, 11}, "def": "ok"},
			"Policy validation failed:\n" +
				"  - Argument 'paths' has 4 items; the policy allows at most 3\n" +
				"  - Argument 'paths': item 2: value 'etc/passwd' does not match pattern 'src/.*'\n" +
				"  - Argument 'ns': item 1: value 0 is below minimum 1\n" +
				"  - Argument 'ns': item 3: value 11 is above maximum 10"},
		// Defaults are checked too, item by item.
		{map[string]any{"paths": "src/a"}, "Policy validation failed:\n  - Argument 'def': item 2: value 'bad' does not match pattern 'ok'"},
	}
	for _, tt := range tests {
		if got := problems(rt, tt.args); got != tt.want {
			t.Errorf("Validate(%v) = %q\nwant %q", tt.args, got, tt.want)
		}
	}
}

func TestUnknownArgs(t *testing.T) {
	tl := &config.Tool{Name: "git_log", Args: []config.Arg{
		{Name: "dir", Cwd: true},
		{Name: "max_count", Type: config.TypeInteger},
		{Name: "path", Positional: true},
		{Name: "message", Stdin: true},
	}}
	got, more := executor.UnknownArgs(tl, map[string]any{
		"cwd": "/repo", "maxCount": 3, "paht": "x", "zzz": 1, "input": "i", "path": "ok", "dir": "/",
	})
	want := []executor.IgnoredArg{
		{Name: "cwd", DidYouMean: "dir"},
		{Name: "input", DidYouMean: "message"},
		{Name: "maxCount", DidYouMean: "max_count"},
		{Name: "paht", DidYouMean: "path"},
		{Name: "zzz"},
	}
	if !reflect.DeepEqual(got, want) || more != 0 {
		t.Errorf("UnknownArgs = %+v, %d more\nwant %+v", got, more, want)
	}
	if got, _ := executor.UnknownArgs(tl, map[string]any{"path": "x"}); got != nil {
		t.Errorf("UnknownArgs with known names = %+v, want nil", got)
	}
	// "cwd" suggests nothing for a tool without a cwd arg.
	if s := executor.SuggestArg(&config.Tool{Args: []config.Arg{{Name: "pattern"}}}, "cwd"); s != "" {
		t.Errorf("SuggestArg = %q, want none", s)
	}
	// Names that always mean a working directory win over a close
	// argument name; "path" and "dir" lose to one.
	near := &config.Tool{Args: []config.Arg{{Name: "cmd"}, {Name: "paths", Type: config.TypeArray}, {Name: "where", Cwd: true}}}
	for name, want := range map[string]string{
		"cwd": "where", "working_dir": "where", "workdir": "where", "WorkingDirectory": "where", "chdir": "where",
		"directory": "where", "dir": "where", "repo": "where", "path": "paths", "cmds": "cmd",
	} {
		if got := executor.SuggestArg(near, name); got != want {
			t.Errorf("SuggestArg(%q) = %q, want %q", name, got, want)
		}
	}
}

// A call with very many unknown names lists the first ones in sorted order
// and counts the rest, in time and space bounded by the list, not the call.
func TestUnknownArgsBounded(t *testing.T) {
	t.Parallel()
	tl := &config.Tool{Name: "t", Args: []config.Arg{{Name: "path"}}}
	args := map[string]any{"path": "x"}
	for i := range 100_000 {
		args[fmt.Sprintf("k%06d", i)] = i
	}
	got, more := executor.UnknownArgs(tl, args)
	if len(got) != executor.MaxIgnoredArgs || more != 100_000-executor.MaxIgnoredArgs {
		t.Fatalf("%d listed, %d more; want %d and %d", len(got), more, executor.MaxIgnoredArgs, 100_000-executor.MaxIgnoredArgs)
	}
	if got[0].Name != "k000000" || got[len(got)-1].Name != fmt.Sprintf("k%06d", executor.MaxIgnoredArgs-1) {
		t.Errorf("not the first names in order: %s … %s", got[0].Name, got[len(got)-1].Name)
	}
	out := executor.New(executor.WithStrictArgs(true)).Call(context.Background(), &config.ResolvedTool{Tool: tl, CLI: &config.Config{Command: "x"}}, args)
	if !out.IsError || strings.Count(out.Text, "\n") != executor.MaxIgnoredArgs+1 || !strings.Contains(out.Text, "… and 99980 more unknown argument names") {
		t.Errorf("strict validation: %q", out.Text)
	}
}

// A huge unknown name is listed shortened, as the text's note and
// messages quote it: structuredContent echoed a 1 MB name whole.
func TestUnknownArgsShortensNames(t *testing.T) {
	t.Parallel()
	tl := &config.Tool{Name: "t", Args: []config.Arg{{Name: "path"}}}
	long := strings.Repeat("é", 500_000)
	got, _ := executor.UnknownArgs(tl, map[string]any{long: 1, "pth": 2})
	if len(got) != 2 || len(got[1].Name) > 200 || !strings.HasSuffix(got[1].Name, "...") || !utf8.ValidString(got[1].Name) {
		t.Fatalf("listed %d names, the long one as %d bytes", len(got), len(got[len(got)-1].Name))
	}
	if got[0].Name != "pth" || got[0].DidYouMean != "path" {
		t.Errorf("short name: %+v", got[0])
	}
}

// Calls ignore unknown names and list them in the result; a strict Runner
// refuses them with the other argument problems.
func TestCallIgnoredArgs(t *testing.T) {
	t.Parallel()
	rt := fake("echo", 5, config.Arg{Name: "dir", Cwd: true}, config.Arg{Name: "word", Positional: true})
	args := map[string]any{"cwd": "/", "word": "hi", "extra": 1}

	out := executor.New().Call(context.Background(), rt, args)
	// The text says so too: a caller reading only the text would run in
	// the server's directory without noticing.
	wantText := "[ignored arguments 'cwd' (did you mean 'dir'?) and 'extra': the tool has no arguments of those names, so the command ran without them]\n\nhi"
	if out.IsError || out.Text != wantText || out.Result == nil {
		t.Fatalf("outcome %+v\nwant text %q", out, wantText)
	}
	b, _ := json.Marshal(out.Result)
	if want := `"ignored_args":[{"name":"cwd","did_you_mean":"dir"},{"name":"extra"}]`; !strings.Contains(string(b), want) {
		t.Errorf("structuredContent %s lacks %s", b, want)
	}
	b, _ = json.Marshal(executor.New().Call(context.Background(), rt, map[string]any{"word": "hi"}).Result)
	if strings.Contains(string(b), "ignored_args") {
		t.Errorf("structuredContent %s has ignored_args with none ignored", b)
	}

	out = executor.New(executor.WithStrictArgs(true)).Call(context.Background(), rt, map[string]any{"cwd": "/", "extra": 1, "word": "-x"})
	want := "Argument validation failed:\n" +
		"  - Unknown argument 'cwd' (did you mean 'dir'?)\n" +
		"  - Unknown argument 'extra'; the tool's arguments are: dir, word\n" +
		"  - Argument 'word': value '-x' starts with '-', which this argument refuses (the program would read it as an option): pass a value that does not start with '-'"
	if !out.IsError || out.Text != want || out.Result != nil {
		t.Errorf("strict outcome %q (isError %v)\nwant %q", out.Text, out.IsError, want)
	}
	if out := executor.New(executor.WithStrictArgs(true)).Call(context.Background(), rt, map[string]any{"word": "hi"}); out.IsError {
		t.Errorf("strict call with known names failed: %s", out.Text)
	}
}

// success_exit_codes: a listed exit code is no error, but the text still
// shows it and the exit code is kept.
func TestCallSuccessExitCodes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		ops     string
		codes   []int
		isError bool
		text    string
	}{
		{"out=none exit=1", []int{0, 1}, false, "none\n\n[exit code: 1]"},
		{"exit=2", []int{0, 1}, true, "[exit code: 2]"},
		{"out=ok", []int{0, 1}, false, "ok"},
		{"exit=1", nil, true, "[exit code: 1]"},
		{"signal=9", []int{0, 137}, false, "[exit code: 137]"},
		{"sleep=10s", []int{0, 143, 137}, true, "Command timed out after 0.2 seconds"},
	}
	for _, tt := range tests {
		t.Run(tt.ops, func(t *testing.T) {
			t.Parallel()
			rt := fake(tt.ops, 5)
			if strings.HasPrefix(tt.ops, "sleep") {
				rt = fake(tt.ops, 0.2)
			}
			rt.Tool.SuccessExitCodes = tt.codes
			out := executor.New(executor.WithGracePeriod(0)).Call(context.Background(), rt, nil)
			if out.IsError != tt.isError || out.Text != tt.text {
				t.Errorf("got %q (isError %v), want %q (isError %v)", out.Text, out.IsError, tt.text, tt.isError)
			}
		})
	}
}

// A json arg passes any JSON value on as one token of compact JSON text;
// a string arg refuses an object (docs/calls.md, Coercion).
func TestCallJSONArg(t *testing.T) {
	t.Parallel()
	rt := fake("echo", 5, config.Arg{Name: "vars", Type: config.TypeJSON, Positional: true}, config.Arg{Name: "text", Flag: "--text"})
	out := executor.New().Call(context.Background(), rt, map[string]any{"vars": map[string]any{"name": "a b", "n": json.Number("2")}})
	if out.IsError || out.Text != `{"n":2,"name":"a b"}` {
		t.Errorf("json object: %q (isError %v)", out.Text, out.IsError)
	}
	// Scalars too, encoded once (Build converts validated values again).
	for v, want := range map[any]string{"@/etc/passwd": `"@/etc/passwd"`, json.Number("7"): "7", true: "true", `[1, "a"]`: `[1,"a"]`} {
		out := executor.New().Call(context.Background(), rt, map[string]any{"vars": v})
		if out.IsError || out.Text != want {
			t.Errorf("json %#v: %q (isError %v), want %q", v, out.Text, out.IsError, want)
		}
	}
	// A string arg refuses objects and arrays, saying to send JSON as
	// text: the JSON string to send when it is short, never a secret's.
	secret := fake("echo", 5, config.Arg{Name: "text", Flag: "--text"}, config.Arg{Name: "token", Flag: "--token", Secret: true})
	for _, tt := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"text": map[string]any{"a": 1, "b": "x & y"}}, `Argument 'text': cannot convert object {"a":1,"b":"x \u0026 y"} to string; to send JSON, send its text as a string: "{\"a\":1,\"b\":\"x & y\"}"`},
		{map[string]any{"text": []any{1.0, "x"}}, `Argument 'text': cannot convert array [1,"x"] to string; to send JSON, send its text as a string: "[1,\"x\"]"`},
		{map[string]any{"text": map[string]any{"long": strings.Repeat("x", 100)}}, `to string; to send JSON, send its text as a string`},
		{map[string]any{"token": map[string]any{"k": "s3cret"}}, `Argument 'token': cannot convert *** to string; to send JSON, send its text as a string`},
		{map[string]any{"text": true}, `Argument 'text': cannot convert true to string`},
	} {
		out := executor.New().Call(context.Background(), secret, tt.args)
		if !out.IsError || !strings.HasSuffix(out.Text, tt.want) || strings.Contains(out.Text, "s3cret") {
			t.Errorf("%v: %q, want it to end with %q", tt.args, out.Text, tt.want)
		}
	}
}

// A working-directory name given to a tool without a cwd arg stands for
// its arg named for a directory to work in (docker exec's workdir, a
// directory in the container), and the note no longer says the tool has
// none.
func TestUnknownCwdSuggestsWorkdir(t *testing.T) {
	t.Parallel()
	tl := &config.Tool{Name: "exec", Args: []config.Arg{
		{Name: "workdir", Description: "Directory inside the container to run in", Flag: "--workdir="},
		{Name: "container", Positional: true},
	}}
	for _, name := range []string{"cwd", "working_dir", "dir", "directory", "chdir"} {
		if got := executor.SuggestArgFor(tl, name, "/app"); got != "workdir" {
			t.Errorf("SuggestArgFor(%q) = %q, want workdir", name, got)
		}
	}
	// Not a weaker directory name, nor with two such args to choose from.
	if got := executor.SuggestArgFor(tl, "path", "/app"); got != "" {
		t.Errorf("SuggestArgFor(path) = %q, want none", got)
	}
	two := &config.Tool{Args: []config.Arg{{Name: "workdir"}, {Name: "dir"}}}
	if got := executor.SuggestArg(two, "cwd"); got != "" {
		t.Errorf("SuggestArg with two directory args = %q, want none", got)
	}
}

// The weaker guesses only consider args that take a value of the type
// sent; without a value they consider every arg.
func TestSuggestArgForValueType(t *testing.T) {
	t.Parallel()
	tl := &config.Tool{Args: []config.Arg{
		{Name: "output", Flag: "-o="},
		{Name: "verbose", Type: config.TypeBoolean, Flag: "-v"},
		{Name: "vars", Type: config.TypeJSON},
		{Name: "count", Type: config.TypeInteger},
		{Name: "dir", Cwd: true},
	}}
	tests := []struct {
		name  string
		value any
		want  string
	}{
		{"o", "/x", "output"},
		{"o", true, ""}, // a boolean is no path
		{"out", "/x", "output"},
		{"out", 3.0, ""},
		{"cou", "5", "count"}, // a number sent as text
		{"cou", "five", ""},
		{"v", true, "verbose"},
		{"v", "x", ""},
		{"variables", map[string]any{}, "vars"},
		{"variables", "x", "vars"}, // json takes any value
		{"output_dir", "/x", "output"},
		{"outdoor", "/x", ""},
	}
	for _, tt := range tests {
		if got := executor.SuggestArgFor(tl, tt.name, tt.value); got != tt.want {
			t.Errorf("SuggestArgFor(%q, %v) = %q, want %q", tt.name, tt.value, got, tt.want)
		}
	}
	if got := executor.SuggestArg(tl, "o"); got != "output" {
		t.Errorf("SuggestArg(o) = %q, want output", got)
	}
}

// A one-letter name (or one invisible character) is no misspelling of
// another one-letter name: every such pair is one edit apart.
func TestSuggestArgOneLetter(t *testing.T) {
	t.Parallel()
	tl := &config.Tool{Args: []config.Arg{{Name: "j", Type: config.TypeJSON}, {Name: "s"}}}
	for _, name := range []string{"z", "\u200b", "k"} {
		if got := executor.SuggestArgFor(tl, name, 1.0); got != "" {
			t.Errorf("SuggestArgFor(%q) = %q, want none", name, got)
		}
	}
	if got := executor.SuggestArgFor(tl, "J", 1.0); got != "j" {
		t.Errorf("SuggestArgFor(J) = %q, want j", got)
	}
}

// Shared words: a word of the arg's name or option (or a synonym) counts
// twice one of its description's first clause; generic words alone, ties
// and asides suggest nothing.
func TestSuggestArgByWords(t *testing.T) {
	t.Parallel()
	tl := &config.Tool{Args: []config.Arg{
		{Name: "destination", Description: "Directory to extract into, created if missing (not the archive's directory)"},
		{Name: "member", Type: config.TypeArray, Description: "Only these members"},
		{Name: "workdir", Description: "Directory inside the container (default: the image's WORKDIR)"},
		{Name: "log_file", Description: "Where the log goes"},
		{Name: "error_file", Description: "Where errors go"},
		{Name: "dir", Cwd: true},
	}}
	tests := map[string]string{
		"target_dir":  "destination", // a synonym in the name
		"extractInto": "destination", // camelCase; both words
		"extract_to":  "destination", // "extract" in the description
		"members":     "member",
		"output_dir":  "destination",
		"missing":     "",    // after the first clause
		"image":       "",    // an aside
		"archive":     "",    // an aside
		"directory":   "dir", // the cwd arg's alias, before any guess
		"file":        "",    // generic, and two args have it
		"log":         "log_file",
		"the_to":      "", // filler only
		"inside":      "workdir",
	}
	for name, want := range tests {
		if got := executor.SuggestArgFor(tl, name, "x"); got != want {
			t.Errorf("SuggestArgFor(%q) = %q, want %q", name, got, want)
		}
	}
}

// A contraction (the first letter, then consonants in order, at least
// half of the name's) stands for a one-word arg; two-letter ones only
// through the synonyms table (docs/calls.md, Validation).
func TestSuggestArgContraction(t *testing.T) {
	t.Parallel()
	tl := &config.Tool{Args: []config.Arg{
		{Name: "package"},
		{Name: "context"},
		{Name: "timestamps", Type: config.TypeBoolean},
		{Name: "stack_name"},
		{Name: "service"},
		{Name: "database"},
		{Name: "profile"},
		{Name: "dir", Cwd: true},
	}}
	tests := []struct {
		name  string
		value any
		want  string
	}{
		{"pkg", "x", "package"},
		{"PKG", "x", "package"},
		{"ctx", "x", "context"},
		{"db", "x", "database"}, // a two-letter synonym
		{"pr", "x", ""},         // two letters in order: not profile
		{"tmp", true, ""},       // 2 of the 8 consonants of timestamps after its t
		{"stn", "x", ""},        // stack_name is two words
		{"src", "x", ""},        // a synonym of source, not service
		{"svc", "x", "service"},
		{"pkg", true, ""}, // no boolean's contraction
		{"pkgx", "x", ""}, // x is not in package
		{"pakg", "x", ""}, // a vowel: no contraction
	}
	for _, tt := range tests {
		if got := executor.SuggestArgFor(tl, tt.name, tt.value); got != tt.want {
			t.Errorf("SuggestArgFor(%q, %v) = %q, want %q", tt.name, tt.value, got, tt.want)
		}
	}
}

// A name that is a whole word of exactly one arg's name gets it even when
// the value is of another type, with that type, in ignored_args, the
// note and the strict problem (docs/calls.md, Validation).
func TestUnknownArgOfAnotherType(t *testing.T) {
	t.Parallel()
	rt := fake("echo", 5,
		config.Arg{Name: "skip_vet", Type: config.TypeBoolean, Flag: "-vet=off"},
		config.Arg{Name: "count", Type: config.TypeInteger, Flag: "-count="},
		config.Arg{Name: "log_file", Flag: "--log="},
		config.Arg{Name: "error_file", Flag: "--err="},
		config.Arg{Name: "word", Positional: true},
		config.Arg{Name: "dir", Cwd: true})
	tests := []struct {
		value    any
		name     string
		want     string
		wantType config.ArgType
	}{
		{"off", "vet", "skip_vet", config.TypeBoolean},
		{1.0, "vet", "skip_vet", config.TypeBoolean},
		{true, "vet", "skip_vet", ""}, // of its type: a plain guess
		{nil, "vet", "", ""},          // null has no type to differ
		{"all", "file", "", ""},       // generic, and two args have it
		{"x", "skip", "skip_vet", config.TypeBoolean},
		{"x", "ve", "", ""},      // not a whole word
		{"x", "vet_off", "", ""}, // two words
	}
	for _, tt := range tests {
		got, _ := executor.UnknownArgs(rt.Tool, map[string]any{tt.name: tt.value})
		if len(got) != 1 || got[0].DidYouMean != tt.want || got[0].DidYouMeanType != tt.wantType {
			t.Errorf("%s=%v: %+v, want did_you_mean %q of type %q", tt.name, tt.value, got, tt.want, tt.wantType)
		}
	}
	out := executor.New().Call(context.Background(), rt, map[string]any{"vet": "off", "word": "hi"})
	if want := "[ignored argument 'vet' (did you mean 'skip_vet', which takes a boolean?): the tool has no argument of that name, so the command ran without it]\n\nhi"; out.IsError || out.Text != want {
		t.Errorf("text %q, want %q", out.Text, want)
	}
	b, _ := json.Marshal(out.Result)
	if want := `"ignored_args":[{"name":"vet","did_you_mean":"skip_vet","did_you_mean_type":"boolean"}]`; !strings.Contains(string(b), want) {
		t.Errorf("structuredContent %s lacks %s", b, want)
	}
	out = executor.New(executor.WithStrictArgs(true)).Call(context.Background(), rt, map[string]any{"vet": "off", "count": "x"})
	if want := "  - Unknown argument 'vet' (did you mean 'skip_vet', which takes a boolean?)"; !out.IsError || !strings.Contains(out.Text, want) {
		t.Errorf("strict: %q, want a line %q", out.Text, want)
	}
}
