package scaffold

import (
	"bytes"
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/climax-mcp/climax/configs"
	"github.com/climax-mcp/climax/index/config"
)

func TestFlagHazard(t *testing.T) {
	for _, c := range []struct {
		flag Flag
		want string
	}{
		// What the help says, as the parsers keep it.
		{Flag{Long: "--upload-pack", Value: "<exec>", Description: "path of git-upload-pack on the remote host"}, hazardRuns},
		{Flag{Long: "--receive-pack", Value: "<receive-pack>"}, hazardRuns},
		{Flag{Long: "--textconv", Type: TypeBoolean, Description: "run textconv on object's content"}, hazardRuns},
		{Flag{Long: "--filters", Type: TypeBoolean, Description: "run filters on object's content"}, hazardRuns},
		{Flag{Long: "--ext-diff", Type: TypeBoolean, Description: "allow an external diff helper to be executed"}, hazardRuns},
		{Flag{Long: "--to-command", Value: "COMMAND", Joined: true}, hazardRuns},
		{Flag{Long: "--use-compress-program", Short: "-I", Value: "PROG"}, hazardRuns},
		{Flag{Long: "--rsh-command", Value: "COMMAND"}, hazardRuns},
		{Flag{Long: "--checkpoint-action", Value: "ACTION"}, hazardRuns},
		{Flag{Long: "--open-files-in-pager", Short: "-O", Value: "<pager>", Joined: true}, hazardRuns},
		{Flag{Long: "--pre", Value: "COMMAND"}, hazardRuns},
		{Flag{Long: "--exec", Short: "-x", Value: "cmd"}, hazardRuns},
		{Flag{Long: "--shell", Value: "SHELL"}, hazardRuns},
		{Flag{Long: "--output", Value: "<file>", Description: "output to a specific file"}, hazardWrites},
		{Flag{Long: "--output", Value: "value", Joined: true, Source: "--git-completion-helper"}, hazardWrites},
		{Flag{Short: "-o", Value: "FILE", Description: "place the output into FILE"}, hazardWrites},
		{Flag{Long: "--log-file", Value: "PATH"}, hazardWrites},
		{Flag{Long: "--result", Value: "FILE", Description: "write the result to FILE"}, hazardWrites},
		{Flag{Long: "--report", Value: "FILE", Description: "write the report in the given format to a file"}, hazardWrites},
		{Flag{Long: "--config", Value: "KEY=VALUE", Type: TypeArray}, hazardSettings},
		{Flag{Short: "-c", Value: "<name>=<value>"}, hazardSettings},
		// Formats, reading a file, switching a hazard off, a quoting style.
		{Flag{Long: "--output", Short: "-o", Value: "string", Enum: []string{"json", "yaml"}}, ""},
		{Flag{Long: "--output", Short: "-o", Value: "string", Description: "Output format. One of: (json, yaml, wide)"}, ""},
		{Flag{Long: "--output", Short: "-o", Value: "format"}, ""},
		{Flag{Long: "--output-indicator-new", Value: "<char>"}, ""},
		{Flag{Long: "--exclude-from", Value: "<file>", Description: "read exclude patterns from <file>"}, ""},
		{Flag{Long: "--no-textconv", Type: TypeBoolean}, ""},
		{Flag{Long: "--no-ext-diff", Type: TypeBoolean}, ""},
		{Flag{Long: "--shell", Type: TypeBoolean, Description: "quote placeholders suitably for shells"}, ""},
		{Flag{Long: "--format", Value: "<format>"}, ""},
		{Flag{Long: "--batch-command", Value: "<format>", Joined: true, Description: "read commands from stdin"}, ""},
		{Flag{Short: "-c", Type: TypeBoolean, Description: "use the same output mode as git-annotate"}, ""},
	} {
		f := c.flag
		if f.Type == "" {
			f.Type = TypeString
		}
		if got := flagHazard(&f); got != c.want {
			t.Errorf("%s %s %q: hazard %q, want %q", f.Long, f.Short, f.Value, got, c.want)
		}
	}
}

// hasFlag reports whether a tool has an arg that passes flag (with or
// without "=").
func hasFlag(tool *config.Tool, flag string) bool {
	return slices.ContainsFunc(tool.Args, func(a config.Arg) bool { return strings.TrimSuffix(a.Flag, "=") == flag })
}

