package scaffold

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// A HelpPage is what [ParseHelp] reads from one help text.
type HelpPage struct {
	Description string // the first paragraph that is not usage or a heading
	Usage       []string
	Commands    []CommandEntry
	Aliases     []string // cobra's "Aliases:" section, the command's own name left out
	Flags       []*Flag
	Positionals []*Positional
	// ListsCommands: the help says that --list shows every command
	// (cargo's "See all commands with --list").
	ListsCommands bool
}

// A CommandEntry is one subcommand a help text lists.
type CommandEntry struct {
	Name        string
	Aliases     []string
	Description string
	// InUsage: the parent's usage line names the command as a choice
	// ("npm audit [fix|signatures]"), so it is one even when its help is
	// the parent's.
	InUsage bool
}

var (
	ansiRE = lazyRE(`\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07`)
	// An option line starts with a dash and a letter, digit or "[" (for
	// --[no-]name) after any indentation, or with a dash and a number's
	// placeholder before a comma and the option's names (git's manuals:
	// "-<number>, -n <number>, --max-count=<number>").
	optionLineRE = lazyRE(`^(\s*)(-{1,2}[A-Za-z0-9\[][^\s]*.*|-<[a-z]+>, .*)$`)
	// A form that is a dash and a placeholder alone ("-<number>").
	placeholderFormRE = lazyRE(`^-{1,2}<[^<>\s]+>$`)
	// One form of an option: the name, then what follows it up to the next
	// form.
	flagNameRE = lazyRE(`^(-{1,2})(\[no-\])?([A-Za-z0-9][A-Za-z0-9_.:-]*)(.*)$`)
	// A command entry: name (and aliases) then two spaces and a
	// description, or the name alone.
	// A command line: its name, aliases after "," or "|", its operands
	// as commander.js lists them ("add [options] <name>"), then its
	// description.
	commandLineRE = lazyRE(`^\s+([a-zA-Z][\w.:-]*)((?:(?:,\s*|\|)[a-zA-Z][\w.:-]*)*)\*?(?:\s+(?:\[[^\]\s]*\]|<[^>\s]*>)(?:\.\.\.)?)*(?:\s{2,}|\t|\s+-\s+|:\s+)(\S.*)$`)
	commandOnlyRE = lazyRE(`^\s+([a-zA-Z][\w.:-]*)((?:,\s*[a-zA-Z][\w.:-]*)*),?\s*$`)
	listHintRE    = lazyRE(`(?i)(all|more|installed) commands with --list|--list\s+list (all |installed )?(sub)?commands`)
	usageRE       = lazyRE(`(?i)^\s*(?:usage|or)\s*:\s*(.*)$`)
	headingRE     = lazyRE(`^[A-Za-z][A-Za-z0-9 ()/,'_-]{0,60}:\s*$`)
	upperHeadRE   = lazyRE(`^[A-Z][A-Z ]{2,40}$`)
)

// cleanText removes terminal escapes and overstrike, and expands tabs to
// stops of 8 so that columns line up as printed.
func cleanText(s string) string {
	s = ansiRE().ReplaceAllString(s, "")
	if strings.Contains(s, "\b") {
		var b []rune
		for _, r := range s {
			if r == '\b' {
				if len(b) > 0 {
					b = b[:len(b)-1]
				}
				continue
			}
			b = append(b, r)
		}
		s = string(b)
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var out strings.Builder
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			out.WriteByte('\n')
		}
		col := 0
		for _, r := range line {
			if r == '\t' {
				n := 8 - col%8
				out.WriteString(strings.Repeat(" ", n))
				col += n
				continue
			}
			out.WriteRune(r)
			col++
		}
	}
	return out.String()
}

func indentOf(line string) int { return len(line) - len(strings.TrimLeft(line, " ")) }

// sectionKind classifies a heading.
type sectionKind int

const (
	sectionOther sectionKind = iota
	sectionCommands
	sectionFlags
	sectionGlobalFlags
	sectionArguments
	sectionAliases
)

