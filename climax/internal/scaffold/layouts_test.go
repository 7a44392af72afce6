package scaffold

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// positionalNames lists a page's operands as name, "?" when optional, and
// "..." when a list.
func positionalNames(p *HelpPage) []string {
	var out []string
	for _, o := range p.Positionals {
		s := o.Name
		if !o.Required {
			s += "?"
		}
		if o.Variadic {
			s += "..."
		}
		out = append(out, s)
	}
	return out
}

// Usage layouts whose operands a draft missed: further forms on lines of
// their own (jq), a placeholder of two words (jq), optional operands
// nested (psql, git ls-remote).
func TestUsageOperandLayouts(t *testing.T) {
	for _, c := range []struct {
		help  string
		words []string
		want  []string
	}{
		{"Usage:\tjq [options] <jq filter> [file...]\n\tjq [options] --args <jq filter> [strings...]\n\tjq [options] --jsonargs <jq filter> [JSON_TEXTS...]\n\n  -c    compact output\n",
			[]string{"jq"}, []string{"jq_filter"}},
		{"Usage:\n  psql [OPTION]... [DBNAME [USERNAME]]\n\nGeneral options:\n  -c, --command=COMMAND    run only single command\n",
			[]string{"psql"}, []string{"dbname?", "username?"}},
		{"usage: git ls-remote [--heads] [--upload-pack=<exec>]\n                     [-q | --quiet] [<repository> [<refs>...]]\n\n    -q, --quiet           do not print remote URL\n",
			[]string{"git", "ls-remote"}, []string{"repository?", "refs?..."}},
		// Options and alternatives inside brackets are no operands.
		{"usage: git stash push [(-m | --message) <message>] [-q | --quiet]\n",
			[]string{"git", "stash", "push"}, nil},
	} {
		p := ParseHelp(c.help, c.words)
		if got := positionalNames(p); !slices.Equal(got, c.want) {
			t.Errorf("%s: operands %q, want %q (usage %q)", strings.Join(c.words, " "), got, c.want, p.Usage)
		}
	}
	if p := ParseHelp("Usage:\tjq [options] <jq filter> [file...]\n\tjq [options] --args <jq filter> [strings...]\n", []string{"jq"}); len(p.Usage) != 2 {
		t.Errorf("jq: usage %q, want two forms", p.Usage)
	}
}

// python's "-c cmd : text" layout: the value is one word and the text
// after the colon its description.
func TestParseHelpColonLayout(t *testing.T) {
	p := ParseHelp("usage: python3 [option] ... [-c cmd | -m mod | file | -] [arg] ...\n"+
		"-b     : issue warnings about str(bytes_instance)\n"+
		"-c cmd : program passed in as string (terminates option list)\n", []string{"python3"})
	checkFlag(t, p, want{short: "-c", typ: TypeString, desc: "program passed in as string"})
	if f := flagNamed(t, p, "-c"); f.Value != "cmd" {
		t.Errorf("-c: value %q, want cmd", f.Value)
	}
	if f := flagNamed(t, p, "-b"); f.Description != "issue warnings about str(bytes_instance)" {
		t.Errorf("-b: description %q", f.Description)
	}
}

// A paragraph that ends in a colon heads a list: it is not the program's
// description (git's "These are common Git commands used in various
// situations:").
func TestHeadingIsNoDescription(t *testing.T) {
	p := ParseHelp("usage: git [-v | --version] <command> [<args>]\n\nThese are common Git commands used in various situations:\n\nstart a working area\n   clone     Clone a repository into a new directory\n", []string{"git"})
	if p.Description != "" {
		t.Errorf("description %q, want none", p.Description)
	}
}

// A placeholder's words are no option: git stash list's "[<log-options>]"
// gave a flag "-options".
func TestGitUsagePlaceholderIsNoFlag(t *testing.T) {
	p := ParseHelp("usage: git stash list [<log-options>]\n   or: git stash show [-u | --include-untracked] [<diff-options>] [<stash>]\n\n    -q, --quiet           be quiet\n", []string{"git", "stash"})
	for _, sub := range []string{"list", "show"} {
		page := gitSubcommandPage(p, []string{"stash", sub})
		for _, f := range page.Flags {
			if strings.Contains(f.Name(), "options") {
				t.Errorf("git stash %s: flag %s from a placeholder", sub, f.Name())
			}
		}
	}
	if page := gitSubcommandPage(p, []string{"stash", "list"}); len(page.Positionals) != 0 {
		t.Errorf("git stash list: operands %q, want none: log options are options", positionalNames(page))
	}
	if page := gitSubcommandPage(p, []string{"stash", "show"}); len(page.Flags) != 2 {
		t.Errorf("git stash show: flags %d, want -u and --include-untracked as one or two", len(page.Flags))
	}
}

// The same on the installed programs, where they are.
func TestInstalledProgramsLayouts(t *testing.T) {
	for _, c := range []struct {
		argv []string
		want []string
	}{
		{[]string{"jq", "--help"}, []string{"jq_filter"}},
		{[]string{"psql", "--help"}, []string{"dbname?", "username?"}},
		{[]string{"git", "ls-remote", "-h"}, []string{"repository?", "refs?..."}},
	} {
		out, err := exec.Command(c.argv[0], c.argv[1:]...).CombinedOutput()
		if _, lookErr := exec.LookPath(c.argv[0]); lookErr != nil {
			t.Logf("%s is not installed", c.argv[0])
			continue
		}
		p := ParseHelp(string(out), c.argv[:len(c.argv)-1])
		if got := positionalNames(p); !slices.Equal(got, c.want) {
			t.Errorf("%v: operands %q, want %q (%v)", c.argv, got, c.want, err)
		}
	}
	if _, err := exec.LookPath("git"); err == nil {
		out, _ := exec.Command("git", "--help").CombinedOutput()
		if p := ParseHelp(string(out), []string{"git"}); strings.HasSuffix(p.Description, ":") {
			t.Errorf("git: description %q", p.Description)
		}
	}
}
