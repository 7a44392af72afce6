package scaffold

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/climax/internal/scaffold/fig"
	"github.com/climax-mcp/climax/index/config"
)

// withFig makes spec the Fig spec of the programs named in names for the
// rest of the test.
func withFig(t *testing.T, spec *fig.Command, names ...string) {
	t.Helper()
	old := lookupFig
	lookupFig = func(name string) (*fig.Command, bool, error) {
		if slices.Contains(names, name) {
			// A fresh copy, as fig.Lookup gives.
			c := *spec
			return &c, true, nil
		}
		return nil, false, nil
	}
	t.Cleanup(func() { lookupFig = old })
}

// shelfSpec is a Fig spec of the fake shelf program that disagrees with
// it in places.
func shelfSpec() *fig.Command {
	return &fig.Command{
		Names:       []string{"shelf"},
		Description: "Spec's own words about shelf",
		Options:     []*fig.Option{{Names: []string{"--config"}, Persistent: true, Args: []*fig.Arg{{Name: "file"}}}},
		Subcommands: []*fig.Command{
			{
				Names:       []string{"delete", "rm"},
				Description: "The spec's description of delete",
				Options: []*fig.Option{
					{Names: []string{"-f", "--force"}, Description: "The spec's words on force"},
					{Names: []string{"--purge"}, Description: "An option the installed shelf lacks"},
				},
			},
			{
				Names:       []string{"move", "mv"},
				Description: "Move a widget to another shelf",
				Options: []*fig.Option{
					{Names: []string{"--to"}, Description: "The shelf to move to", Args: []*fig.Arg{{Name: "shelf", Suggestions: []string{"top", "bottom"}}}},
					{Names: []string{"--lines"}, Args: []*fig.Arg{{Name: "lines", Suggestions: []string{"1", "2"}, Open: true}}},
					{Names: []string{"--config"}, Args: []*fig.Arg{{Name: "file"}}},
					{Names: []string{"--pair"}, Args: []*fig.Arg{{Name: "a"}, {Name: "b"}}},
				},
				Args: []*fig.Arg{{Name: "widget"}, {Name: "more widgets", Optional: true, Variadic: true}},
			},
			{Names: []string{"x"}, Description: "A one-letter mode"},
		},
	}
}

// The installed program wins; the spec adds what the program's help left
// out (a command it did not list while it listed few), and every fact
// from it says so.
func TestFigMergesWithTheProgram(t *testing.T) {
	withFig(t, shelfSpec(), "shelf")
	prog := fake(t, "shelf")
	cfg, yaml := draftOf(t, Request{Program: prog, Version: "test"})
	var names []string
	for _, tool := range cfg.Tools {
		names = append(names, tool.Name)
	}
	if !slices.Equal(names, []string{"shelf_delete", "shelf_list", "shelf_move"}) {
		t.Fatalf("tools %q, want the program's two, then the spec's move (a one-letter mode is no tool)", names)
	}
	if cfg.Description == "Spec's own words about shelf" {
		t.Error("the spec's description replaced the program's")
	}
	del := toolNamed(t, cfg, "shelf_delete")
	if slices.ContainsFunc(del.Args, func(a config.Arg) bool { return a.Name == "purge" }) {
		t.Error("delete got the spec's --purge although the program described delete's options")
	}
	if a := argNamed(t, del, "force"); a.Description != "Delete even a pinned widget" {
		t.Errorf("force: description %q, want the program's", a.Description)
	}
	if !slices.Contains(del.Keywords, "rm") {
		t.Errorf("delete keywords %q, want the spec's alias rm", del.Keywords)
	}
	mv := toolNamed(t, cfg, "shelf_move")
	if mv.Command != "move" || mv.Description != "Move a widget to another shelf" || !slices.Equal(mv.Keywords, []string{"mv"}) {
		t.Errorf("move: command %q description %q keywords %q", mv.Command, mv.Description, mv.Keywords)
	}
	if a := argNamed(t, mv, "to"); a.Flag != "--to" || !slices.Equal(a.Enum, []string{"top", "bottom"}) {
		t.Errorf("to: %+v", a)
	}
	// Suggestions of a value the spec also computes are examples, no enum.
	if a := argNamed(t, mv, "lines"); a.Type != config.TypeInteger || a.Enum != nil {
		t.Errorf("lines: type %s enum %q", a.Type, a.Enum)
	}
	for _, a := range mv.Args {
		switch a.Name {
		case "config":
			t.Error("move repeats the program-wide --config, which is a global arg already")
		case "pair":
			t.Error("an option of two values cannot be one arg")
		}
	}
	if a := argNamed(t, mv, "widget"); !a.Positional || !a.Required {
		t.Errorf("widget: %+v", a)
	}
	if a := argNamed(t, mv, "more_widgets"); !a.Positional || a.Required || a.Type != config.TypeArray {
		t.Errorf("more_widgets: %+v", a)
	}
	for _, want := range []string{
		`- name: "to"  # from fig`,
		`- name: "force"  # from --help; also -f`,
		`# note: 1 command, 2 flags and 2 operands marked "from fig" come from the Fig autocomplete spec of shelf (` + fig.Package() + `, MIT licence)`,
	} {
		if !strings.Contains(yaml, want) {
			t.Errorf("the draft lacks %q:\n%s", want, yaml)
		}
	}
}

