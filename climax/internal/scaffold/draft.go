package scaffold

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"unicode"
)

// Limits of a draft.
const (
	maxToolName        = 64
	maxToolDescription = 200
	DefaultMaxTools    = 100
	DefaultMaxFlags    = 20
)

// DraftOptions shape the config [Draft] writes.
type DraftOptions struct {
	// Name is the program as the user named it: the config's command.
	Name string
	// MaxTools and MaxFlags bound the tools and each tool's flags (the
	// most useful flags first); 0 means the default, a negative MaxFlags
	// no flags at all.
	MaxTools, MaxFlags int
	// Version is the climax version named in the header comment.
	Version string
	// Notes are problems of the discovery, kept as comments.
	Notes []string
}

// maxTools is MaxTools, or the default when it is not set.
func (o DraftOptions) maxTools() int {
	if o.MaxTools <= 0 {
		return DefaultMaxTools
	}
	return o.MaxTools
}

// A Stats summarises a draft.
type Stats struct {
	Tools, Flags, Positionals int
	Dropped                   int // tools left out by MaxTools
}

// A draftTool is one tool before it is written.
type draftTool struct {
	name string
	node *Command
}

// Draft writes the config of the tree under root as YAML, with comments
// marking what needs review. The caller validates the result.
func Draft(root *Command, o DraftOptions) ([]byte, Stats) {
	yaml, st, _ := draft(root, o)
	return yaml, st
}

// draft is [Draft], and the tools it wrote with the command each comes
// from.
func draft(root *Command, o DraftOptions) ([]byte, Stats, []draftTool) {
	o.MaxTools = o.maxTools()
	switch {
	case o.MaxFlags == 0:
		o.MaxFlags = DefaultMaxFlags
	case o.MaxFlags < 0:
		o.MaxFlags = 0
	}
	prog := programName(o.Name)
	cliName := argName(prog)
	if cliName == "" {
		cliName = "cli"
	}
	var st Stats
	nodes, dropped := selectTools(root, o.MaxTools)
	st.Dropped = dropped
	names := map[string]bool{}
	var tools []draftTool
	for _, n := range nodes {
		tools = append(tools, draftTool{name: toolName(cliName, n.Path, names), node: n})
	}

	var b bytes.Buffer
	if root.Source == figSource {
		// --no-exec: the Fig specs alone.
		fmt.Fprintf(&b, "# Draft config for %s, written by climax scaffold %s from the Fig\n", prog, o.Version)
		b.WriteString("# autocomplete specs, without running the program. Review it before serving it (docs/scaffold.md):\n")
	} else {
		fmt.Fprintf(&b, "# Draft config for %s, written by climax scaffold %s from the installed\n", prog, o.Version)
		b.WriteString("# program's help. Review it before serving it (docs/scaffold.md):\n")
	}
	b.WriteString("# - read_only and destructive are guesses from each command's verb: check them;\n")
	b.WriteString("# - each arg's comment says where it was found; remove the ones an agent does not need;\n")
	b.WriteString("# - add category and tags for search, and keywords to the tools;\n")
	b.WriteString("# - then run: climax scaffold --verify FILE && climax validate FILE\n")
	for _, n := range o.Notes {
		fmt.Fprintf(&b, "# note: %s\n", oneLine(n))
	}
	rule := readOnlyRuleFor(prog, root)
	rule.writeNote(&b)
	if st.Dropped > 0 {
		fmt.Fprintf(&b, "# note: %d more commands were left out by --max-tools %d\n", st.Dropped, o.MaxTools)
	}
	fmt.Fprintf(&b, "name: %s\n", quote(cliName))
	desc := root.Description
	if desc == "" {
		desc = "Tools of " + strings.Join(append([]string{prog}, root.Path...), " ") + "."
	}
	fmt.Fprintf(&b, "description: %s\n", quote(truncate(oneLine(desc), maxToolDescription)))
	command := o.Name
	if rule.git {
		command += " " + gitBaseHardening
	}
	fmt.Fprintf(&b, "command: %s\n", quote(command))
	writeGlobals(&b, root, o.MaxFlags)
	if len(tools) == 0 {
		b.WriteString("tools: []\n")
		return b.Bytes(), st, nil
	}
	b.WriteString("tools:\n")
	for _, t := range tools {
		writeTool(&b, t, prog, root, rule, o.MaxFlags, &st)
	}
	st.Tools = len(tools)
	return b.Bytes(), st, tools
}

