package main

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// runClimax runs the command in-process with buffers.
func runClimax(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestHelp(t *testing.T) {
	code, out, errOut := runClimax(t, "--help")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"Usage: climax <command>", "validate", "list", "skill", "Exit codes:", "2  usage error",
		// README's exit codes: a missing config or policy file is a usage error too.
		"unknown config name, missing config or policy file"} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), strings.Join(strings.Fields(want), " ")) {
			t.Errorf("help lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runClimax(t, "run", "--help")
	if code != exitOK || !strings.Contains(out, "--classic") || !strings.Contains(out, "CLIMAX_LOG_LEVEL") {
		t.Errorf("run --help: exit %d\n%s", code, out)
	}
}

func TestVersion(t *testing.T) {
	old := version
	version = "v9.8.7"
	defer func() { version = old }()
	code, out, _ := runClimax(t, "--version")
	if code != exitOK || out != "v9.8.7\n" {
		t.Errorf("--version: exit %d, output %q", code, out)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "no config given"},
		{[]string{"run"}, "bundled configs: "},
		{[]string{"--bogus", "git"}, "unknown flag --bogus"},
		{[]string{"--log-level", "loud", "git"}, `invalid log level "loud"`},
		{[]string{"list", "--format", "xml"}, `must be one of "text","json"`},
		{[]string{"skill", "--path", "--install"}, "can't be used together"},
		{[]string{"skill", "--force"}, "--force only applies to --install"},
		{[]string{"./does-not-exist.yaml"}, "config file ./does-not-exist.yaml does not exist"},
		{[]string{"--policy", "nope.yaml", "git"}, "policy file nope.yaml does not exist"},
		{[]string{"validate"}, `expected "<CONFIG> ..."`},
		// Search without QUERY says what to pass, not just "expected <QUERY>";
		// a flag's own error still wins.
		{[]string{"search"}, "no query given\nusage: climax search QUERY [CONFIG...]"},
		{[]string{"search", "--cli", "git"}, "'climax list' shows the bundled configs"},
		{[]string{"search", "--bogus"}, "unknown flag --bogus"},
		// Negative numbers reach the flags' own checks in both forms.
		{[]string{"search", "--limit", "-1", "x", "git"}, "--limit must be 0 or more, got -1"},
		{[]string{"--auto-budget", "-1", "git"}, "--auto-budget must not be negative"},
		{[]string{"--max-concurrent", "-2", "git"}, "must not be negative"},
		{[]string{"--transport", "http", "--auth-token", "   ", "git"}, "the auth token is blank"},
	} {
		code, out, errOut := runClimax(t, tc.args...)
		if code != exitUsage {
			t.Errorf("climax %q: exit %d, want %d", tc.args, code, exitUsage)
		}
		if !strings.Contains(errOut, tc.want) {
			t.Errorf("climax %q: stderr %q lacks %q", tc.args, errOut, tc.want)
		}
		if out != "" {
			t.Errorf("climax %q: stdout %q, want nothing", tc.args, out)
		}
	}
}

