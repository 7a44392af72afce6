package scaffold

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Options bound a discovery.
type Options struct {
	// Depth is how many levels of subcommands below the prefix are
	// explored (1: the prefix's own subcommands).
	Depth int
	// Prefix are subcommand words to start from (["s3"] for "aws s3").
	Prefix []string
	// MaxProbes bounds the programs runs of one discovery.
	MaxProbes int
	// Workers is how many probes run at once.
	Workers int
}

// Defaults of [Options].
const (
	DefaultDepth     = 3
	DefaultMaxProbes = 400
	DefaultWorkers   = 4
	// maxHangs is how many probes may time out before discovery stops
	// probing: a program that hangs on --help would otherwise cost a
	// timeout per subcommand.
	maxHangs = 3
)

// A discovery is the state of one [Discover] call.
type discovery struct {
	sb     *Sandbox
	prog   string // the program's base name
	opts   Options
	style  string // "cobra", "git" or "" (plain --help)
	probes atomic.Int32
	hangs  atomic.Int32
	sem    chan struct{}
	mu     sync.Mutex
	notes  []string // problems not tied to a node
}

// Discover explores the command tree of the sandbox's program from the
// prefix down to opts.Depth levels, by reading its help texts (and
// cobra's or git's completion data when it has them). It returns the node
// of the prefix; problems along the way are in the nodes' Problems and in
// the returned notes. The error is for a prefix the program does not know
// or a program that gave no help at all.
func Discover(ctx context.Context, sb *Sandbox, opts Options) (*Command, []string, error) {
	if opts.Depth <= 0 {
		opts.Depth = DefaultDepth
	}
	if opts.MaxProbes <= 0 {
		opts.MaxProbes = DefaultMaxProbes
	}
	if opts.Workers <= 0 {
		opts.Workers = DefaultWorkers
	}
	d := &discovery{sb: sb, prog: programName(sb.Program), opts: opts, sem: make(chan struct{}, opts.Workers)}
	d.style = d.detectStyle(ctx)
	root := &Command{Path: slices.Clone(opts.Prefix)}
	d.explore(ctx, root, 0, nil, "")
	if len(root.Problems) == 0 && root.lastAnswer != "" && len(root.Flags)+len(root.Children)+len(root.Positionals) == 0 {
		// No option, subcommand or operand, and a failure: whatever it
		// printed (a prompt, an error) was no help.
		root.Problems = append(root.Problems, root.lastAnswer)
	}
	if len(root.Flags) == 0 && len(root.Children) == 0 && len(root.Problems) > 0 {
		return root, d.notes, fmt.Errorf("%s gave no usable help: %s", strings.Join(append([]string{d.prog}, opts.Prefix...), " "), root.Problems[0])
	}
	return root, d.notes, nil
}

// programName is the name a program is known by: its file name without a
// Windows extension.
func programName(path string) string {
	base := filepath.Base(path)
	if ext := filepath.Ext(base); strings.EqualFold(ext, ".exe") {
		base = strings.TrimSuffix(base, ext)
	}
	return base
}

// run runs one probe within the probe budget; ok is false when the budget
// is spent or the program hung too often.
func (d *discovery) run(ctx context.Context, args ...string) (Output, bool) {
	if d.hangs.Load() >= maxHangs {
		return Output{}, false
	}
	if int(d.probes.Add(1)) > d.opts.MaxProbes {
		d.note(fmt.Sprintf("stopped after %d probes (the limit): the draft is partial", d.opts.MaxProbes))
		return Output{}, false
	}
	d.sem <- struct{}{}
	out := d.sb.Run(ctx, args...)
	<-d.sem
	if out.TimedOut && d.hangs.Add(1) == maxHangs {
		d.note(fmt.Sprintf("%d probes hung: stopped probing, the draft is partial", maxHangs))
	}
	return out, true
}

func (d *discovery) note(s string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !slices.Contains(d.notes, s) {
		d.notes = append(d.notes, s)
	}
}

// detectStyle recognises programs with richer sources than --help: git
// (--list-cmds) and cobra programs (a hidden __complete command that ends
// its answer with ":DIRECTIVE").
func (d *discovery) detectStyle(ctx context.Context) string {
	if d.prog == "git" {
		d.sb.prepareGit()
		return "git"
	}
	out, ok := d.run(ctx, "__complete", "")
	if ok && out.ExitCode == 0 && cobraDirectiveRE().MatchString(out.Stdout) {
		return "cobra"
	}
	return ""
}

