package scaffold

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// parseFile parses testdata/NAME, a help text written for these tests in
// the layout of one argument parser.
func parseFile(t *testing.T, name string, words ...string) *HelpPage {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return ParseHelp(string(data), words)
}

func flagNamed(t *testing.T, p *HelpPage, name string) *Flag {
	t.Helper()
	for _, f := range p.Flags {
		if f.Long == name || f.Short == name {
			return f
		}
	}
	var names []string
	for _, f := range p.Flags {
		names = append(names, f.Name())
	}
	t.Fatalf("no flag %s; flags: %v", name, names)
	return nil
}

// want checks the derived facts of one flag.
type want struct {
	long, short string
	typ, items  Type
	enum        []string
	def         string
	joined      bool
	global      bool
	desc        string // a part of the description
}

func checkFlag(t *testing.T, p *HelpPage, w want) {
	t.Helper()
	name := w.long
	if name == "" {
		name = w.short
	}
	f := flagNamed(t, p, name)
	if f.Long != w.long || f.Short != w.short {
		t.Errorf("%s: forms %q %q, want %q %q", name, f.Long, f.Short, w.long, w.short)
	}
	if f.Type != w.typ || f.Items != w.items {
		t.Errorf("%s: type %s/%s, want %s/%s", name, f.Type, f.Items, w.typ, w.items)
	}
	if !slices.Equal(f.Enum, w.enum) {
		t.Errorf("%s: enum %q, want %q", name, f.Enum, w.enum)
	}
	if f.Default != w.def {
		t.Errorf("%s: default %q, want %q", name, f.Default, w.def)
	}
	if f.Joined != w.joined || f.Global != w.global {
		t.Errorf("%s: joined %v global %v, want %v %v", name, f.Joined, f.Global, w.joined, w.global)
	}
	if !strings.Contains(f.Description, w.desc) {
		t.Errorf("%s: description %q lacks %q", name, f.Description, w.desc)
	}
}

func TestParseHelpPflag(t *testing.T) {
	p := parseFile(t, "pflag.txt", "shelf", "list")
	checkFlag(t, p, want{long: "--all", short: "-A", typ: TypeBoolean, desc: "hidden ones too"})
	checkFlag(t, p, want{long: "--count", typ: TypeInteger, def: "20"})
	checkFlag(t, p, want{long: "--output", short: "-o", typ: TypeString, enum: []string{"table", "json", "yaml"}, def: "table", desc: "Output format."})
	checkFlag(t, p, want{long: "--label", typ: TypeArray, items: TypeString})
	checkFlag(t, p, want{long: "--ratio", typ: TypeNumber})
	checkFlag(t, p, want{long: "--config", typ: TypeString, def: "$HOME/.shelf.yaml", global: true})
	if !slices.Equal(p.Aliases, []string{"ls"}) {
		t.Errorf("aliases %q, want [ls]", p.Aliases)
	}
	if p.Description != "List the widgets of a shelf." {
		t.Errorf("description %q", p.Description)
	}
	if len(p.Positionals) != 0 {
		t.Errorf("positionals %v, want none ([flags] is no operand)", p.Positionals)
	}
}

func TestParseHelpGetopt(t *testing.T) {
	p := parseFile(t, "getopt.txt", "pack")
	checkFlag(t, p, want{long: "--append", short: "-a", typ: TypeBoolean})
	checkFlag(t, p, want{long: "--directory", short: "-C", typ: TypeString})
	// An optional value must be joined: --color=always.
	checkFlag(t, p, want{long: "--color", typ: TypeString, joined: true, desc: "or 'auto'"})
	// The wrapped "--append" in the description is no option of its own.
	checkFlag(t, p, want{long: "--lines", short: "-n", typ: TypeInteger, desc: "mentions --append"})
	checkFlag(t, p, want{long: "--quiet", short: "-q", typ: TypeBoolean})
	if n := len(p.Flags); n != 7 {
		t.Errorf("%d flags, want 7 (help and version included)", n)
	}
	if len(p.Positionals) != 1 || *p.Positionals[0] != (Positional{Name: "file", Required: true, Variadic: true}) {
		t.Errorf("positionals %+v, want a required list FILE...", p.Positionals)
	}
}