func TestUnknownConfigName(t *testing.T) {
	code, _, errOut := runClimax(t, "lsit")
	if code != exitUsage {
		t.Fatalf("exit %d, want %d", code, exitUsage)
	}
	for _, want := range []string{
		`no config named "lsit"`,
		`did you mean "list" (subcommand)?`,
		"bundled configs: ",
		"git",
		"subcommands: run, validate, list, search, skill, test-dialog, scaffold",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	_, _, errOut = runClimax(t, "scafold")
	if !strings.Contains(errOut, `did you mean "scaffold" (subcommand)?`) {
		t.Errorf("no suggestion for scafold:\n%s", errOut)
	}
	// Every subcommand is listed (scaffold and test-dialog were not).
	var names []string
	parser, err := newParser(&cli{}, &env{})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range parser.Model.Children {
		names = append(names, n.Name)
	}
	if !slices.Equal(names, subcommands) {
		t.Errorf("subcommands %v, the parser's %v", subcommands, names)
	}
	_, _, errOut = runClimax(t, "gti")
	if !strings.Contains(errOut, `did you mean "git" (bundled config)?`) {
		t.Errorf("no suggestion for gti:\n%s", errOut)
	}
	// A file of that name in the working directory: say how to load it.
	t.Chdir(t.TempDir())
	writeFile(t, ".", "mytool", "command: x\ntools: []\n")
	code, _, errOut = runClimax(t, "list", "mytool")
	if code != exitUsage || !strings.Contains(errOut, `no bundled config named "mytool"; to load the file of that name, write "./mytool"`) {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
}

func TestLogLevel(t *testing.T) {
	for in, want := range map[string]slog.Level{"debug": slog.LevelDebug, "Info": slog.LevelInfo, "warn": slog.LevelWarn, "WARNING": slog.LevelWarn, "ERROR": slog.LevelError} {
		var l logLevel
		if err := l.UnmarshalText([]byte(in)); err != nil || slog.Level(l) != want {
			t.Errorf("UnmarshalText(%q) = %v, %v; want %v", in, slog.Level(l), err, want)
		}
	}
	var l logLevel
	if err := l.UnmarshalText([]byte("loud")); err == nil {
		t.Error(`UnmarshalText("loud") accepted`)
	}
}

const goodConfig = `name: good
command: fakecli-not-installed-anywhere
tools:
  - name: good_one
    description: "A fine tool"
    args:
      - name: n
        type: integer
        required: true
`

const badConfig = `name: bad
command: echo
tools:
  - name: bad_one
    description: "x"
    args:
      - name: a
        tpye: string
`

func TestValidate(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeFile(t, dir, "good.yaml", goodConfig)
	writeFile(t, dir, "bad.yaml", badConfig)

	code, out, _ := runClimax(t, "validate", "good.yaml")
	if code != exitOK {
		t.Errorf("good: exit %d\n%s", code, out)
	}
	if !strings.Contains(out, "ok  good (good.yaml): 1 tool\n") {
		t.Errorf("good: no ok line:\n%s", out)
	}
	if !strings.Contains(out, `good.yaml: warning: program "fakecli-not-installed-anywhere" is not on PATH`) {
		t.Errorf("good: no missing-program warning:\n%s", out)
	}

	code, out, _ = runClimax(t, "validate", "bad.yaml", "good.yaml")
	if code != exitError {
		t.Errorf("bad: exit %d, want %d", code, exitError)
	}
	for _, want := range []string{`bad.yaml:8:9: `, `unknown key "tpye"`, "FAIL  bad.yaml: 1 error\n", "ok  good", "validation failed"} {
		if !strings.Contains(out, want) {
			t.Errorf("bad: output lacks %q:\n%s", want, out)
		}
	}

	// A missing file or an unknown name is a failed validation: exit 1.
	for _, ref := range []string{"./missing.yaml", "nosuchconfig"} {
		code, out, _ = runClimax(t, "validate", ref, "good.yaml")
		if code != exitError || !strings.Contains(out, "FAIL  "+ref) {
			t.Errorf("validate %s: exit %d, want %d, output:\n%s", ref, code, exitError, out)
		}
	}

	code, out, _ = runClimax(t, "validate", "--format", "json", "bad.yaml")
	if code != exitError {
		t.Errorf("bad json: exit %d", code)
	}
	var rep validateReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("bad json: %v\n%s", err, out)
	}
	if rep.OK || len(rep.Configs) != 1 || len(rep.Configs[0].Errors) != 1 || rep.Configs[0].Errors[0].Line != 8 {
		t.Errorf("bad json: unexpected report %+v", rep)
	}

	// Duplicate tool names across configs.
	writeFile(t, dir, "dup.yaml", strings.ReplaceAll(goodConfig, "name: good\n", "name: dup\n"))
	code, out, _ = runClimax(t, "validate", "good.yaml", "dup.yaml")
	if code != exitError || !strings.Contains(out, `dup.yaml:4: tool "good_one" is also defined in good.yaml`) {
		t.Errorf("dup: exit %d\n%s", code, out)
	}
}

func TestList(t *testing.T) {
	code, out, _ := runClimax(t, "list")
	if code != exitOK || !strings.HasPrefix(out, "NAME") || !strings.Contains(out, "\ngit ") {
		t.Errorf("list: exit %d\n%s", code, out)
	}
	code, out, _ = runClimax(t, "list", "--format", "json")
	var bundled struct{ Configs []bundledEntry }
	if err := json.Unmarshal([]byte(out), &bundled); code != exitOK || err != nil || len(bundled.Configs) == 0 {
		t.Errorf("list json: exit %d, %v\n%s", code, err, out)
	}

	dir := t.TempDir()
	p := writeFile(t, dir, "good.yaml", goodConfig)
	code, out, _ = runClimax(t, "list", p)
	want := "NAME      CLI   ARGS  DESCRIPTION\ngood_one  good  n     A fine tool\n1 tool\n"
	if code != exitOK || out != want {
		t.Errorf("list good: exit %d\n%s\nwant\n%s", code, out, want)
	}
	code, out, _ = runClimax(t, "list", "-f", "json", p)
	var tools struct {
		Tools []struct {
			ToolName string `json:"tool_name"`
			CLIName  string `json:"cli_name"`
		}
	}
	if err := json.Unmarshal([]byte(out), &tools); code != exitOK || err != nil || len(tools.Tools) != 1 || tools.Tools[0].ToolName != "good_one" {
		t.Errorf("list good json: exit %d, %v\n%s", code, err, out)
	}

	pol := writeFile(t, dir, "policy.yaml", "default: disabled\n")
	code, out, _ = runClimax(t, "list", "--policy", pol, p)
	if code != exitOK || strings.Contains(out, "good_one") || !strings.Contains(out, "0 tools") {
		t.Errorf("list with policy: exit %d\n%s", code, out)
	}
}

func TestSkill(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	code, out, _ := runClimax(t, "skill")
	if code != exitOK || out != skillGuide || !strings.Contains(out, "allow_leading_dash") {
		t.Errorf("skill: exit %d, %d bytes", code, len(out))
	}
	dest := filepath.Join(dir, ".claude", "commands", "climax-config.md")
	code, out, _ = runClimax(t, "skill", "--path")
	if code != exitOK || out != dest+"\n" {
		t.Errorf("skill --path: exit %d, %q, want %q", code, out, dest)
	}
	code, out, _ = runClimax(t, "skill", "--install")
	if code != exitOK || !strings.HasPrefix(out, "installed "+dest) {
		t.Errorf("skill --install: exit %d, %q", code, out)
	}
	if b, err := os.ReadFile(dest); err != nil || string(b) != skillGuide {
		t.Errorf("installed file: %v", err)
	}
	code, out, _ = runClimax(t, "skill", "--install")
	if code != exitOK || !strings.Contains(out, "already up to date") {
		t.Errorf("second --install: exit %d, %q", code, out)
	}
	writeFile(t, filepath.Dir(dest), "climax-config.md", "mine\n")
	code, _, errOut := runClimax(t, "skill", "--install")
	if code != exitError || !strings.Contains(errOut, "--force") {
		t.Errorf("--install over a changed file: exit %d, %q", code, errOut)
	}
	code, out, _ = runClimax(t, "skill", "--install", "--force")
	if b, _ := os.ReadFile(dest); code != exitOK || string(b) != skillGuide || !strings.HasPrefix(out, "replaced ") {
		t.Errorf("--install --force: exit %d, %q", code, out)
	}
}

func TestShorten(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"a bit too long", 10, "a bit too…"},
		{"two\nlines", 20, "two …"},
	} {
		if got := shorten(tc.in, tc.n); got != tc.want {
			t.Errorf("shorten(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

// A query climax_search would refuse is refused in every form of climax
// search, never ranked in one and refused in another.
func TestSearchRefusesLongQuery(t *testing.T) {
	long := strings.Repeat("commit ", 700) // 4,900 bytes
	for _, args := range [][]string{
		{"search", long, "git"},
		{"search", "--explain", long, "git"},
		{"search", "--format", "json", long, "git"},
	} {
		code, stdout, stderr := runClimax(t, args...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, "Query too long: 4899 bytes (limit 4096)") {
			t.Errorf("climax %s …: exit %d, stdout %q, stderr %q", args[1], code, stdout, stderr)
		}
	}
}

// The defaults the stdio warning compares with are the flags' defaults.
func TestHTTPFlagDefaults(t *testing.T) {
	var c cli
	parser, err := newParser(&c, &env{stdout: io.Discard, stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parser.Parse([]string{"run", "git"}); err != nil {
		t.Fatal(err)
	}
	if got := c.Run.ignoredOnStdio(); len(got) != 0 {
		t.Errorf("defaults reported as set: %v", got)
	}
	if _, err := parser.Parse([]string{"run", "--addr", ":9999", "--stateless", "--max-sessions", "3", "git"}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.Run.ignoredOnStdio(), " "); got != "--addr --stateless --max-sessions" {
		t.Errorf("ignoredOnStdio = %q", got)
	}
}

// --help shows a flag's default when it says something.
func TestHelpShowsDefaults(t *testing.T) {
	_, stdout, _ := runClimax(t, "run", "--help")
	flat := strings.Join(strings.Fields(stdout), " ")
	for _, want := range []string{"(default: 851)", "(default: 30m)", "(default: 1000)", "(default: 5m)", "(default: WARNING)"} {
		if !strings.Contains(flat, want) {
			t.Errorf("run --help lacks %q", want)
		}
	}
	if strings.Contains(flat, "(default: 0)") || strings.Contains(flat, "(default: false)") {
		t.Errorf("run --help shows an empty default:\n%s", stdout)
	}
}

// --confirm-via defaults to auto over stdio and to client over HTTP,
// where the user of a remote client is not at this machine; a value given
// wins.
func TestConfirmViaDefault(t *testing.T) {
	for _, tc := range []struct{ transport, via, want string }{
		{transportStdio, "", "auto"},
		{"http", "", "client"},
		{"sse", "", "client"},
		{"http", "dialog", "dialog"},
		{transportStdio, "client", "client"},
	} {
		c := &runCmd{ConfirmVia: tc.via}
		c.Transport = tc.transport
		if got := c.confirmVia(); got != tc.want {
			t.Errorf("transport %s, --confirm-via %q: %q, want %q", tc.transport, tc.via, got, tc.want)
		}
	}
}

// A server's command line parsed with runOnly gives run the same flags
// and configs as the whole command line; anything else goes to the whole
// command line.
func TestRunOnlyParse(t *testing.T) {
	for _, args := range [][]string{
		{"git"},
		{"run", "git", "gh"},
		{"--classic", "git"},
		{"git", "--transport", "http", "--addr", "127.0.0.1:0", "--max-sessions", "3"},
		{"-c", "x.yaml", "--read-only", "--log-level", "debug", "--confirm", "write", "git"},
		{"git", "--limit", "-1"}, // not a run flag: the whole command line reports it
	} {
		var whole cli
		parser, err := newParser(&whole, &env{stdout: io.Discard, stderr: io.Discard})
		if err != nil {
			t.Fatal(err)
		}
		_, wantErr := parser.Parse(args)
		if !runOnlyApplies(args) {
			t.Errorf("%q: runOnly does not apply", args)
			continue
		}
		var alone runOnly
		ro, err := newParser(&alone, &env{stdout: io.Discard, stderr: io.Discard})
		if err != nil {
			t.Fatal(err)
		}
		_, gotErr := ro.Parse(args)
		if (gotErr == nil) != (wantErr == nil) {
			t.Errorf("%q: runOnly error %v, the whole command line's %v", args, gotErr, wantErr)
		}
		if gotErr == nil && !reflect.DeepEqual(alone.Run, whole.Run) {
			t.Errorf("%q: runOnly gives\n%+v\nthe whole command line\n%+v", args, alone.Run, whole.Run)
		}
	}
	for _, args := range [][]string{nil, {"--help"}, {"git", "-h"}, {"--version"}, {"validate", "git"}, {"list"}, {"scaffold", "git"}, {"test-dialog"}} {
		if runOnlyApplies(args) {
			t.Errorf("%q: runOnly applies", args)
		}
	}
}

// climax search --format json answers as a server started with its
// configs would: a query naming a bundled config it does not search gets
// the hint; with no config every bundled one is searched and none is named.
func TestSearchJSONNamesUnservedConfigs(t *testing.T) {
	const hint = `"hint":"If you meant the program kubectl: it is a bundled config this server was not started with."`
	code, stdout, stderr := runClimax(t, "search", "--format", "json", "--limit", "1", "kubectl apply", "git")
	if code != 0 || !strings.Contains(stdout, hint) || !strings.Contains(stdout, `"tool_name":"git_stash_apply"`) {
		t.Errorf("search kubectl apply git: exit %d, stdout %s, stderr %s", code, stdout, stderr)
	}
	code, stdout, stderr = runClimax(t, "search", "--format", "json", "--limit", "1", "kubectl apply")
	if code != 0 || strings.Contains(stdout, "started with") || !strings.Contains(stdout, `"cli_name":"kubectl"`) {
		t.Errorf("search kubectl apply: exit %d, stdout %s, stderr %s", code, stdout, stderr)
	}
}