// A read-only draft of the installed git keeps no option that runs a
// program or writes a file, and says which it left out. (git's Fig spec
// lists none of these options.)
func TestReadOnlyGitDraftsLeaveOutHazards(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	for _, c := range []struct {
		sub, tool string
		left      []string
	}{
		{"ls-remote", "git_ls_remote", []string{"--upload-pack"}},
		{"diff", "git_diff", []string{"--output", "--ext-diff", "--textconv"}},
		{"rev-list", "git_rev_list", []string{"--output"}},
		{"cat-file", "git_cat_file", []string{"--textconv", "--filters"}},
	} {
		cfg, yaml := draftOf(t, Request{Program: "git", Prefix: []string{c.sub}, MaxFlags: 200})
		tool := toolNamed(t, cfg, c.tool)
		if !tool.IsReadOnly() {
			t.Errorf("%s is not read-only", c.tool)
		}
		for _, f := range c.left {
			if hasFlag(tool, f) {
				t.Errorf("read-only %s keeps %s", c.tool, f)
			}
			if !strings.Contains(yaml, f+" (") {
				t.Errorf("%s: the draft does not say it left out %s:\n%s", c.tool, f, yaml)
			}
		}
	}
}

// A drafted git config carries the bundled config's hardening: settings
// that keep a repository's fsmonitor, hooks and diff drivers from
// running, on every tool or on the read-only ones.
func TestGitDraftIsHardened(t *testing.T) {
	cfg, yaml := draftOf(t, Request{Program: "git", NoExec: true, Depth: 1, MaxTools: 1000})
	if !strings.HasSuffix(cfg.Command, " -c safe.bareRepository=explicit -c core.fsmonitor=false") {
		t.Errorf("command %q lacks the base hardening", cfg.Command)
	}
	for _, name := range []string{"git_status", "git_log", "git_diff", "git_show", "git_blame", "git_ls_remote"} {
		tool := toolNamed(t, cfg, name)
		if !tool.IsReadOnly() || !strings.HasPrefix(tool.Command, "-c core.hooksPath=/dev/null ") {
			t.Errorf("%s: read-only %v, command %q: want read-only with hooks off", name, tool.IsReadOnly(), tool.Command)
		}
	}
	for name, want := range map[string]string{
		"git_diff":  "diff --no-ext-diff --no-textconv",
		"git_log":   "log --no-ext-diff --no-textconv",
		"git_blame": "blame --no-textconv",
	} {
		if c := toolNamed(t, cfg, name).Command; !strings.HasSuffix(c, want) {
			t.Errorf("%s: command %q, want it to end in %q", name, c, want)
		}
	}
	// Tools that change the repository run its hooks, as the bundled ones.
	if c := toolNamed(t, cfg, "git_commit").Command; c != "commit" {
		t.Errorf("git_commit: command %q", c)
	}
	if !strings.Contains(yaml, "# note: as the bundled git config") {
		t.Errorf("the header does not say so:\n%.1500s", yaml)
	}
}