func TestParseHelpClap(t *testing.T) {
	p := parseFile(t, "clap.txt", "idx")
	checkFlag(t, p, want{long: "--threads", short: "-j", typ: TypeInteger})
	checkFlag(t, p, want{long: "--mode", typ: TypeString, enum: []string{"fast", "exact", "fuzzy"}, def: "fast"})
	checkFlag(t, p, want{long: "--verbose", short: "-v", typ: TypeBoolean})
	want := []Positional{{Name: "pattern", Required: true}, {Name: "path", Variadic: true}}
	if len(p.Positionals) != 2 || *p.Positionals[0] != want[0] || *p.Positionals[1] != want[1] {
		t.Errorf("positionals %+v, want %+v", p.Positionals, want)
	}
}

func TestParseHelpGoFlag(t *testing.T) {
	p := parseFile(t, "goflag.txt", "tiler")
	checkFlag(t, p, want{long: "-depth", typ: TypeInteger, def: "3", desc: "how deep"})
	checkFlag(t, p, want{long: "-name", typ: TypeString, desc: "tile name"})
	checkFlag(t, p, want{short: "-v", typ: TypeBoolean, desc: "verbose output"})
	checkFlag(t, p, want{long: "-scale", typ: TypeNumber, def: "1.5"})
}

func TestParseHelpArgparse(t *testing.T) {
	p := parseFile(t, "argparse.txt", "brew-beans")
	checkFlag(t, p, want{long: "--roast", typ: TypeString, enum: []string{"light", "medium", "dark"}, desc: "roast level"})
	checkFlag(t, p, want{long: "--cups", short: "-n", typ: TypeInteger, desc: "number of cups"})
	checkFlag(t, p, want{long: "--dry-run", typ: TypeBoolean})
	if len(p.Positionals) != 2 || p.Positionals[0].Name != "origin" || !p.Positionals[0].Required ||
		p.Positionals[1].Name != "extra" || p.Positionals[1].Required || !p.Positionals[1].Variadic {
		t.Errorf("positionals %+v, want origin (required) and extra (optional list)", p.Positionals)
	}
}

func TestParseHelpGitParseOptions(t *testing.T) {
	p := parseFile(t, "gitparse.txt", "git", "shelve")
	checkFlag(t, p, want{long: "--keep", short: "-k", typ: TypeBoolean})
	checkFlag(t, p, want{long: "--message", short: "-m", typ: TypeString, desc: "shelf message"})
	checkFlag(t, p, want{long: "--depth", typ: TypeInteger})
	checkFlag(t, p, want{long: "--format", typ: TypeString, joined: true})
	if len(p.Usage) != 3 {
		t.Fatalf("usage lines %q, want 3", p.Usage)
	}
	if len(p.Positionals) != 1 || *p.Positionals[0] != (Positional{Name: "pathspec", Variadic: true, AfterDashes: true}) {
		t.Errorf("positionals %+v, want pathspec after --", p.Positionals)
	}
	sub := gitSubcommandPage(p, []string{"shelve", "drop"})
	if len(sub.Flags) != 1 || sub.Flags[0].Long != "--quiet" {
		t.Errorf("git shelve drop: flags %v, want --quiet alone", sub.Flags)
	}
	if len(sub.Positionals) != 1 || sub.Positionals[0].Name != "shelf" || sub.Positionals[0].Required {
		t.Errorf("git shelve drop: positionals %+v, want an optional shelf", sub.Positionals)
	}
}

func TestParseHelpCommands(t *testing.T) {
	p := parseFile(t, "commands.txt", "box")
	var names []string
	for _, c := range p.Commands {
		names = append(names, c.Name)
	}
	if !slices.Equal(names, []string{"init", "plan", "destroy", "show"}) {
		t.Errorf("commands %q", names)
	}
	if c := p.Commands[1]; !slices.Equal(c.Aliases, []string{"p"}) || c.Description != "Show what would change" {
		t.Errorf("plan: %+v", c)
	}
	checkFlag(t, p, want{long: "-chdir", typ: TypeString, global: true})
}

func TestParseHelpPacked(t *testing.T) {
	p := ParseHelp("Tests:\n      -amin N -name PATTERN -empty\n", []string{"seek"})
	checkFlag(t, p, want{long: "-amin", typ: TypeInteger})
	checkFlag(t, p, want{long: "-name", typ: TypeString})
	checkFlag(t, p, want{long: "-empty", typ: TypeBoolean})
}