func kindOf(heading string) sectionKind {
	h := strings.ToLower(heading)
	switch {
	case strings.Contains(h, "alias"):
		return sectionAliases
	case strings.Contains(h, "global") || strings.Contains(h, "inherited"):
		return sectionGlobalFlags
	case strings.Contains(h, "option") || strings.Contains(h, "flag"):
		return sectionFlags
	case strings.Contains(h, "command") || strings.Contains(h, "verb"):
		return sectionCommands
	case strings.Contains(h, "argument") || strings.Contains(h, "positional"):
		return sectionArguments
	}
	return sectionOther
}

// isHeading reports whether a line is a section heading ("Options:",
// "Available Commands:", "OPTIONS").
func isHeading(line string) (string, bool) {
	if strings.HasPrefix(line, " ") || strings.HasPrefix(line, "-") {
		// Indented headings of up to 2 spaces ending in ":" occur too.
		t := strings.TrimSpace(line)
		if indentOf(line) <= 2 && headingRE().MatchString(t) && !strings.HasPrefix(t, "-") && strings.Count(t, " ") < 5 {
			return strings.TrimSuffix(t, ":"), true
		}
		return "", false
	}
	t := strings.TrimSpace(line)
	if (headingRE().MatchString(t) || upperHeadRE().MatchString(t)) && (len(strings.Fields(t)) <= 6 || kindOf(firstWords(t, 2)) != sectionOther) {
		return strings.TrimSuffix(t, ":"), true
	}
	return "", false
}

// ParseHelp reads a help text of the layouts of cobra/pflag, GNU getopt,
// clap, Go's flag package, argparse and git's parse-options: the
// subcommands it lists, its options (with their value types, choices and
// defaults) and the operands of its usage line. words are the program name
// and subcommand words the usage line starts with.
func ParseHelp(text string, words []string) *HelpPage {
	hp := &helpParser{p: &HelpPage{}, words: words, kind: sectionOther, skipIndent: -1}
	for _, line := range strings.Split(cleanText(text), "\n") {
		hp.line(line)
	}
	hp.flushPara()
	for _, f := range hp.p.Flags {
		finishFlag(f)
	}
	hp.p.Positionals = positionals(hp.p.Usage, words, hp.argSection)
	return hp.p
}

// A helpParser is the state of [ParseHelp] between lines.
type helpParser struct {
	p     *HelpPage
	words []string
	// listFollows: a paragraph ended in a colon, so the paragraphs after
	// it belong to a list, not to the description.
	listFollows bool
	kind        sectionKind // of the section the line is in
	// cur is the option whose description may continue on the next
	// line, curCmd the command; curIndent is the indent of its line and
	// descCol the column its description starts in.
	cur                *Flag
	curCmd             *CommandEntry
	curIndent, descCol int
	argSection         []string // names listed under "Arguments:"
	inUsage            bool     // the line may continue the usage line
	para               []string // the paragraph that may describe the command
	// skipIndent is the indent of an example block inside a command
	// list whose deeper lines are skipped; -1 outside one.
	skipIndent int
}

// flushPara ends a paragraph: the first one outside any section is the
// command's description.
func (hp *helpParser) flushPara() {
	// A paragraph ending in a colon introduces what follows (git's
	// "These are common Git commands used in various situations:"): it
	// describes a list, not the program, and what follows is that list.
	switch {
	case hp.p.Description != "" || len(hp.para) == 0 || hp.listFollows:
	case strings.HasSuffix(hp.para[len(hp.para)-1], ":"):
		hp.listFollows = true
	default:
		hp.p.Description = strings.Join(hp.para, " ")
	}
	hp.para = nil
}

// line reads one line of the help.
func (hp *helpParser) line(line string) {
	trimmed := strings.TrimSpace(line)
	if listHintRE().MatchString(line) {
		hp.p.ListsCommands = true
	}
	if trimmed == "" {
		hp.cur, hp.curCmd, hp.inUsage = nil, nil, false
		hp.flushPara()
		return
	}
	if hp.usageLine(line, trimmed) {
		return
	}
	if hp.skipIndent >= 0 {
		if indentOf(line) > hp.skipIndent {
			return
		}
		hp.skipIndent = -1
	}
	if h, ok := isHeading(line); ok {
		hp.flushPara()
		if k := kindOf(h); k == sectionOther && hp.kind == sectionCommands && indentOf(line) > 0 {
			// "  Examples:" inside a command's entry (claude mcp):
			// skip its lines, the list goes on after them.
			hp.skipIndent, hp.cur, hp.curCmd = indentOf(line), nil, nil
			return
		}
		hp.kind, hp.cur, hp.curCmd = kindOf(h), nil, nil
		return
	}
	if hp.continuation(line, trimmed) {
		return
	}
	hp.cur, hp.curCmd = nil, nil
	if hp.optionLine(line) {
		return
	}
	hp.sectionLine(line, trimmed)
}

