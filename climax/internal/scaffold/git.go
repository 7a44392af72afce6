package scaffold

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// gitCategories are the command lists git --list-cmds gives, in the order
// their commands go into a draft: the everyday porcelain first.
const gitCategories = "list-mainporcelain,list-ancillarymanipulators,list-ancillaryinterrogators,list-plumbinginterrogators"

var (
	gitHelpLineRE = lazyRE(`^\s{2,}([a-z][a-z0-9-]*)\s{2,}(\S.*)$`)
	gitWordRE     = lazyRE(`^[a-z][a-z0-9-]+$`)
	// An option in a usage line: after a space or an opening bracket or
	// bar, so that no word inside a placeholder ("[<log-options>]") is one.
	gitFlagRE = lazyRE(`(?:^|[\s\[(|])(--?[A-Za-z0-9][A-Za-z0-9-]*)(=?<[^>]+>| <[^>]+>)?`)
)

// prepareGit gives the sandbox's working directory the few files that make
// it an empty git repository (HEAD, objects, refs), written here rather
// than by running git init, so that the commands that only answer -h and
// --git-completion-helper inside a repository answer them.
func (s *Sandbox) prepareGit() {
	g := filepath.Join(s.dir, "cwd", ".git")
	for _, dir := range []string{"objects", "refs"} {
		os.MkdirAll(filepath.Join(g, dir), 0o700)
	}
	os.WriteFile(filepath.Join(g, "HEAD"), []byte("ref: refs/heads/main\n"), 0o600)
}

// gitChildren lists git's commands (--list-cmds, described by "git help
// -a") at the top, and a command's subcommands from its usage lines ("git
// stash list", "or: git remote add") and --git-completion-helper.
func (d *discovery) gitChildren(ctx context.Context, node *Command, page *HelpPage) []CommandEntry {
	if len(node.Path) == 0 {
		out, ok := d.run(ctx, "--list-cmds="+gitCategories)
		if !ok || out.Problem() != "" || out.ExitCode != 0 {
			if page != nil {
				return page.Commands
			}
			return nil
		}
		descs := map[string]string{}
		if h, ok := d.run(ctx, "help", "-a"); ok && h.Problem() == "" {
			for _, line := range strings.Split(cleanText(h.Stdout), "\n") {
				if m := gitHelpLineRE().FindStringSubmatch(line); m != nil {
					descs[m[1]] = m[2]
				}
			}
		}
		var entries []CommandEntry
		for _, name := range strings.Fields(out.Stdout) {
			if gitWordRE().MatchString(name) {
				entries = append(entries, CommandEntry{Name: name, Description: descs[name]})
			}
		}
		return entries
	}
	if len(node.Path) != 1 || page == nil {
		return nil
	}
	var entries []CommandEntry
	add := func(name string) {
		if gitWordRE().MatchString(name) && !slices.ContainsFunc(entries, func(e CommandEntry) bool { return e.Name == name }) {
			entries = append(entries, CommandEntry{Name: name})
		}
	}
	for _, u := range page.Usage {
		toks := splitUsage(u)
		if len(toks) < 3 || toks[0] != "git" || toks[1] != node.Path[0] {
			continue
		}
		for _, t := range toks[2:] {
			if strings.HasPrefix(t, "-") || strings.HasPrefix(t, "[-") {
				continue
			}
			// "[help|start|bad]" lists subcommands; "[push" opens one.
			inner := strings.Trim(t, "[]()")
			if strings.Contains(inner, "|") {
				words := strings.Split(inner, "|")
				if len(words) >= 3 && !slices.ContainsFunc(words, func(w string) bool { return !gitWordRE().MatchString(w) }) {
					for _, w := range words {
						add(w)
					}
				}
				break
			}
			if gitWordRE().MatchString(inner) && !strings.HasPrefix(t, "<") {
				add(inner)
			}
			break
		}
	}
	if out, ok := d.run(ctx, node.Path[0], "--git-completion-helper"); ok && out.Problem() == "" && out.ExitCode == 0 {
		if f := strings.Fields(out.Stdout); len(f) > 0 && !strings.HasPrefix(f[0], "-") {
			for _, w := range f {
				add(w)
			}
		}
	}
	return entries
}

// gitSubcommandPage narrows the help of "git CMD SUB -h", which git
// answers with CMD's whole usage, to the usage line of SUB: its operands,
// and the options it names with their descriptions from CMD's list.
func gitSubcommandPage(page *HelpPage, path []string) *HelpPage {
	prefix := "git " + strings.Join(path, " ")
	for _, u := range page.Usage {
		if u != prefix && !strings.HasPrefix(u, prefix+" ") {
			continue
		}
		sub := &HelpPage{Usage: []string{u}}
		sub.Positionals = positionals(sub.Usage, append([]string{"git"}, path...), nil)
		for _, m := range gitFlagRE().FindAllStringSubmatch(u[len(prefix):], -1) {
			name := m[1]
			i := slices.IndexFunc(page.Flags, func(f *Flag) bool { return f.Long == name || f.Short == name })
			if i >= 0 {
				if !slices.Contains(sub.Flags, page.Flags[i]) {
					sub.Flags = append(sub.Flags, page.Flags[i])
				}
				continue
			}
			if slices.ContainsFunc(sub.Flags, func(f *Flag) bool { return f.Long == name || f.Short == name }) {
				continue
			}
			f := &Flag{Source: "usage"}
			if strings.HasPrefix(name, "--") || len(name) > 2 {
				f.Long = name
			} else {
				f.Short = name
			}
			if m[2] != "" {
				f.Value = strings.TrimLeft(m[2], "= ")
				f.Joined = strings.HasPrefix(m[2], "=")
			}
			finishFlag(f)
			sub.Flags = append(sub.Flags, f)
		}
		return sub
	}
	return &HelpPage{}
}

// gitCompletionFlags adds the options "git CMD --git-completion-helper"
// names that CMD's -h text does not describe ("--message=" takes a value).
func (d *discovery) gitCompletionFlags(ctx context.Context, node *Command, page *HelpPage) {
	if len(node.Path) != 1 {
		return
	}
	out, ok := d.run(ctx, node.Path[0], "--git-completion-helper")
	if !ok || out.Problem() != "" || out.ExitCode != 0 {
		return
	}
	for _, w := range strings.Fields(out.Stdout) {
		if w == "--" {
			break // the rest are --no-X negations
		}
		if !strings.HasPrefix(w, "--") {
			continue
		}
		name, valued := strings.CutSuffix(w, "=")
		if slices.ContainsFunc(page.Flags, func(f *Flag) bool { return f.Long == name }) {
			continue
		}
		f := &Flag{Long: name, Source: "--git-completion-helper"}
		if valued {
			f.Value, f.Joined = "value", true
		}
		finishFlag(f)
		page.Flags = append(page.Flags, f)
	}
}