func TestParseHelpHostileText(t *testing.T) {
	// Escapes, overstrike, unbalanced brackets and a very long line must
	// neither panic nor leak control characters into names.
	text := "\x1b[1mUsage:\x1b[0m t [(-a | --b) <x>)] ]]] [<y>...\n" +
		"  -\bx-\bx, --\x1b[4mfoo\x1b[0m <v>   d\n" + strings.Repeat("-", 100000) + "\n"
	p := ParseHelp(text, []string{"t"})
	for _, f := range p.Flags {
		if strings.ContainsAny(f.Name(), "\x1b\b") {
			t.Errorf("flag name %q holds control characters", f.Name())
		}
	}
}

func TestParseCobraComplete(t *testing.T) {
	got := ParseCobraComplete("get\tDisplay one or many resources\nrun\n--flag\tnot a command\n:4\nCompletion ended\n")
	want := []CommandEntry{{Name: "get", Description: "Display one or many resources"}, {Name: "run"}}
	if len(got) != 2 || got[0].Name != want[0].Name || got[0].Description != want[0].Description || got[1].Name != "run" {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestTypeOf(t *testing.T) {
	for _, c := range []struct {
		placeholder string
		variadic    bool
		typ, items  Type
	}{
		{"", false, TypeBoolean, ""},
		{"int", false, TypeInteger, ""},
		{"<N>", false, TypeString, ""}, // typeOf sees the inner text only
		{"N", false, TypeInteger, ""},
		{"float64", false, TypeNumber, ""},
		{"stringArray", false, TypeArray, TypeString},
		{"ints", false, TypeArray, TypeInteger},
		{"FILE", true, TypeArray, TypeString},
		{"duration", false, TypeString, ""},
	} {
		typ, items := typeOf(c.placeholder, c.variadic)
		if typ != c.typ || items != c.items {
			t.Errorf("typeOf(%q, %v) = %s/%s, want %s/%s", c.placeholder, c.variadic, typ, items, c.typ, c.items)
		}
	}
}

func TestUsageChoices(t *testing.T) {
	for _, c := range []struct {
		usage string
		words []string
		want  []string
	}{
		{"brew [-h] {init,build} ...", []string{"brew"}, []string{"init", "build"}},
		{"npm audit [fix|signatures]", []string{"npm", "audit"}, []string{"fix", "signatures"}},
		{"tool [-v] FILE", []string{"tool"}, nil},
		{"tool [--color=<when>]", []string{"tool"}, nil},
	} {
		var got []string
		for _, e := range usageChoices([]string{c.usage}, c.words) {
			got = append(got, e.Name)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: got %q, want %q", c.usage, got, c.want)
		}
	}
}

// commander.js (node programs such as claude): operands between a
// command's name and its description, "|" between aliases, and an
// indented "Examples:" block inside the list that does not end it.
func TestParseHelpCommander(t *testing.T) {
	p := parseFile(t, "commander.txt", "crate")
	var names []string
	for _, c := range p.Commands {
		names = append(names, c.Name)
	}
	if !slices.Equal(names, []string{"add", "list", "move", "help"}) {
		t.Errorf("commands %q", names)
	}
	if c := p.Commands[1]; !slices.Equal(c.Aliases, []string{"ls"}) || c.Description != "List the crates" {
		t.Errorf("list: %+v", c)
	}
	if c := p.Commands[2]; c.Description != "Move a note between crates, keeping its tags" {
		t.Errorf("move: %+v", c)
	}
	if len(p.Positionals) != 1 || p.Positionals[0].Name != "note" || p.Positionals[0].Required {
		t.Errorf("operands %+v, want an optional note", p.Positionals)
	}
	checkFlag(t, p, want{long: "--quiet", short: "-q", typ: TypeBoolean})
}

// git's manuals write a count option first as a dash and the number:
// "-<number>, -n <number>, --max-count=<number>".
func TestParseHelpNumberForm(t *testing.T) {
	p := ParseHelp("OPTIONS\n       -<number>, -n <number>, --max-count=<number>\n           Limit the number of commits to output.\n", []string{"git", "log"})
	checkFlag(t, p, want{long: "--max-count", short: "-n", typ: TypeInteger, desc: "Limit the number"})
}