// usageLine reads a "usage:" line and the lines that continue it.
func (hp *helpParser) usageLine(line, trimmed string) bool {
	p := hp.p
	if m := usageRE().FindStringSubmatch(line); m != nil {
		hp.flushPara()
		hp.cur, hp.curCmd = nil, nil
		if m[1] != "" {
			p.Usage = append(p.Usage, m[1])
		}
		hp.inUsage = true
		hp.kind = sectionOther
		return true
	}
	if hp.inUsage && indentOf(line) > 0 && !optionLineRE().MatchString(line) || hp.inUsage && len(p.Usage) == 0 {
		if len(p.Usage) == 0 || hp.startsUsage(trimmed) {
			// jq's further forms, each on its own line:
			// "Usage:\tjq [options] <jq filter> [file...]\n\tjq [options] --args ..."
			p.Usage = append(p.Usage, trimmed)
		} else {
			p.Usage[len(p.Usage)-1] += " " + trimmed
		}
		return true
	}
	hp.inUsage = false
	return false
}

// startsUsage reports whether a line under a usage line is a usage form
// of its own: it starts with the program's name, as the usage line does.
func (hp *helpParser) startsUsage(trimmed string) bool {
	if len(hp.words) == 0 || len(hp.p.Usage) == 0 {
		return false
	}
	first, _, _ := strings.Cut(trimmed, " ")
	prev, _, _ := strings.Cut(hp.p.Usage[0], " ")
	prog := programName(hp.words[0])
	return programName(first) == prog && programName(prev) == prog
}

// continuation reads the continuation of the previous option's or
// command's description: deeper than the option, and not an option itself
// unless it starts in the description's column (a wrapped "--flag"
// mention).
func (hp *helpParser) continuation(line, trimmed string) bool {
	if hp.cur != nil && indentOf(line) > hp.curIndent && (!optionLineRE().MatchString(line) || hp.descCol > 0 && indentOf(line) >= hp.descCol-1) {
		hp.cur.Description = joinText(hp.cur.Description, trimmed)
		return true
	}
	if hp.curCmd != nil && indentOf(line) > hp.curIndent+2 && hp.kind == sectionCommands {
		hp.curCmd.Description = joinText(hp.curCmd.Description, trimmed)
		return true
	}
	return false
}

// optionLine reads a line that describes an option (or several packed on
// one line).
func (hp *helpParser) optionLine(line string) bool {
	m := optionLineRE().FindStringSubmatch(line)
	if m == nil {
		return false
	}
	global := hp.kind == sectionGlobalFlags
	if fs := packedOptions(m[2]); fs != nil {
		// find's "-amin N -anewer FILE -atime N": one option each.
		for _, f := range fs {
			f.Global = global
		}
		hp.p.Flags = append(hp.p.Flags, fs...)
		return true
	}
	f := parseOptionLine(m[2])
	if f == nil {
		return false
	}
	f.Global = global
	hp.p.Flags = append(hp.p.Flags, f)
	hp.cur, hp.curIndent, hp.descCol = f, len(m[1]), 0
	if f.Description != "" {
		hp.descCol = strings.Index(line, f.Description)
	}
	return true
}

// sectionLine reads a line that is no option by the kind of its section.
func (hp *helpParser) sectionLine(line, trimmed string) {
	p := hp.p
	switch hp.kind {
	case sectionCommands:
		hp.commandLine(line, trimmed)
	case sectionAliases:
		for i, a := range splitAliases(trimmed) {
			if i > 0 || len(hp.words) == 0 || a != hp.words[len(hp.words)-1] {
				p.Aliases = append(p.Aliases, a)
			}
		}
	case sectionArguments:
		if f := strings.Fields(trimmed); len(f) > 0 && indentOf(line) > 0 {
			hp.argSection = append(hp.argSection, f[0])
		}
	case sectionOther:
		if indentOf(line) <= 2 && p.Description == "" && startsWithLetter(trimmed) {
			hp.para = append(hp.para, trimmed)
		}
	}
}

