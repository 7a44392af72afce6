package scaffold

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/climax-mcp/climax/index/config"
)

// secondHand reports whether an option was not listed by the command's
// own help: it comes from a Fig spec, which describes its own version of
// the program, or from a manual page ("help bisect"), which may describe
// the options of the command's subcommands too, or from the manual page
// of a command whose help listed few options ("git help log").
func secondHand(f *Flag) bool {
	return f.Source == figSource || strings.HasPrefix(f.Source, "help ") || manualFlag(f)
}

// dropRefusedFlags checks the options that the command's own help did not
// list against the installed program, as --verify would, and removes from
// the tree those the program refuses, so that a draft passes its own
// --verify (git bisect's manual describes --no-checkout, an option of
// "git bisect start"). Only the tools that hold such options, and whose
// command the program answered itself, are probed, at most
// maxDraftChecks of them, the most central first: a command that only the spec knows (aws's
// thousands) is left to --verify, as the draft's note on the spec says.
// It returns notes naming what it left out: the options of manual pages
// read beside a short help (addManualFlags) apart from the others.
func dropRefusedFlags(ctx context.Context, sb *Sandbox, root *Command, o DraftOptions) []string {
	yaml, _, tools := draft(root, o)
	nodes := map[string]*Command{}
	for _, t := range centralFirst(root, tools) {
		if t.node.Source != figSource && slices.ContainsFunc(t.node.Flags, secondHand) && len(nodes) < maxDraftChecks {
			nodes[t.name] = t.node
		}
	}
	if len(nodes) == 0 {
		return nil
	}
	cfg, err := config.Parse(yaml, "draft.yaml")
	if err != nil {
		return nil // the caller's validation reports it
	}
	var check []*config.ResolvedTool
	for i := range cfg.Tools {
		t := &cfg.Tools[i]
		if node := nodes[t.Name]; node != nil {
			// Only the second-hand options are probed: those the help
			// listed are the program's word, kept whatever a probe says.
			t.Args = slices.DeleteFunc(t.Args, func(a config.Arg) bool {
				return !a.Positional && !slices.ContainsFunc(node.Flags, func(f *Flag) bool { return secondHand(f) && f.Name() == argFlag(&a) })
			})
			check = append(check, &config.ResolvedTool{Tool: t, CLI: cfg})
		}
	}
	var left, leftManual []string
	for i, c := range Verify(ctx, sb, check, 0) {
		node := nodes[c.Tool]
		for _, fc := range c.Flags {
			if fc.Verdict != Rejected {
				continue
			}
			k := slices.IndexFunc(check[i].Tool.Args, func(a config.Arg) bool { return a.Name == fc.Arg })
			flag := argFlag(&check[i].Tool.Args[k])
			j := slices.IndexFunc(node.Flags, func(f *Flag) bool { return f.Name() == flag })
			if j < 0 {
				continue
			}
			name := strings.Join(append(slices.Clone(node.Path), flag), " ")
			if manualFlag(node.Flags[j]) {
				leftManual = append(leftManual, name)
			} else {
				left = append(left, name)
			}
			node.Flags = slices.DeleteFunc(node.Flags, func(f *Flag) bool { return f.Name() == flag })
		}
	}
	var notes []string
	prog := programName(o.Name)
	if len(left) > 0 {
		notes = append(notes, fmt.Sprintf("the installed %s refused %d %s that its commands' help did not list, left out: %s",
			prog, len(left), plural(len(left), "option", "options"), strings.Join(left, ", ")))
	}
	if len(leftManual) > 0 {
		notes = append(notes, fmt.Sprintf("the installed %s refused %d %s that the manual pages of commands with a short help list, left out: %s",
			prog, len(leftManual), plural(len(leftManual), "option", "options"), strings.Join(leftManual, ", ")))
	}
	return notes
}

// centralFirst orders a draft's tools for the checks before writing, the
// most central first (as --max-tools keeps them), so that the bound of
// maxDraftChecks leaves out minor commands rather than the last listed.
func centralFirst(root *Command, tools []draftTool) []draftTool {
	nodes := make([]*Command, len(tools))
	at := map[*Command]draftTool{}
	for i, t := range tools {
		nodes[i], at[t.node] = t.node, t
	}
	out := make([]draftTool, 0, len(tools))
	for _, n := range byWeight(root, nodes) {
		out = append(out, at[n])
	}
	return out
}

// maxDraftChecks bounds the tools a draft probes before it is written;
// each costs a few probes, and one whose flags are refused together one
// probe per flag.
const maxDraftChecks = 24

// argFlag is the option an arg puts on the command line, without a
// joining "=".
func argFlag(a *config.Arg) string {
	return strings.TrimSuffix(flagOf(a), "=")
}