var fullHelpRE = lazyRE(`(?i)not the full help|--help all\b`)

var cobraDirectiveRE = lazyRE(`(?m)^:[0-9]+\s*\z`)

// explore fills node from its help and explores its children, down to the
// depth limit. words are the node's words for usage lines.
func (d *discovery) explore(ctx context.Context, node *Command, level int, entry *CommandEntry, parentHelp string) {
	page := d.help(ctx, node)
	parents := node.helpText != "" && node.helpText == parentHelp
	if parents && (entry == nil || !entry.InUsage) {
		// The program ignored the word (claude reads it as a prompt)
		// and answered with its parent's help: no subcommand, and
		// nothing to explore below it.
		node.notCommand = true
		return
	}
	if page != nil {
		node.Flags = page.Flags
		node.Positionals = page.Positionals
		node.Aliases = page.Aliases
		if node.Description == "" {
			node.Description = page.Description
		}
	}
	if entry != nil {
		if entry.Description != "" {
			node.Description = entry.Description
		}
		node.Aliases = mergeWords(node.Aliases, entry.Aliases)
	}
	if level >= d.opts.Depth || parents {
		// A command its parent's usage names but whose help is the
		// parent's (npm audit fix) takes the parent's options and has
		// no commands of its own.
		return
	}
	entries := d.children(ctx, node, page)
	var wg sync.WaitGroup
	for _, e := range entries {
		child := &Command{Path: append(slices.Clone(node.Path), e.Name)}
		node.Children = append(node.Children, child)
		wg.Go(func() { d.explore(ctx, child, level+1, &e, node.helpText) })
	}
	wg.Wait()
	// A child whose help is its parent's (the program ignored the word)
	// is no subcommand.
	node.Children = slices.DeleteFunc(node.Children, func(c *Command) bool {
		return c.notCommand || len(c.Problems) > 0 && len(c.Flags) == 0 && len(c.Children) == 0 && c.Description == ""
	})
}

func mergeWords(a, b []string) []string {
	for _, w := range b {
		if !slices.Contains(a, w) {
			a = append(a, w)
		}
	}
	return a
}

// helpArgs are the ways to ask for a node's help, in order.
func (d *discovery) helpArgs(node *Command) [][]string {
	with := func(extra ...string) []string { return append(slices.Clone(node.Path), extra...) }
	if d.style == "git" {
		if len(node.Path) == 0 {
			return [][]string{{"-h"}}
		}
		return [][]string{with("-h")}
	}
	return [][]string{with("--help"), with("-h"), with("-help")}
}

// help reads the node's help: the first way of asking that gives a text
// with options or commands. Problems are recorded on the node.
func (d *discovery) help(ctx context.Context, node *Command) *HelpPage {
	var best *HelpPage
	words := append([]string{d.prog}, node.Path...)
	for _, args := range d.helpArgs(node) {
		out, ok := d.run(ctx, args...)
		if !ok {
			break
		}
		if p := out.Problem(); p != "" {
			node.Problems = append(node.Problems, p)
			if out.TimedOut || out.Flooded {
				break
			}
			continue
		}
		text := out.Text()
		node.lastAnswer = ""
		if out.ExitCode != 0 {
			node.lastAnswer = fmt.Sprintf("%s: printed no help (exit %d%s)", strings.Join(out.Args, " "), out.ExitCode, firstLineNote(text))
		}
		page := ParseHelp(text, words)
		if fullHelpRE().MatchString(text) {
			// curl: "This is not the full help ... use --help all".
			if o2, ok := d.run(ctx, append(slices.Clone(node.Path), "--help", "all")...); ok && o2.Problem() == "" {
				if p2 := ParseHelp(o2.Text(), words); len(p2.Flags) > len(page.Flags) {
					page, text = p2, o2.Text()
					args = append(args, "all")
				}
			}
		}
		if len(node.Path) == 0 && strings.Contains(text, d.prog+` options" for a list of global`) {
			// kubectl lists its global options apart: "kubectl options".
			if o2, ok := d.run(ctx, "options"); ok && o2.Problem() == "" && o2.ExitCode == 0 {
				for _, f := range ParseHelp(o2.Text(), words).Flags {
					f.Global, f.Source = true, "options"
					page.Flags = append(page.Flags, f)
				}
			}
		}
		if d.mentionsHelpCommand(text, node) && len(page.Flags) == 0 {
			// "Run 'go help build' for details": the real text is there.
			if o2, ok := d.run(ctx, append([]string{"help"}, node.Path...)...); ok && o2.Problem() == "" && o2.ExitCode == 0 {
				page = ParseHelp(o2.Text(), words)
				text = o2.Text()
				// A manual may describe the options of the command's
				// own subcommands too (git help bisect: bisect start's).
				for _, f := range page.Flags {
					f.Source = strings.Join(append([]string{"help"}, node.Path...), " ")
				}
			}
		}
		if best == nil || len(page.Flags)+len(page.Commands) > len(best.Flags)+len(best.Commands) {
			best, node.helpText = page, text
			node.Source = strings.Join(args[len(node.Path):], " ")
		}
		if len(page.Flags) > 0 || len(page.Commands) > 0 {
			break
		}
	}
	if best != nil && len(best.Flags)+len(best.Commands) > 0 {
		node.Problems = nil // an earlier way failed, a later one worked
	}
	if d.style == "git" && len(node.Path) >= 2 && best != nil {
		best = gitSubcommandPage(best, node.Path)
	}
	for _, f := range best.flagsOrNil() {
		if f.Source == "--help" {
			f.Source = node.Source
		}
	}
	if d.style == "git" && best != nil {
		d.gitCompletionFlags(ctx, node, best)
	}
	return best
}