// commandLine reads a line of a commands section: a command and its
// description, a bare command, or npm's paragraph of names.
func (hp *helpParser) commandLine(line, trimmed string) {
	p := hp.p
	if m := commandLineRE().FindStringSubmatch(line); m != nil {
		p.Commands = append(p.Commands, CommandEntry{Name: m[1], Aliases: splitAliases(m[2]), Description: m[3]})
		hp.curCmd, hp.curIndent = &p.Commands[len(p.Commands)-1], indentOf(line)
		return
	}
	if strings.Contains(trimmed, ",") && commandOnlyRE().MatchString(line) && strings.Count(trimmed, ",") >= 2 {
		// npm's "All commands:" paragraph of names.
		for _, n := range strings.Split(trimmed, ",") {
			if n = strings.TrimSpace(n); n != "" {
				p.Commands = append(p.Commands, CommandEntry{Name: n})
			}
		}
		return
	}
	if m := commandOnlyRE().FindStringSubmatch(line); m != nil {
		p.Commands = append(p.Commands, CommandEntry{Name: m[1], Aliases: splitAliases(m[2])})
		hp.curCmd, hp.curIndent = &p.Commands[len(p.Commands)-1], indentOf(line)
	}
}

func joinText(a, b string) string {
	if a == "" {
		return b
	}
	return a + " " + b
}

func splitAliases(s string) []string {
	var out []string
	for _, a := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '|' }) {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}

// parseOptionLine reads "-o, --output string   description" and its
// variants; nil when the line is not an option after all.
func parseOptionLine(s string) *Flag {
	spec, desc := splitSpec(s)
	f := &Flag{Description: desc, Source: "--help"}
	// kubectl's own layout: "--all-namespaces=false:" with the
	// description on the next line.
	spec = strings.TrimSuffix(spec, ":")
	parts := splitForms(spec)
	for _, part := range parts {
		if placeholderFormRE().MatchString(part) {
			continue // "-<number>": the value written as an option
		}
		m := flagNameRE().FindStringSubmatch(part)
		if m == nil {
			if f.Long == "" && f.Short == "" {
				return nil
			}
			// A value placeholder alone ("-n N, --num N" gives "N").
			continue
		}
		dashes, name, rest := m[1], m[3], m[4]
		name = strings.TrimRight(name, ".:") // "--verbose..." repeats
		form := dashes + name
		if dashes == "-" && len(name) == 1 {
			if f.Short == "" {
				f.Short = form
			}
		} else if f.Long == "" || (strings.HasPrefix(f.Long, "-") && !strings.HasPrefix(f.Long, "--") && dashes == "--") {
			f.Long = form
		}
		readValue(f, rest)
	}
	if f.Long == "" && f.Short == "" {
		return nil
	}
	return f
}

// packedOptions reads a line that lists several options without
// descriptions ("-amin N -anewer FILE -atime N"), or returns nil: at least
// two forms, no commas, each a multi-letter name.
func packedOptions(s string) []*Flag {
	spec, desc := splitSpec(s)
	if desc != "" || strings.ContainsAny(spec, ",|") {
		return nil
	}
	forms := splitForms(spec)
	if len(forms) < 2 {
		return nil
	}
	var out []*Flag
	for _, form := range forms {
		m := flagNameRE().FindStringSubmatch(form)
		if m == nil || len(m[3]) < 2 {
			return nil
		}
		f := &Flag{Long: m[1] + m[3], Source: "--help"}
		readValue(f, m[4])
		out = append(out, f)
	}
	return out
}

