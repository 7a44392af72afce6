package scaffold

import (
	"fmt"
	"slices"
	"strings"

	"github.com/climax-mcp/climax/climax/internal/scaffold/fig"
)

// The Fig autocomplete specs (package fig) are the one source of a draft
// that is data rather than the installed program: descriptions,
// subcommands, options with their choices, and operands, written for some
// version of the program. The installed program's answers win: the spec
// only fills in what discovery left empty (docs/scaffold.md, "The Fig
// specs").

// figSource is the Source of what came from a Fig spec, as the draft's
// comments name it.
const figSource = "fig"

// thinChildren: a command whose help listed fewer subcommands than this
// gets the spec's other subcommands too (a help that names only a few
// everyday commands).
const thinChildren = 3

// A figPrefixError says that the spec does not know the subcommand words
// asked for.
type figPrefixError string

func (e figPrefixError) Error() string { return string(e) }

// lookupFig finds a program's Fig spec; tests replace it.
var lookupFig = fig.Lookup

// A figMerge counts what a spec added to a tree.
type figMerge struct {
	depth              int
	commands, flags, n int
}

// addFig merges the Fig spec of program into the tree under root, the
// command of prefix, down to depth levels below it. It returns a note for
// the draft's header, "" when there is no spec or it added nothing. A
// command discovery found nothing about (no options, no subcommands: its
// help failed, or --no-exec) takes everything from the spec; one the
// program described takes only descriptions and aliases where it gave
// none, and the spec's subcommands when it listed fewer than
// thinChildren. Options the program describes are never replaced.
func addFig(root *Command, program string, prefix []string, depth int) (string, error) {
	if depth <= 0 {
		depth = DefaultDepth
	}
	prog := programName(program)
	spec, ok, err := lookupFig(prog)
	if err != nil || !ok {
		return "", err
	}
	node := spec.Find(prefix...)
	if node == nil {
		return "", figPrefixError(fmt.Sprintf("the Fig spec of %s has no subcommand %q", prog, strings.Join(prefix, " ")))
	}
	m := &figMerge{depth: depth}
	m.merge(root, node, 0, nil)
	if m.commands+m.flags+m.n == 0 {
		return "", nil
	}
	return fmt.Sprintf("%d %s, %d %s and %d %s marked \"from fig\" come from the Fig autocomplete spec of %s (%s, MIT licence), not from the installed program: check them with --verify",
		m.commands, plural(m.commands, "command", "commands"), m.flags, plural(m.flags, "flag", "flags"),
		m.n, plural(m.n, "operand", "operands"), prog, fig.Package()), nil
}

// merge adds spec's facts to node, which is level levels below the root.
// inherited are the flags of the commands above it: a spec that repeats
// a program-wide option at every subcommand (terraform's -chdir, which
// only goes before the subcommand) adds it to none of them.
func (m *figMerge) merge(node *Command, spec *fig.Command, level int, inherited []*Flag) {
	thin := len(node.Flags) == 0 && len(node.Children) == 0
	if node.Description == "" && spec.Description != "" {
		node.Description = spec.Description
	}
	if len(node.Path) > 0 {
		own := node.Path[len(node.Path)-1]
		for _, a := range spec.Names {
			if a != own && !slices.Contains(node.Aliases, a) {
				node.Aliases = append(node.Aliases, a)
			}
		}
	}
	for _, o := range spec.Options {
		f := figFlag(o)
		if f == nil {
			continue
		}
		if i := slices.IndexFunc(node.Flags, func(g *Flag) bool { return sameFlag(f, g) }); i >= 0 {
			if g := node.Flags[i]; g.Description == "" {
				g.Description = f.Description
			}
			continue
		}
		if thin && !slices.ContainsFunc(inherited, func(g *Flag) bool { return sameFlag(f, g) }) {
			node.Flags = append(node.Flags, f)
			m.flags++
		}
	}
	if thin && len(node.Positionals) == 0 {
		for _, a := range spec.Args {
			name := argName(a.Name)
			if name == "" {
				name = "arg"
			}
			node.Positionals = append(node.Positionals, &Positional{Name: name, Required: !a.Optional, Variadic: a.Variadic})
			m.n++
		}
	}
	if level >= m.depth {
		return
	}
	// A help that lists no subcommand but options is a program without
	// subcommands (sed's spec has its script commands as subcommands).
	addNew := thin || len(node.Children) > 0 && len(node.Children) < thinChildren
	inherited = append(slices.Clip(inherited), node.Flags...)
	for _, s := range spec.Subcommands {
		i := slices.IndexFunc(node.Children, func(c *Command) bool {
			w := c.Path[len(c.Path)-1]
			return slices.Contains(s.Names, w) || slices.Contains(c.Aliases, s.Name())
		})
		if i >= 0 {
			m.merge(node.Children[i], s, level+1, inherited)
			continue
		}
		// One-letter names are modes or script commands (tar's c and x,
		// sed's s), which a config does not run as subcommands.
		if !addNew || skipCommand(s.Name()) || len(s.Name()) < 2 || strings.ContainsAny(s.Name(), " \t") {
			continue
		}
		child := &Command{Path: append(slices.Clone(node.Path), s.Name()), Source: figSource}
		node.Children = append(node.Children, child)
		m.commands++
		m.merge(child, s, level+1, inherited)
	}
}

// figFlag is a spec's option as a flag of the draft; nil for one the
// config cannot express (no dashed name, several values).
func figFlag(o *fig.Option) *Flag {
	if len(o.Args) > 1 {
		return nil
	}
	f := &Flag{Source: figSource, Description: tidyDescription(o.Description)}
	for _, n := range o.Names {
		switch {
		case len(n) == 2 && n[0] == '-' && n[1] != '-':
			if f.Short == "" {
				f.Short = n
			}
		case len(n) > 2 && n[0] == '-' && !strings.ContainsAny(n, " =\t"):
			if f.Long == "" {
				f.Long = n
			}
		}
	}
	if f.Long == "" && f.Short == "" {
		return nil
	}
	if len(o.Args) == 0 {
		f.Type = TypeBoolean
		return f
	}
	a := o.Args[0]
	placeholder := strings.ToLower(strings.TrimSpace(a.Name))
	f.Value = "<" + placeholder + ">"
	if placeholder == "" {
		f.Value = "<value>"
	}
	f.Type, f.Items = typeOf(placeholder, a.Variadic || o.Repeatable)
	if f.Type == TypeBoolean {
		f.Type = TypeString // a value named "bool" is still a value
	}
	// An optional value must be joined to its option (--color=always).
	f.Joined = o.Joined || a.Optional
	if f.Type == TypeString && !a.Open && len(a.Suggestions) >= 2 &&
		!slices.ContainsFunc(a.Suggestions, func(s string) bool { return !enumWordRE().MatchString(s) }) {
		f.Enum = slices.Clone(a.Suggestions)
	}
	return f
}

// sameFlag reports whether two flags share a form.
func sameFlag(a, b *Flag) bool {
	return a.Long != "" && a.Long == b.Long || a.Short != "" && a.Short == b.Short
}

// plural returns one when n is 1, else many: "1 item", "2 items".
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