// firstLineNote is ": " and the first line of a text, cut short, or "".
func firstLineNote(text string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	if line == "" {
		return ""
	}
	return ": " + truncate(oneLine(line), 80)
}

func (p *HelpPage) flagsOrNil() []*Flag {
	if p == nil {
		return nil
	}
	return p.Flags
}

// mentionsHelpCommand reports whether a help text points to "PROG help
// CMD" for the details (go does).
func (d *discovery) mentionsHelpCommand(text string, node *Command) bool {
	want := strings.Join(append([]string{d.prog, "help"}, node.Path...), " ")
	return len(node.Path) > 0 && strings.Contains(text, want)
}

// children lists a node's subcommands: from cobra's __complete or git's
// lists when the program has them, else from its help.
func (d *discovery) children(ctx context.Context, node *Command, page *HelpPage) []CommandEntry {
	var entries []CommandEntry
	switch {
	case d.style == "git":
		entries = d.gitChildren(ctx, node, page)
	case d.style == "cobra" && page != nil && len(page.Commands) > 0:
		entries = d.cobraChildren(ctx, node, page)
	case page != nil:
		entries = page.Commands
		if len(entries) == 0 {
			entries = usageChoices(page.Usage, append([]string{d.prog}, node.Path...))
		}
		if page.ListsCommands {
			entries = mergeEntries(entries, d.listCommands(ctx, node))
		}
	}
	entries = foldAliases(entries)
	var out []CommandEntry
	seen := map[string]bool{}
	for _, e := range entries {
		if skipCommand(e.Name) || seen[e.Name] || len(node.Path) > 0 && e.Name == node.Path[len(node.Path)-1] {
			continue
		}
		seen[e.Name] = true
		out = append(out, e)
	}
	return out
}

// skipCommand leaves out commands that are no tools: help, shell
// completion scripts, cobra's hidden ones.
func skipCommand(name string) bool {
	switch name {
	case "help", "completion", "completions", "__complete", "__completeNoDesc", "generate-shell-completion":
		return true
	}
	return strings.HasPrefix(name, "-") || strings.HasPrefix(name, "_")
}