// The hardening a git draft gets is the bundled git config's: its
// command ends in the base settings, and each of its read-only tools
// starts as a drafted read-only tool of the same subcommand does, with
// --no-ext-diff and --no-textconv where, and only where, the draft puts
// them.
func TestGitHardeningIsTheBundledConfigs(t *testing.T) {
	data, err := configs.FS.ReadFile("git.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Parse(data, "git.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(cfg.Command, " "+gitBaseHardening) {
		t.Errorf("the bundled command %q does not end in %q", cfg.Command, gitBaseHardening)
	}
	for i := range cfg.Tools {
		tool := &cfg.Tools[i]
		if !tool.IsReadOnly() {
			continue
		}
		want := gitReadOnlyCommand(strings.Fields(subcommandOf(tool.Command)))
		rest, ok := strings.CutPrefix(tool.Command, want)
		if !ok || rest != "" && rest[0] != ' ' || strings.Contains(rest, "--no-textconv") || strings.Contains(rest, "--no-ext-diff") {
			t.Errorf("%s: bundled command %q, a draft's %q", tool.Name, tool.Command, want)
		}
	}
}

// Programs that run a project's code or configuration while reading it
// (package managers, build tools, toolchains) get no read_only guess,
// though their verbs would give some.
func TestProjectCodeProgramsAreNeverReadOnly(t *testing.T) {
	for _, prog := range []string{"npm", "go", "cargo", "terraform"} {
		cfg, yaml := draftOf(t, Request{Program: prog, NoExec: true, Depth: 2, MaxTools: 1000})
		verbs := 0
		for i := range cfg.Tools {
			tool := &cfg.Tools[i]
			if tool.IsReadOnly() {
				t.Errorf("%s: %s is read-only", prog, tool.Name)
			}
			if guessAnnotations(strings.Fields(tool.Command)).readOnly {
				verbs++
			}
		}
		if verbs == 0 {
			t.Errorf("%s: no tool has a reading verb: the test proves nothing", prog)
		}
		if !strings.Contains(yaml, "# note: no tool is guessed read_only: "+prog+" runs a project's own code") {
			t.Errorf("%s: the header does not say why:\n%.1500s", prog, yaml)
		}
	}
}

// A program not listed whose commands build, test and run a project is
// treated the same.
func TestBuildToolByItsCommands(t *testing.T) {
	root := &Command{Source: "--help", Children: []*Command{
		{Path: []string{"build"}}, {Path: []string{"test"}}, {Path: []string{"list"}},
	}}
	yaml, _ := Draft(root, DraftOptions{Name: "forge"})
	if strings.Contains(string(yaml), "read_only: true") || !strings.Contains(string(yaml), "forge builds, tests and runs projects") {
		t.Errorf("draft:\n%s", yaml)
	}
	for _, prog := range []string{"python3.11", "pip3", "go1.22", "make"} {
		if runsProjectCode(prog, &Command{}) == "" {
			t.Errorf("%s runs no project code?", prog)
		}
	}
	if why := runsProjectCode("jq", &Command{}); why != "" {
		t.Errorf("jq: %s", why)
	}
	root.Children = root.Children[1:] // test and list: no build or run
	yaml, _ = Draft(root, DraftOptions{Name: "forge"})
	if !strings.Contains(string(yaml), "read_only: true") {
		t.Errorf("forge without build: list should be read-only:\n%s", yaml)
	}
}

// kubectl get only reads, but a get also downloads (terraform get, go
// get): no get is guessed read-only.
func TestGetIsNeverReadOnly(t *testing.T) {
	cfg, _ := draftOf(t, Request{Program: "kubectl", NoExec: true, Depth: 1, MaxTools: 1000})
	if toolNamed(t, cfg, "kubectl_get").IsReadOnly() {
		t.Error("kubectl_get is read-only")
	}
	if !toolNamed(t, cfg, "kubectl_describe").IsReadOnly() {
		t.Error("kubectl_describe is not read-only")
	}
}

// A draft passes its own --verify: options that a command's help did not
// list itself (git bisect's manual describes --no-checkout, an option of
// git bisect start) are checked against the program, and those it refuses
// are left out and named.
func TestDraftPassesItsOwnVerify(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	res, err := Run(context.Background(), Request{Program: "git", Depth: 1, Timeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Parse(res.YAML, "draft.yaml")
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(cfg.Tools, func(tool config.Tool) bool { return tool.Name == "git_bisect" })
	if i < 0 {
		t.Skip("git bisect has no options here (no manual page for git help bisect)")
	}
	bisect := &cfg.Tools[i]
	for _, f := range []string{"--no-checkout", "--first-parent"} {
		if hasFlag(bisect, f) {
			t.Errorf("git_bisect keeps %s, which git bisect refuses", f)
		}
	}
	if !slices.ContainsFunc(res.Notes, func(n string) bool {
		return strings.Contains(n, "refused 2 options that its commands' help did not list, left out: bisect --no-checkout, bisect --first-parent")
	}) {
		t.Errorf("notes %q do not name what was left out", res.Notes)
	}
	tools := []*config.ResolvedTool{{Tool: bisect, CLI: cfg}}
	for _, c := range Verify(context.Background(), newTestSandbox(t, "git"), tools, 0) {
		if c.Count(Rejected) > 0 {
			t.Errorf("%s: %+v", c.Tool, c.Flags)
		}
	}
}

// A read verb does not make a command read-only when an operand is a
// program it runs: its help names the operand COMMAND, or says it runs
// one.
func TestOperandHazard(t *testing.T) {
	for _, c := range []struct {
		name string
		n    Command
		want bool
	}{
		{"operand named command", Command{Path: []string{"list"}, Positionals: []*Positional{{Name: "command"}}}, true},
		{"described as running it", Command{Path: []string{"list"}, Description: "List the entries, running COMMAND on each."}, true},
		{"usage names COMMAND", Command{Path: []string{"list"}, helpText: "Usage: hostile2 list [OPTIONS] COMMAND [ARG...]\n"}, true},
		{"usage names <program>", Command{Path: []string{"show"}, helpText: "usage: tool show [-v] <program> [<args>]\n"}, true},
		{"files", Command{Path: []string{"list"}, Description: "List the files of an archive.", Positionals: []*Positional{{Name: "file", Variadic: true}}, helpText: "Usage: tar list FILE...\n"}, false},
		{"lists commands", Command{Path: []string{"list"}, Description: "List the commands available."}, false},
		// A COMMAND of a command with subcommands is one of them.
		{"parent", Command{helpText: "usage: git [--version] <command> [<args>]\n", Children: []*Command{{Path: []string{"log"}}}}, false},
	} {
		if got := operandHazard(&c.n) != ""; got != c.want {
			t.Errorf("%s: hazard %v, want %v", c.name, got, c.want)
		}
	}
	// The draft drops the guess and says why.
	var b bytes.Buffer
	n := &Command{Path: []string{"list"}, Description: "List the entries, running COMMAND on each.", Positionals: []*Positional{{Name: "arg", Variadic: true}}}
	writeTool(&b, draftTool{name: "hostile_list", node: n}, "hostile", &Command{Children: []*Command{n}}, readOnlyRule{}, 20, &Stats{})
	if out := b.String(); strings.Contains(out, "read_only: true") || !strings.Contains(out, "# not guessed read_only: its help says it runs a program") {
		t.Errorf("draft:\n%s", out)
	}
}