// splitSpec splits an option line at the gap between the options and the
// description: two spaces or more, outside brackets.
func splitSpec(s string) (spec, desc string) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[', '<', '{', '(':
			depth++
		case ']', '>', '}', ')':
			depth--
		case ' ':
			if depth <= 0 && i+1 < len(s) && s[i+1] == ' ' {
				return s[:i], trimColon(s[i:])
			}
			// python's "-c cmd : program passed in as string".
			if depth <= 0 && strings.HasPrefix(s[i:], " : ") {
				return s[:i], trimColon(s[i:])
			}
		}
	}
	return s, ""
}

// trimColon trims a description and the colon that python's layout puts
// before it ("-b     : issue warnings").
func trimColon(desc string) string {
	desc = strings.TrimSpace(desc)
	if rest, ok := strings.CutPrefix(desc, ": "); ok {
		return strings.TrimSpace(rest)
	}
	return desc
}

// splitForms splits "-o, --output=FILE" or "-n N, --num N" or "-h | --help"
// into its forms: at commas and bars, and at a space before a dash ("-n N
// --num N").
func splitForms(spec string) []string {
	return splitOutsideBrackets(spec, func(i int) bool {
		return spec[i] == ',' || spec[i] == '|' || spec[i] == ' ' && i+1 < len(spec) && spec[i+1] == '-'
	})
}

