package scaffold

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
)

// draftOf drafts a config for program and loads it as climax would.
func draftOf(t *testing.T, r Request) (*config.Config, string) {
	t.Helper()
	res, err := Run(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Parse(res.YAML, "draft.yaml")
	if err != nil {
		t.Fatalf("the draft does not load: %v\n%s", err, res.YAML)
	}
	if _, _, err := index.New([]*config.Config{cfg}, nil); err != nil {
		t.Fatalf("the draft does not index: %v\n%s", err, res.YAML)
	}
	return cfg, string(res.YAML)
}

func toolNamed(t *testing.T, cfg *config.Config, name string) *config.Tool {
	t.Helper()
	for i := range cfg.Tools {
		if cfg.Tools[i].Name == name {
			return &cfg.Tools[i]
		}
	}
	t.Fatalf("no tool %s", name)
	return nil
}

func argNamed(t *testing.T, tool *config.Tool, name string) *config.Arg {
	t.Helper()
	for i := range tool.Args {
		if tool.Args[i].Name == name {
			return &tool.Args[i]
		}
	}
	t.Fatalf("%s: no arg %s", tool.Name, name)
	return nil
}

func TestDraftCobraProgram(t *testing.T) {
	prog := fake(t, "shelf")
	cfg, yaml := draftOf(t, Request{Program: prog, Version: "test"})
	var names []string
	for _, tool := range cfg.Tools {
		names = append(names, tool.Name)
	}
	// help is no tool; __complete gave the commands.
	if !slices.Equal(names, []string{"shelf_delete", "shelf_list"}) {
		t.Fatalf("tools %q", names)
	}
	list := toolNamed(t, cfg, "shelf_list")
	if !list.IsReadOnly() || list.Command != "list" || !slices.Equal(list.Keywords, []string{"ls"}) {
		t.Errorf("shelf_list: read_only %v command %q keywords %q", list.IsReadOnly(), list.Command, list.Keywords)
	}
	if a := argNamed(t, list, "count"); a.Type != config.TypeInteger || a.Flag != "--count" || !strings.Contains(a.Description, "(default 20)") {
		t.Errorf("count: %+v", a)
	}
	if a := argNamed(t, list, "output"); !slices.Equal(a.Enum, []string{"table", "json", "yaml"}) || a.Default != nil {
		t.Errorf("output: enum %q default %v (a default would go on every call)", a.Enum, a.Default)
	}
	if a := argNamed(t, list, "label"); a.Type != config.TypeArray {
		t.Errorf("label: type %s", a.Type)
	}
	del := toolNamed(t, cfg, "shelf_delete")
	if !del.MayDestroy() || del.IsReadOnly() {
		t.Errorf("shelf_delete: want destructive")
	}
	if a := argNamed(t, del, "widget"); !a.Positional || !a.Required {
		t.Errorf("widget: %+v", a)
	}
	if len(cfg.GlobalArgs) != 1 || cfg.GlobalArgs[0].Flag != "--config" {
		t.Errorf("global args %+v, want --config", cfg.GlobalArgs)
	}
	for _, want := range []string{
		`read_only: true  # guess from the verb "list": review`,
		`destructive: true  # guess from the verb "delete": review`,
		`- name: "all"  # from --help; also -A`,
		`command: "` + prog + `"`,
	} {
		if !strings.Contains(yaml, want) {
			t.Errorf("the draft lacks %q:\n%s", want, yaml)
		}
	}
}

func TestDraftLimits(t *testing.T) {
	prog := fake(t, "shelf")
	cfg, yaml := draftOf(t, Request{Program: prog, MaxTools: 1, MaxFlags: 2})
	if len(cfg.Tools) != 1 || !strings.Contains(yaml, "# note: 1 more commands were left out by --max-tools 1") {
		t.Errorf("%d tools; draft:\n%s", len(cfg.Tools), yaml)
	}
	for _, tool := range cfg.Tools {
		flags := 0
		for _, a := range tool.Args {
			if !a.Positional {
				flags++
			}
		}
		if flags > 2 {
			t.Errorf("%s: %d flags, more than --max-flags 2", tool.Name, flags)
		}
	}
	// A prefix drafts one command; its tool keeps the full name.
	cfg, _ = draftOf(t, Request{Program: prog, Prefix: []string{"list"}})
	if len(cfg.Tools) != 1 || cfg.Tools[0].Name != "shelf_list" {
		t.Errorf("prefix list: tools %+v", cfg.Tools)
	}
}

func TestDraftUnknownPrefix(t *testing.T) {
	_, err := Run(context.Background(), Request{Program: fake(t, "shelf"), Prefix: []string{"nope"}})
	if err == nil || !strings.Contains(err.Error(), `is "nope" a subcommand of shelf?`) {
		t.Errorf("err = %v", err)
	}
}

func TestDraftHangingProgram(t *testing.T) {
	res, err := Run(context.Background(), Request{Program: fake(t, "hang"), Timeout: 200 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "gave no usable help") || !strings.Contains(err.Error(), "no answer within the time limit") {
		t.Fatalf("err = %v", err)
	}
	// The partial draft still loads: one tool for the program itself.
	cfg, perr := config.Parse(res.YAML, "partial.yaml")
	if perr != nil || len(cfg.Tools) != 1 || cfg.Tools[0].Name != "hang" {
		t.Errorf("partial draft: %v\n%s", perr, res.YAML)
	}
	// Without help, the description names the program ("Run ." it was).
	if perr == nil && len(cfg.Tools) == 1 && cfg.Tools[0].Description != "Run hang." {
		t.Errorf("description %q, want %q", cfg.Tools[0].Description, "Run hang.")
	}
}

func TestDraftFloodingAndMuteProgram(t *testing.T) {
	for _, name := range []string{"flood", "mute"} {
		res, err := Run(context.Background(), Request{Program: fake(t, name), Timeout: 5 * time.Second})
		if name == "flood" && (err == nil || !strings.Contains(err.Error(), "output cap")) {
			t.Errorf("%s: err = %v", name, err)
		}
		if res == nil {
			continue
		}
		if _, perr := config.Parse(res.YAML, name+".yaml"); perr != nil {
			t.Errorf("%s: partial draft does not load: %v", name, perr)
		}
	}
}

func TestToolName(t *testing.T) {
	names := map[string]bool{}
	long := toolName("cli", []string{strings.Repeat("very-long-word", 10)}, names)
	if len(long) > maxToolName {
		t.Errorf("%q is longer than %d", long, maxToolName)
	}
	if got := toolName("cli", []string{"a.b", "C"}, names); got != "cli_a_b_c" {
		t.Errorf("got %q", got)
	}
	if got := toolName("cli", []string{"a-b", "c"}, names); got != "cli_a_b_c_2" {
		t.Errorf("duplicate: got %q", got)
	}
	if got := toolName("climax", []string{"search"}, names); got != "climax_search_cmd" {
		t.Errorf("reserved: got %q", got)
	}
}

func TestGuessAnnotations(t *testing.T) {
	for _, c := range []struct {
		path              []string
		readOnly, destroy bool
	}{
		{[]string{"list"}, true, false},
		{[]string{"rollout", "status"}, true, false},
		{[]string{"remote", "get-url"}, true, false},
		// What brings something from elsewhere or sends it never reads
		// only (terraform get downloads modules), also within a word.
		{[]string{"get"}, false, false},
		{[]string{"download"}, false, false},
		{[]string{"deploy"}, false, false},
		{[]string{"s3api", "get-object"}, false, false},
		{[]string{"update-index"}, false, false},
		{[]string{"mod", "download"}, false, false},
		// A command under a verb that writes: kubectl set env sets.
		{[]string{"set", "env"}, false, false},
		{[]string{"config", "set", "view"}, false, false},
		{[]string{"container", "prune"}, false, true},
		{[]string{"push"}, false, true},
		// Builds, tests and plans run the project's code: never read-only.
		{[]string{"test", "list"}, false, false},
		{[]string{"plan"}, false, false},
		{[]string{"create"}, false, false},
	} {
		g := guessAnnotations(c.path)
		if g.readOnly != c.readOnly || g.destructive != c.destroy {
			t.Errorf("%v: read_only %v destructive %v", c.path, g.readOnly, g.destructive)
		}
	}
}

func TestVerify(t *testing.T) {
	prog := fake(t, "shelf")
	src := `name: shelf
command: "` + prog + `"
tools:
  - name: shelf_list
    description: List.
    command: list
    args:
      - {name: all, type: boolean, flag: --all}
      - {name: count, type: integer, flag: --count}
      - {name: sort, flag: --sort}
  - name: shelf_delete
    description: Delete.
    command: delete
    args:
      - {name: force, type: boolean, flag: --force}
`
	cfg, err := config.Parse([]byte(src), "shelf.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ix, _, err := index.New([]*config.Config{cfg}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sb := newTestSandbox(t, prog)
	checks := Verify(context.Background(), sb, ix.Tools(), 2)
	if len(checks) != 2 {
		t.Fatalf("%d checks", len(checks))
	}
	list := checks[0]
	if list.Control != "" {
		t.Fatalf("control: %s", list.Control)
	}
	got := map[string]Verdict{}
	for _, f := range list.Flags {
		got[f.Arg] = f.Verdict
	}
	if got["all"] != Accepted || got["count"] != Accepted || got["sort"] != Rejected {
		t.Errorf("verdicts %v, want all and count accepted, sort rejected", got)
	}
	if del := checks[1]; del.Count(Accepted) != 1 || del.Count(Rejected) != 0 {
		t.Errorf("shelf_delete: %+v", del)
	}
}

func TestDraftPathWithSpace(t *testing.T) {
	// The program is never run: the path is refused first.
	_, err := Run(context.Background(), Request{Program: fake(t, "a b")})
	if err == nil || !strings.Contains(err.Error(), "holds a space") {
		t.Errorf("err = %v", err)
	}
}

func TestDraftWordsThatAreNoCommands(t *testing.T) {
	cfg, _ := draftOf(t, Request{Program: fake(t, "parrot")})
	if len(cfg.Tools) != 1 || cfg.Tools[0].Name != "parrot" || len(cfg.Tools[0].Args) != 1 {
		t.Errorf("tools %+v, want parrot alone with its --loud", cfg.Tools)
	}
}

// fakeTools returns a sandbox for the fake program name and n tools of
// it, each a command cN with one boolean flag, as a config would give
// Verify.
func fakeTools(t *testing.T, name string, n int) (*Sandbox, []*config.ResolvedTool) {
	t.Helper()
	prog := fake(t, name)
	src := "name: " + name + "\ncommand: \"" + prog + "\"\ntools:\n"
	for i := range n {
		src += fmt.Sprintf("  - name: %s_%d\n    description: Run.\n    command: c%d\n    args:\n      - {name: all, type: boolean, flag: --all}\n", name, i, i)
	}
	cfg, err := config.Parse([]byte(src), name+".yaml")
	if err != nil {
		t.Fatal(err)
	}
	ix, _, err := index.New([]*config.Config{cfg}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return newTestSandbox(t, prog), ix.Tools()
}

// tallyControls counts the checks whose control says ran, and those whose
// control says skipped; any other control is an error.
func tallyControls(t *testing.T, checks []ToolCheck, ran, skipped string) (int, int) {
	t.Helper()
	var r, s int
	for _, c := range checks {
		switch {
		case strings.Contains(c.Control, ran):
			r++
		case strings.Contains(c.Control, skipped):
			s++
		default:
			t.Errorf("%s: control %q", c.Tool, c.Control)
		}
	}
	return r, s
}

// Verify stops running a program that hangs: past maxHangs timed-out
// probes the other tools are reported unchecked at once, not after a time
// limit each.
func TestVerifyStopsAfterHangs(t *testing.T) {
	sb, tools := fakeTools(t, "hang", 12)
	sb.Timeout = 300 * time.Millisecond
	checks := Verify(context.Background(), sb, tools, 2)
	hung, skipped := tallyControls(t, checks, "no answer within the time limit", "probes of the program hung before")
	// The root help probe and the first tools hang; with 2 workers at
	// most maxHangs+1 probes are under way when the limit is reached.
	if hung > maxHangs+1 || skipped < len(checks)-maxHangs-1 {
		t.Errorf("%d tools hung, %d skipped: the program kept being run", hung, skipped)
	}
}

// A program that prints its help on stderr and exits non-zero still gets
// a draft from that help.
func TestDraftHelpWithNonZeroExit(t *testing.T) {
	cfg, _ := draftOf(t, Request{Program: fake(t, "grumpy"), Timeout: 5 * time.Second})
	tool := toolNamed(t, cfg, "grumpy")
	if a := argNamed(t, tool, "level"); a.Type != "integer" || a.Flag != "--level" {
		t.Errorf("level: %+v", a)
	}
	argNamed(t, tool, "verbose")
	if a := argNamed(t, tool, "file"); !a.Positional || !a.Required {
		t.Errorf("file: %+v", a)
	}
}

// A program that waits for input reads end of input at once: the draft
// is partial (no help), never a hang, and still loads.
func TestDraftProgramAskingForInput(t *testing.T) {
	start := time.Now()
	res, err := Run(context.Background(), Request{Program: fake(t, "asks"), Timeout: time.Minute})
	if time.Since(start) > 30*time.Second {
		t.Errorf("took %s: the program waited for input", time.Since(start))
	}
	if err == nil || !strings.Contains(err.Error(), "gave no usable help") {
		t.Fatalf("err = %v, want no usable help", err)
	}
	if _, perr := config.Parse(res.YAML, "asks.yaml"); perr != nil {
		t.Errorf("partial draft does not load: %v\n%s", perr, res.YAML)
	}
}

// A program that answers the help of every command with its own (parrot,
// as aws answers "aws CMD --help" with its usage) is not run for every
// tool: after maxRootLike such answers the rest are reported unchecked.
func TestVerifyStopsWhenCommandsTakeNoHelp(t *testing.T) {
	sb, tools := fakeTools(t, "parrot", 30)
	checks := Verify(context.Background(), sb, tools, 2)
	own, skipped := tallyControls(t, checks, "answers with the program's own help", "not run: the program answered --help after each of")
	// With 2 tools under way at once, at most maxRootLike+1 are run.
	if own > maxRootLike+1 || skipped < len(checks)-maxRootLike-1 {
		t.Errorf("%d tools run, %d skipped: the program kept being run", own, skipped)
	}
}

// Subcommands named by their parent's usage line ("auditor audit
// [fix|signatures]") are commands even though their help is the parent's
// (npm audit fix): they take its options and nothing is explored below.
func TestDraftUsageChoicesWithTheParentsHelp(t *testing.T) {
	cfg, yaml := draftOf(t, Request{Program: fake(t, "auditor")})
	var got []string
	for _, tool := range cfg.Tools {
		got = append(got, tool.Command)
	}
	if !slices.Equal(got, []string{"audit", "audit fix", "audit signatures", "ping"}) {
		t.Fatalf("tools %q, want audit, its fix and signatures, and ping:\n%s", got, yaml)
	}
	argNamed(t, toolNamed(t, cfg, "auditor_audit_fix"), "dry_run")
}

// A subcommand that hangs costs its tool's facts, not the draft: the rest
// is drafted, the problem is noted at the tool, and the draft loads.
func TestDraftSubcommandThatHangs(t *testing.T) {
	start := time.Now()
	res, err := Run(context.Background(), Request{Program: fake(t, "halfhang"), Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("took %s", d)
	}
	cfg, perr := config.Parse(res.YAML, "halfhang.yaml")
	if perr != nil {
		t.Fatalf("the draft does not load: %v\n%s", perr, res.YAML)
	}
	argNamed(t, toolNamed(t, cfg, "halfhang_fine"), "quick")
	if !strings.Contains(string(res.YAML), "# problem: halfhang stuck --help: no answer within the time limit") {
		t.Errorf("no problem noted at the stuck tool:\n%s", res.YAML)
	}
	if !slices.ContainsFunc(res.Notes, func(n string) bool { return strings.Contains(n, "halfhang stuck --help") }) {
		t.Errorf("notes %q lack the hung probe", res.Notes)
	}
}