// cobraChildren asks cobra for the subcommands: one "name<TAB>description"
// line each, then ":DIRECTIVE". The help's list fills in when the answer
// is unusable.
func (d *discovery) cobraChildren(ctx context.Context, node *Command, page *HelpPage) []CommandEntry {
	args := append(append([]string{"__complete"}, node.Path...), "")
	out, ok := d.run(ctx, args...)
	if !ok || out.Problem() != "" || out.ExitCode != 0 {
		return page.Commands
	}
	entries := ParseCobraComplete(out.Stdout)
	if len(entries) == 0 {
		return page.Commands
	}
	// Aliases are only in the help's list, and so is the program's own
	// order (cobra's answer is sorted; docker's help lists its common
	// commands first): the help's entries come first, in its order.
	var ordered []CommandEntry
	for _, c := range page.Commands {
		if i := slices.IndexFunc(entries, func(e CommandEntry) bool { return e.Name == c.Name }); i >= 0 {
			e := entries[i]
			e.Aliases = c.Aliases
			ordered = append(ordered, e)
		}
	}
	for _, e := range entries {
		if !slices.ContainsFunc(page.Commands, func(c CommandEntry) bool { return c.Name == e.Name }) {
			ordered = append(ordered, e)
		}
	}
	return ordered
}

// ParseCobraComplete reads the answer of cobra's "__complete ARGS... ”":
// "value<TAB>description" lines up to a ":DIRECTIVE" line. Values that are
// flags are left out.
func ParseCobraComplete(s string) []CommandEntry {
	var out []CommandEntry
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.HasPrefix(line, ":") {
			break
		}
		name, desc, _ := strings.Cut(line, "\t")
		name = strings.TrimSpace(name)
		if name == "" || strings.HasPrefix(name, "-") || strings.ContainsAny(name, " /=") {
			continue
		}
		out = append(out, CommandEntry{Name: name, Description: strings.TrimSpace(desc)})
	}
	return out
}

// listCommands reads "PROG --list" (cargo's list of every command,
// plugins included): one indented name, and maybe a description, a line.
func (d *discovery) listCommands(ctx context.Context, node *Command) []CommandEntry {
	out, ok := d.run(ctx, append(slices.Clone(node.Path), "--list")...)
	if !ok || out.Problem() != "" || out.ExitCode != 0 {
		return nil
	}
	p := ParseHelp("Commands:\n"+out.Stdout, nil)
	return p.Commands
}

// mergeEntries adds to a the entries of b it does not have.
func mergeEntries(a, b []CommandEntry) []CommandEntry {
	for _, e := range b {
		if !slices.ContainsFunc(a, func(x CommandEntry) bool { return x.Name == e.Name || slices.Contains(x.Aliases, e.Name) }) {
			a = append(a, e)
		}
	}
	return a
}

var aliasDescRE = lazyRE(`(?i)^\(?alias(?: for| of)?:?\s+([\w-]+)\)?$`)

// foldAliases turns entries described as "alias: build" into aliases of
// the command they name.
func foldAliases(entries []CommandEntry) []CommandEntry {
	var out []CommandEntry
	for _, e := range entries {
		m := aliasDescRE().FindStringSubmatch(strings.TrimSpace(e.Description))
		if m == nil {
			out = append(out, e)
			continue
		}
		if i := slices.IndexFunc(entries, func(x CommandEntry) bool { return x.Name == m[1] }); i >= 0 {
			entries[i].Aliases = mergeWords(entries[i].Aliases, []string{e.Name})
			if j := slices.IndexFunc(out, func(x CommandEntry) bool { return x.Name == m[1] }); j >= 0 {
				out[j].Aliases = entries[i].Aliases
			}
		}
	}
	return out
}

var choiceWordRE = lazyRE(`^[a-z][a-z0-9-]*$`)

// usageChoices reads subcommands from a usage line that names them as a
// choice right after the command: argparse's "{init,build}", npm's
// "[fix|signatures]".
func usageChoices(usage []string, words []string) []CommandEntry {
	if len(usage) == 0 {
		return nil
	}
	toks := splitUsage(usage[0])
	i := 0
	for i < len(toks) && i < len(words) && programName(toks[i]) == programName(words[i]) {
		i++
	}
	for ; i < len(toks); i++ {
		t := toks[i]
		if strings.HasPrefix(t, "[-") || strings.HasPrefix(t, "-") {
			continue // options before the subcommand
		}
		inner := strings.Trim(t, "[]{}<>()")
		sep := "|"
		if strings.HasPrefix(t, "{") {
			sep = ","
		}
		names := strings.Split(inner, sep)
		if len(names) < 2 || slices.ContainsFunc(names, func(n string) bool { return !choiceWordRE().MatchString(n) }) {
			return nil
		}
		var out []CommandEntry
		for _, n := range names {
			out = append(out, CommandEntry{Name: n, InUsage: true})
		}
		return out
	}
	return nil
}