// splitOutsideBrackets splits s at the bytes outside (), [], <> and {}
// where cut is true, dropping them, trims the parts and leaves out empty
// ones. An unbalanced closing bracket ends s: what follows it cannot be
// read.
func splitOutsideBrackets(s string, cut func(i int) bool) []string {
	var parts []string
	add := func(p string) {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[', '<', '{', '(':
			depth++
		case ']', '>', '}', ')':
			if depth--; depth < 0 {
				return parts
			}
		default:
			if depth == 0 && cut(i) {
				add(s[start:i])
				start = i + 1
			}
		}
	}
	add(s[start:])
	return parts
}

// readValue reads what follows an option's name: "=VALUE", "[=VALUE]",
// " VALUE", " <VALUE>", " {a,b}".
func readValue(f *Flag, rest string) {
	rest = strings.TrimRight(rest, " ")
	if rest == "" {
		return
	}
	switch {
	case strings.HasPrefix(rest, "[="):
		f.Joined = true
		f.Value = strings.TrimSuffix(strings.TrimPrefix(rest, "[="), "]")
	case strings.HasPrefix(rest, "="):
		v := rest[1:]
		if f.Value == "" {
			f.Value = v
		}
		// "-refresh=false" (Go flag and kubectl layouts) shows the
		// default, not a placeholder.
		if looksLikeDefault(v) {
			f.Default, f.Value = trimQuotes(v), defaultPlaceholder(v)
		}
	case strings.HasPrefix(rest, " "), strings.HasPrefix(rest, "<"), strings.HasPrefix(rest, "["):
		if f.Value == "" {
			f.Value = strings.TrimSpace(rest)
		}
	}
}

func looksLikeDefault(v string) bool {
	switch {
	case v == "true" || v == "false" || v == "''" || v == `""` || v == "[]":
		return true
	case strings.HasPrefix(v, "'") || strings.HasPrefix(v, `"`):
		return true
	case v != "" && strings.Trim(v, "0123456789.-") == "":
		return true
	}
	return false
}

// defaultPlaceholder names the type a shown default implies.
func defaultPlaceholder(v string) string {
	switch {
	case v == "true" || v == "false":
		return ""
	case v == "[]":
		return "strings"
	case strings.Trim(v, "0123456789-") == "":
		return "int"
	case strings.Trim(v, "0123456789.-") == "":
		return "float"
	}
	return "string"
}

func trimQuotes(s string) string {
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// positionals reads the operands of the first usage line: required ones
// (<name>, NAME, or a name the "Arguments:" section lists) and optional
// ones in brackets; "..." makes a list. Literal words and option groups
// are skipped.
func positionals(usage []string, words []string, listed []string) []*Positional {
	if len(usage) == 0 {
		return nil
	}
	toks := splitUsage(usage[0])
	// Skip the program and subcommand words the line starts with.
	i := 0
	for i < len(toks) && i < len(words)+1 && !strings.ContainsAny(toks[i], "[<-{(") && !isUpperName(toks[i]) {
		i++
	}
	u := usageOperands{listed: listed, seen: map[string]bool{}}
	for _, tok := range toks[i:] {
		if !u.visit(tok, false) {
			break
		}
	}
	return u.out
}

// usageOperands collects the operands of a usage line, at most three.
type usageOperands struct {
	listed []string
	seen   map[string]bool
	out    []*Positional
	dashes bool // a "--" or "[--]" came before
}

// visit reads one token of a usage line, inside optional brackets when
// inOptional; false once three operands are read.
func (u *usageOperands) visit(tok string, inOptional bool) bool {
	optional, afterDashes := inOptional, u.dashes
	t := tok
	if t == "--" || t == "[--]" {
		u.dashes = true
		return true
	}
	variadic := strings.HasSuffix(t, "...") || strings.HasSuffix(t, "…")
	t = strings.TrimSuffix(strings.TrimSuffix(t, "..."), "…")
	if strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
		optional = true
		t = t[1 : len(t)-1]
		if strings.HasSuffix(t, "...") {
			variadic = true
			t = strings.TrimSuffix(t, "...")
		}
		// git's "[[--] <path>...]": operands after "--".
		if rest, ok := strings.CutPrefix(t, "[--] "); ok {
			t, afterDashes = rest, true
			if strings.HasSuffix(t, "...") {
				variadic = true
				t = strings.TrimSuffix(t, "...")
			}
		}
		// psql's "[DBNAME [USERNAME]]": optional operands nested, each
		// one a word; alternatives and options inside are no operands.
		if inner := splitUsage(t); len(inner) > 1 && !strings.Contains(t, "|") &&
			!slices.ContainsFunc(inner, func(w string) bool { return strings.HasPrefix(strings.TrimLeft(w, "[("), "-") }) {
			for _, w := range inner {
				if !u.visit(w, true) {
					return false
				}
			}
			return true
		}
	}
	t = strings.TrimSpace(t)
	name := ""
	switch {
	case strings.HasPrefix(t, "<") && strings.HasSuffix(t, ">") && !strings.ContainsAny(t[1:len(t)-1], "<>[]|"):
		name = t[1 : len(t)-1] // jq's "<jq filter>" too
	case isUpperName(t):
		name = t
	case slices.Contains(u.listed, t) || slices.Contains(u.listed, "<"+t+">"):
		name = t
	}
	if name == "" || skipOperand(name) {
		return true
	}
	key := argName(name)
	if key == "" || u.seen[key] {
		return true
	}
	u.seen[key] = true
	u.out = append(u.out, &Positional{Name: key, Required: !optional, Variadic: variadic, AfterDashes: afterDashes})
	return len(u.out) < 3
}

func isUpperName(s string) bool {
	if len(s) < 2 {
		return false
	}
	for _, r := range s {
		if !(r >= 'A' && r <= 'Z' || r == '_' || r == '-' || r >= '0' && r <= '9') {
			return false
		}
	}
	return s[0] >= 'A' && s[0] <= 'Z'
}

// skipOperand reports placeholders that stand for options or subcommands
// rather than operands.
func skipOperand(name string) bool {
	switch strings.ToLower(strings.Trim(name, "-_ ")) {
	case "options", "option", "flags", "flag", "command", "commands", "subcommand", "cmd",
		"global options", "global-options", "args", "arguments", "argument", "opts", "-", "":
		return true
	}
	// git's "[<log-options>]", "[<diff-options>]": options of a kind.
	n := strings.ToLower(name)
	return strings.HasSuffix(n, "-options") || strings.HasSuffix(n, " options") || strings.HasSuffix(n, "_options")
}

// splitUsage splits a usage line at spaces outside brackets.
func splitUsage(s string) []string {
	return splitOutsideBrackets(s, func(i int) bool { return s[i] == ' ' })
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	return strings.Join(f[:min(n, len(f))], " ")
}

func startsWithLetter(s string) bool {
	return s != "" && (s[0] >= 'A' && s[0] <= 'Z' || s[0] >= 'a' && s[0] <= 'z')
}

// lazyRE returns a function that compiles expr on its first call and
// returns the same expression afterwards. The package is linked into
// every climax command, run included: compiling its expressions at
// package initialisation cost each start about 1 ms of CPU.
func lazyRE(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