// A command only the spec knows is not probed before the draft is
// written (aws has thousands): its options are left to --verify.
func TestFigOnlyCommandsAreNotProbed(t *testing.T) {
	withFig(t, shelfSpec(), "shelf")
	prog := fake(t, "shelf")
	log := filepath.Join(filepath.Dir(prog), "calls.log")
	if err := os.WriteFile(log, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, _ := draftOf(t, Request{Program: prog})
	argNamed(t, toolNamed(t, cfg, "shelf_move"), "to")
	calls, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(calls), "move --") || !strings.Contains(string(calls), "list --help") {
		t.Errorf("calls:\n%s", calls)
	}
}

// A program whose help gives nothing usable (mute prints nothing and
// fails) gets the spec's tree.
func TestFigFillsAThinProgram(t *testing.T) {
	withFig(t, shelfSpec(), "mute")
	cfg, yaml := draftOf(t, Request{Program: fake(t, "mute"), Version: "test"})
	if len(cfg.Tools) != 2 {
		t.Errorf("%d tools, want the spec's delete and move:\n%s", len(cfg.Tools), yaml)
	}
	del := toolNamed(t, cfg, "mute_delete")
	argNamed(t, del, "purge") // nothing from the program: the spec's options come in
	if len(cfg.GlobalArgs) != 1 || cfg.GlobalArgs[0].Flag != "--config" {
		t.Errorf("global args %+v, want the spec's --config", cfg.GlobalArgs)
	}
}

// --no-exec drafts from the spec alone and never runs the program: the
// path need not even exist.
func TestFigNoExec(t *testing.T) {
	withFig(t, shelfSpec(), "shelf")
	cfg, yaml := draftOf(t, Request{Program: "/nonexistent/shelf", NoExec: true, Version: "test"})
	if len(cfg.Tools) != 2 || !strings.Contains(yaml, "written by climax scaffold test from the Fig\n") {
		t.Errorf("%d tools, want delete and move:\n%s", len(cfg.Tools), yaml)
	}
	cfg, _ = draftOf(t, Request{Program: "shelf", Prefix: []string{"mv"}, NoExec: true})
	if len(cfg.Tools) != 1 || cfg.Tools[0].Name != "shelf_mv" || cfg.Tools[0].Command != "mv" {
		t.Errorf("prefix mv: %+v", cfg.Tools)
	}
	_, err := Run(context.Background(), Request{Program: "shelf", Prefix: []string{"nope"}, NoExec: true})
	if err == nil || !strings.Contains(err.Error(), `the Fig spec of shelf has no subcommand "nope"`) {
		t.Errorf("unknown prefix: %v", err)
	}
	_, err = Run(context.Background(), Request{Program: "widgetizer", NoExec: true})
	if err == nil || !strings.Contains(err.Error(), "no offline data about widgetizer") {
		t.Errorf("no spec: %v", err)
	}
}

// With the embedded data, --no-exec drafts git's top-level commands as
// the spec lists them.
func TestFigNoExecEmbedded(t *testing.T) {
	spec, ok, err := fig.Lookup("git")
	if !ok || err != nil {
		t.Fatalf("git: %v %v", ok, err)
	}
	cfg, _ := draftOf(t, Request{Program: "git", NoExec: true, Depth: 1, MaxTools: 1000})
	var commands []string
	for _, tool := range cfg.Tools {
		commands = append(commands, subcommandOf(tool.Command))
	}
	for _, s := range spec.Subcommands {
		if len(s.Name()) > 1 && !skipCommand(s.Name()) && !slices.Contains(commands, s.Name()) {
			t.Errorf("no tool for git %s", s.Name())
		}
	}
}

// subcommandOf is a git tool's command without the settings and options
// of its hardening ("-c core.hooksPath=/dev/null diff --no-ext-diff" is
// "diff").
func subcommandOf(command string) string {
	f := strings.Fields(command)
	for len(f) >= 2 && f[0] == "-c" {
		f = f[2:]
	}
	var words []string
	for _, w := range f {
		if strings.HasPrefix(w, "-") {
			break
		}
		words = append(words, w)
	}
	return strings.Join(words, " ")
}
