package scaffold

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// fewOptions is how many options a command's own help must list for its
// manual not to be read: a help that lists fewer than a draft keeps by
// default is a digest (git log -h lists a dozen of the hundred options
// its manual describes).
const fewOptions = DefaultMaxFlags

// optionNameRE matches an option name as a manual's option lines give it
// once parsed; a name with other characters ("--indexed-objects." at the
// end of a sentence) is prose, not an option.
var optionNameRE = lazyRE(`^--?[A-Za-z0-9][A-Za-z0-9-]*$`)

// manualSource is the Source of the options a command's manual adds to
// those its help listed: "git help log".
func manualSource(prog string, path []string) string {
	return strings.Join(append([]string{prog, "help"}, path...), " ")
}

// manualFlag reports whether an option was added from a manual page
// beside the options the command's help listed.
func manualFlag(f *Flag) bool {
	return strings.Contains(f.Source, " help ")
}

// helpCommandRE matches a help text's pointer to the program's help
// command for any of its commands: "See 'git help <command>'", "Use "go
// help <command>" for more information", "cargo help <command>".
func helpCommandRE(prog string) *regexp.Regexp {
	return regexp.MustCompile(`(?i)(^|[\s'"` + "`" + `])` + regexp.QuoteMeta(prog) + `\s+help\s+[<\[]?(sub)?(command|cmd)[>\]]?`)
}

// addManualFlags adds to the program's commands whose help listed fewer
// than fewOptions options the options of their manual page, "PROG help
// CMD", when the program's help points to such a help command for its
// commands. A command's help that names its own page (npm's "Run "npm
// help install" for more info") is not enough: reading a page costs a
// run of the program and of man, and npm's each take a second for the
// few options its help leaves out. Those options are not
// the program's word for this version of it: dropRefusedFlags probes them
// next, so only as many tools read their manual as it checks (with the
// tools that already hold options from elsewhere, the most central
// first).
func addManualFlags(ctx context.Context, sb *Sandbox, root *Command, o DraftOptions) {
	prog := programName(o.Name)
	anyCommand := len(root.Path) == 0 && helpCommandRE(prog).MatchString(root.helpText)
	nodes, _ := selectTools(root, o.maxTools())
	var read []*Command
	checked := 0
	for _, n := range byWeight(root, nodes) {
		if checked >= maxDraftChecks {
			break
		}
		if n.Source == figSource {
			continue
		}
		if slices.ContainsFunc(n.Flags, secondHand) {
			checked++
			continue
		}
		// "PROG help <command>" is for the program's commands; a deeper
		// one's page is its parent's (git help bisect reset is bisect's).
		if anyCommand && len(n.Path) == 1 && len(n.Flags) < fewOptions {
			read = append(read, n)
			checked++
		}
	}
	sem := make(chan struct{}, DefaultWorkers)
	var wg sync.WaitGroup
	for _, n := range read {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			out := sb.Run(ctx, append([]string{"help"}, n.Path...)...)
			if out.Problem() != "" || out.ExitCode != 0 {
				return
			}
			mergeManual(n, ParseHelp(out.Text(), append([]string{prog}, n.Path...)), manualSource(prog, n.Path))
		})
	}
	wg.Wait()
}

// mergeManual adds the options of a manual page that the command's help
// did not list, each once, marked with source.
func mergeManual(n *Command, page *HelpPage, source string) {
	has := func(name string) bool {
		return name != "" && slices.ContainsFunc(n.Flags, func(f *Flag) bool { return f.Long == name || f.Short == name })
	}
	for _, f := range page.Flags {
		if !optionNameRE().MatchString(f.Name()) || has(f.Long) || has(f.Short) || isHelpFlag(f) {
			continue
		}
		f.Source = source
		n.Flags = append(n.Flags, f)
	}
}