// toolNodes are the commands that become tools, in tree order: every leaf,
// every inner command that has options of its own (git remote lists
// remotes, git remote add adds one), and the program itself when it takes
// operands besides its subcommands (claude's prompt).
func toolNodes(root *Command) []*Command {
	var out []*Command
	var walk func(n *Command)
	walk = func(n *Command) {
		if len(n.Children) == 0 || ownFlags(n) > 0 && n != root || n == root && takesOperands(n) {
			out = append(out, n)
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(root)
	return out
}

// takesOperands reports whether a program with subcommands is a tool of
// its own too: it takes operands (claude PROMPT). Its options are then
// that tool's, not global ones.
func takesOperands(root *Command) bool {
	return len(root.Children) > 0 && len(root.Positionals) > 0
}

func ownFlags(n *Command) int {
	k := 0
	for _, f := range n.Flags {
		if !f.Global && !isHelpFlag(f) {
			k++
		}
	}
	return k
}

func isHelpFlag(f *Flag) bool {
	switch strings.TrimLeft(f.Long, "-") {
	case "help", "version", "help-all", "usage":
		return true
	}
	return f.Long == "" && (f.Short == "-h" || f.Short == "-?")
}

// toolName is PROG_SUB_SUB in snake_case, at most 64 characters, unique in
// names (which it updates), and never a name climax keeps for itself.
func toolName(cli string, path []string, names map[string]bool) string {
	parts := []string{cli}
	for _, w := range path {
		if n := argName(w); n != "" {
			parts = append(parts, n)
		}
	}
	name := strings.Join(parts, "_")
	if name == "climax_search" || name == "climax_call" {
		name += "_cmd"
	}
	if len(name) > maxToolName {
		h := fnv.New32a()
		h.Write([]byte(name))
		suffix := fmt.Sprintf("_%08x", h.Sum32())
		name = strings.TrimRight(name[:maxToolName-len(suffix)], "_") + suffix
	}
	base := name
	for i := 2; names[name]; i++ {
		s := fmt.Sprintf("_%d", i)
		name = base
		if len(name)+len(s) > maxToolName {
			name = name[:maxToolName-len(s)]
		}
		name += s
	}
	names[name] = true
	return name
}

// writeGlobals writes the root's options (and every command's "Global
// Flags") as global_args without defaults: inert until the user gives one
// a default, which then goes on every call.
func writeGlobals(b *bytes.Buffer, root *Command, maxFlags int) {
	var globals []*Flag
	seen := map[string]bool{}
	add := func(f *Flag) {
		if isHelpFlag(f) || seen[f.Name()] {
			return
		}
		seen[f.Name()] = true
		globals = append(globals, f)
	}
	if len(root.Children) > 0 && !takesOperands(root) {
		for _, f := range root.Flags {
			add(f)
		}
	}
	var walk func(n *Command)
	walk = func(n *Command) {
		for _, f := range n.Flags {
			if f.Global {
				add(f)
			}
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(root)
	if len(globals) == 0 {
		return
	}
	globals = rankFlags(globals)
	if len(globals) > maxFlags {
		globals = globals[:maxFlags]
	}
	b.WriteString("# The program's global options. A global arg is used only once it has a\n")
	b.WriteString("# default, and then on every call: give defaults to the ones you want, delete the rest.\n")
	b.WriteString("global_args:\n")
	used := map[string]bool{}
	for _, f := range globals {
		if f.Type == TypeArray {
			continue // a global default list is rarely meant
		}
		writeFlagArg(b, "  ", f, used)
	}
}

// writeTool writes one tool entry of the program prog.
func writeTool(b *bytes.Buffer, t draftTool, prog string, root *Command, rule readOnlyRule, maxFlags int, st *Stats) {
	n := t.node
	fmt.Fprintf(b, "  - name: %s\n", quote(t.name))
	desc := oneLine(n.Description)
	if desc == "" {
		desc = "Run " + strings.Join(append([]string{prog}, n.Path...), " ") + "."
	}
	fmt.Fprintf(b, "    description: %s\n", quote(truncate(firstSentence(desc), maxToolDescription)))
	if kw := keywords(n); len(kw) > 0 {
		b.WriteString("    keywords: [")
		for i, k := range kw {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(quote(k))
		}
		b.WriteString("]  # the command's aliases\n")
	}
	g := rule.guess(n.Path)
	hazard := ""
	if g.readOnly {
		if hazard = operandHazard(n); hazard != "" {
			g = guess{}
		}
	}
	if command := rule.command(n.Path, g); command != "" {
		fmt.Fprintf(b, "    command: %s\n", quote(command))
	}
	switch {
	case g.readOnly:
		fmt.Fprintf(b, "    read_only: true  # guess from the verb %q: review\n", g.verb)
	case g.destructive:
		fmt.Fprintf(b, "    destructive: true  # guess from the verb %q: review\n", g.verb)
	}
	if hazard != "" {
		fmt.Fprintf(b, "    # not guessed read_only: %s\n", oneLine(hazard))
	}
	for _, p := range n.Problems {
		fmt.Fprintf(b, "    # problem: %s\n", oneLine(p))
	}
	flags, left := toolFlags(n, maxFlags, g.readOnly)
	if len(left) > 0 {
		fmt.Fprintf(b, "    # left out of this read-only tool: %s\n", oneLine(strings.Join(left, ", ")))
	}
	var pos []*Positional
	if len(n.Children) == 0 || n == root && takesOperands(n) {
		pos = n.Positionals
	}
	if len(flags) == 0 && len(pos) == 0 {
		return
	}
	b.WriteString("    args:\n")
	used := map[string]bool{}
	for _, f := range flags {
		writeFlagArg(b, "      ", f, used)
		st.Flags++
	}
	for _, p := range pos {
		name := uniqueName(p.Name, used)
		fmt.Fprintf(b, "      - name: %s  # operand in the usage line\n", quote(name))
		if p.Variadic {
			b.WriteString("        type: array\n")
		}
		b.WriteString("        positional: true\n")
		if p.AfterDashes {
			b.WriteString("        after_double_dash: true\n")
		}
		if p.Required {
			b.WriteString("        required: true\n")
		}
		st.Positionals++
	}
}

func keywords(n *Command) []string {
	var out []string
	for _, a := range n.Aliases {
		if a = strings.TrimSpace(a); a != "" && !slices.Contains(out, a) && (len(n.Path) == 0 || a != n.Path[len(n.Path)-1]) {
			out = append(out, a)
		}
	}
	return out
}

// toolFlags are the tool's own options, most useful first, at most max.
// A read-only tool leaves out the options that run a program, write a
// file or set any setting, which left lists with the reason.
func toolFlags(n *Command, max int, readOnly bool) (out []*Flag, left []string) {
	seen := map[string]bool{}
	for _, f := range n.Flags {
		if f.Global || isHelpFlag(f) || seen[f.Name()] {
			continue
		}
		if readOnly {
			if h := flagHazard(f); h != "" {
				seen[f.Name()] = true
				left = append(left, f.Name()+" ("+h+")")
				continue
			}
		}
		if strings.Contains(strings.ToLower(f.Description), "deprecated") {
			continue
		}
		// --no-X beside X: X is enough.
		if rest, ok := strings.CutPrefix(f.Long, "--no-"); ok && slices.ContainsFunc(n.Flags, func(g *Flag) bool { return g.Long == "--"+rest }) {
			continue
		}
		seen[f.Name()] = true
		out = append(out, f)
	}
	out = rankFlags(out)
	if len(out) > max {
		out = out[:max]
	}
	return out, left
}

// usefulFlags are option names agents use most; they go first.
var usefulFlags = words(`all output format json quiet verbose recursive name namespace file
	force dry-run message filter limit max-count since author long short stat oneline patch
	selector label tag target directory dir path query pattern type force-with-lease
	ignore-case keep delete list update yes no-edit depth branch include exclude
	header request data user env timeout`)

// rankFlags orders flags by usefulness, keeping the help's order among
// equals: known useful names first, then described long options, then the
// rest.
func rankFlags(flags []*Flag) []*Flag {
	score := func(f *Flag) int {
		s := 0
		if usefulFlags[strings.TrimLeft(f.Long, "-")] {
			s += 4
		}
		if f.Long != "" {
			s += 2
		}
		// A one-letter form is what a program gives its everyday options.
		if f.Long != "" && f.Short != "" {
			s += 2
		}
		if f.Description != "" {
			s++
		}
		d := strings.ToLower(f.Description)
		if strings.Contains(d, "experimental") || strings.Contains(d, "debug") || strings.Contains(d, "internal") {
			s -= 3
		}
		return s
	}
	out := slices.Clone(flags)
	slices.SortStableFunc(out, func(a, b *Flag) int { return score(b) - score(a) })
	return out
}

// writeFlagArg writes one option as an arg entry; used holds the arg
// names taken in this list.
func writeFlagArg(b *bytes.Buffer, indent string, f *Flag, used map[string]bool) {
	base := argName(f.Long)
	if base == "" && f.Value != "" {
		base = argName(strings.Trim(f.Value, "<>[]{}"))
	}
	if base == "" || base == argName(f.Short) && len(base) == 1 {
		if base == "" {
			base = argName(f.Short)
		}
	}
	if base == "" {
		base = "flag"
	}
	name := uniqueName(base, used)
	fmt.Fprintf(b, "%s- name: %s  # %s\n", indent, quote(name), sourceComment(f))
	in := indent + "  "
	if f.Type != TypeString && f.Type != "" {
		fmt.Fprintf(b, "%stype: %s\n", in, f.Type)
	}
	if f.Type == TypeArray && f.Items != "" && f.Items != TypeString {
		fmt.Fprintf(b, "%sitems: %s\n", in, f.Items)
	}
	flag := f.Name()
	if f.Joined && f.Type != TypeBoolean {
		flag += "="
	}
	fmt.Fprintf(b, "%sflag: %s\n", in, quote(flag))
	desc := f.Description
	if f.Default != "" && f.Type != TypeBoolean && !strings.Contains(strings.ToLower(desc), "default") {
		desc = strings.TrimSpace(desc + " (default: " + f.Default + ")")
	}
	if desc != "" {
		fmt.Fprintf(b, "%sdescription: %s\n", in, quote(truncate(oneLine(desc), 160)))
	}
	if len(f.Enum) > 0 {
		fmt.Fprintf(b, "%senum: [", in)
		for i, e := range f.Enum {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(quote(e))
		}
		b.WriteString("]\n")
	}
}

// sourceComment says where a flag was found, and its short form when the
// arg uses the long one.
func sourceComment(f *Flag) string {
	src := f.Source
	if src == "" {
		src = "the help"
	}
	if f.Long != "" && f.Short != "" {
		return "from " + src + "; also " + f.Short
	}
	return "from " + src
}

func uniqueName(base string, used map[string]bool) string {
	name := base
	for i := 2; used[name]; i++ {
		name = fmt.Sprintf("%s_%d", base, i)
	}
	used[name] = true
	return name
}

// quote writes s as a YAML double-quoted scalar (JSON's string syntax is
// a subset of it).
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// oneLine joins s's lines and spaces and replaces control characters,
// which a YAML comment cannot hold.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\uFEFF' {
			return '?'
		}
		return r
	}, strings.Join(strings.Fields(s), " "))
}
