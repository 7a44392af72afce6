package scaffold

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index/config"
)

// A Verdict is what one flag probe showed.
type Verdict string

// The verdicts of [Verify].
const (
	Accepted      Verdict = "accepted"      // the program took the flag as it takes none
	Rejected      Verdict = "rejected"      // the program refused the flag as unknown
	Uninformative Verdict = "uninformative" // the probe cannot tell (see the reason)
)

// A FlagCheck is the verdict on one arg of a tool.
type FlagCheck struct {
	Arg     string   // the arg's name
	Argv    []string // the probe's arguments after the program
	Verdict Verdict
	Reason  string // for rejected and uninformative: the program's words or why
}

// A ToolCheck is the verdict on one tool: its control and its flags.
type ToolCheck struct {
	Tool string
	// Control says why the tool's flags cannot be checked (the program
	// accepts a bogus flag there too, or its help failed); "" when the
	// control showed that unknown flags are refused.
	Control string
	Flags   []FlagCheck
}

// Count returns how many of the tool's flags got verdict v.
func (t ToolCheck) Count(v Verdict) int {
	n := 0
	for _, f := range t.Flags {
		if f.Verdict == v {
			n++
		}
	}
	return n
}

// bogusFlag is the control's flag: no program has it.
const bogusFlag = "--climax-no-such-flag"

// rejectionRE matches the messages with which argument parsers refuse an
// unknown option (cobra, GNU getopt, clap, Go's flag, argparse, git).
var rejectionRE = lazyRE(`(?i)(unknown (long |shorthand )?(option|flag|switch|argument)|unrecognized (option|argument)|flag provided but not defined|invalid option|illegal option|no such option|unexpected argument|not a valid option|unknown command line (flag|option)|option .{0,40} not recognized|option .{0,40} is unknown|does not take an? |doesn't allow an argument|requires an argument|option requires an argument|needs a value|missing argument|unknown cli config)`)

// Verify probes every flag arg of every tool of tools: the tool's command
// words, the flag (with a sample value of its type) and the help flag, in
// a sandbox, after a control with a bogus flag that shows the program
// refuses unknown flags there. Tools are checked in order; their flags
// concurrently.
func Verify(ctx context.Context, sb *Sandbox, tools []*config.ResolvedTool, workers int) []ToolCheck {
	if workers <= 0 {
		workers = DefaultWorkers
	}
	sem := make(chan struct{}, workers)
	// After maxHangs probes hung, the program is not run again: a program
	// that hangs on --help would otherwise cost a time limit per probe
	// (hundreds of tools of a large drafted config).
	var hangs atomic.Int32
	run := func(args []string) Output {
		sem <- struct{}{}
		defer func() { <-sem }()
		if n := hangs.Load(); n >= maxHangs {
			return Output{Args: args, ExitCode: -1, Err: fmt.Errorf("not run: %d probes of the program hung before", n)}
		}
		out := sb.Run(ctx, args...)
		if out.TimedOut {
			hangs.Add(1)
		}
		return out
	}
	help := helpFlagFor(programName(sb.Program))
	if programName(sb.Program) == "git" {
		sb.prepareGit()
	}
	var rootHelp string
	if len(tools) > 0 {
		if base, err := executor.Build(&config.ResolvedTool{Tool: &config.Tool{}, CLI: tools[0].CLI}, nil); err == nil {
			if out := run(append(base.Argv[1:], help)); out.Problem() == "" {
				rootHelp = out.Text()
			}
		}
	}
	checks := make([]ToolCheck, len(tools))
	var wg sync.WaitGroup
	var rootLike, answered atomic.Int32
	toolSem := make(chan struct{}, workers) // tools under way, so the counts above are read as they grow
	for i, rt := range tools {
		wg.Go(func() {
			toolSem <- struct{}{}
			defer func() { <-toolSem }()
			if n := rootLike.Load(); n >= maxRootLike && answered.Load() == 0 {
				checks[i] = ToolCheck{Tool: rt.Tool.Name, Control: fmt.Sprintf("not run: the program answered %s after each of %d commands with its own help (it takes no %s there)", help, n, help)}
				return
			}
			checks[i] = verifyTool(rt, help, rootHelp, run)
			if strings.Contains(checks[i].Control, ownHelpProblem) {
				rootLike.Add(1)
			} else {
				answered.Add(1)
			}
		})
	}
	wg.Wait()
	return checks
}

// ownHelpProblem is the control's problem when a command's help is the
// program's own.
const ownHelpProblem = "answers with the program's own help"

// maxRootLike is how many commands may answer their help with the
// program's own before the rest are not run: a program that takes no help
// flag after its commands (aws, whose commands take a "help" word) would
// otherwise cost two probes for each of hundreds of tools, for nothing.
const maxRootLike = 8

// helpFlagFor is the help flag the probes add: git's commands answer -h
// (git CMD --help opens the manual).
func helpFlagFor(prog string) string {
	if prog == "git" {
		return "-h"
	}
	return "--help"
}

func verifyTool(rt *config.ResolvedTool, help, rootHelp string, run func([]string) Output) ToolCheck {
	tc := ToolCheck{Tool: rt.Tool.Name}
	base, err := executor.Build(rt, map[string]any{})
	if err != nil {
		tc.Control = err.Error()
		return tc
	}
	words := base.Argv[1:]
	baseline, control, probe := controlTool(rt, programName(base.Argv[0]), words, help, rootHelp, run)
	tc.Control = control
	if !probe {
		return tc
	}
	probes := flagProbes(rt, words, help)
	if tc.Control != "" {
		for _, p := range probes {
			p.check.Verdict, p.check.Reason = Uninformative, "the control was not refused"
			tc.Flags = append(tc.Flags, p.check)
		}
		return tc
	}
	// Every flag at once first: when the program takes them together,
	// each is accepted and one probe did the work of many.
	if len(probes) > 1 {
		all := slices.Clone(words)
		for _, p := range probes {
			all = append(all, p.words...)
		}
		all = append(all, help)
		if v, _ := judge(run(all), baseline); v == Accepted {
			for _, p := range probes {
				p.check.Verdict = Accepted
				tc.Flags = append(tc.Flags, p.check)
			}
			return tc
		}
	}
	// In a call the operands come before the flags; a program that stops
	// reading its own options at the first operand (docker exec) reads
	// the flags that follow as another program's.
	operandFirst := slices.ContainsFunc(rt.Tool.Args, func(a config.Arg) bool { return a.Positional && a.Required && !a.AfterDoubleDash })
	tc.Flags = judgeEach(rt, probes, baseline, operandFirst, run)
	return tc
}

// controlTool runs a tool's plain help (the baseline) and the control with
// the bogus flag. control says why the tool's flags cannot be judged, ""
// when the program refused the bogus flag; probe is false when the flags
// are not even worth probing (the help failed, or the program does not
// know the command).
func controlTool(rt *config.ResolvedTool, prog string, words []string, help, rootHelp string, run func([]string) Output) (baseline Output, control string, probe bool) {
	baseline = run(append(slices.Clone(words), help))
	if p := baseline.Problem(); p != "" {
		return baseline, p, false
	}
	if rt.Tool.Command != "" && rootHelp != "" && baseline.Text() == rootHelp {
		return baseline, fmt.Sprintf("%s %s %s: the program does not know the command %q (a plugin missing?)", prog, help, ownHelpProblem, rt.Tool.Command), false
	}
	out := run(append(append(slices.Clone(words), bogusFlag), help))
	if p := out.Problem(); p != "" {
		return baseline, p, false
	}
	if !refused(out, baseline) {
		return baseline, fmt.Sprintf("the program accepts the bogus flag %s here (exit %d, as with %s alone): its flags cannot be checked", bogusFlag, out.ExitCode, help), true
	}
	return baseline, "", true
}

// A flagProbe is the probe of one flag arg.
type flagProbe struct {
	check FlagCheck
	words []string // the flag and its value
}

// flagProbes are the probes of a tool's flag args, each with a sample
// value. Operands, values after a "--" flag and options after the "--"
// (another program's) are not probed: with them the program would do its
// work instead of printing its help.
func flagProbes(rt *config.ResolvedTool, words []string, help string) []flagProbe {
	var probes []flagProbe
	for i := range rt.Tool.Args {
		a := &rt.Tool.Args[i]
		if a.Positional || a.Stdin || a.Cwd || a.AfterDoubleDash || !isOption(flagOf(a)) {
			continue
		}
		cmd, err := executor.Build(rt, map[string]any{a.Name: sampleValue(a)})
		if err != nil {
			continue
		}
		args := append(slices.Clone(cmd.Argv[1:]), help)
		probes = append(probes, flagProbe{FlagCheck{Arg: a.Name, Argv: args}, flagWords(cmd.Argv[1:], words)})
	}
	return probes
}

// judgeEach runs each probe alone and judges it against the plain help;
// the checks come back in the order of the tool's args.
func judgeEach(rt *config.ResolvedTool, probes []flagProbe, baseline Output, operandFirst bool, run func([]string) Output) []FlagCheck {
	var checks []FlagCheck
	var wg sync.WaitGroup
	var mu sync.Mutex
	for _, p := range probes {
		wg.Go(func() {
			fc := p.check
			fc.Verdict, fc.Reason = judge(run(fc.Argv), baseline)
			if fc.Verdict == Rejected && operandFirst {
				fc.Verdict = Uninformative
				fc.Reason = "refused without the operands that come before it in a real call (" + fc.Reason + "): check by hand"
			}
			mu.Lock()
			checks = append(checks, fc)
			mu.Unlock()
		})
	}
	wg.Wait()
	order := map[string]int{}
	for i, a := range rt.Tool.Args {
		order[a.Name] = i
	}
	slices.SortFunc(checks, func(a, b FlagCheck) int { return order[a.Arg] - order[b.Arg] })
	return checks
}

// flagWords are the words a probe's command line has beyond the tool's
// plain one: the flag and its value (and any default-valued args, which
// both have).
func flagWords(argv, plain []string) []string {
	i := 0
	for i < len(argv) && i < len(plain) && argv[i] == plain[i] {
		i++
	}
	return argv[i:]
}

// refused reports whether a probe's answer differs from the plain help's
// in the way a refused option does: a refusal message, or another exit
// status.
func refused(out, baseline Output) bool {
	return rejectionRE().MatchString(out.Text()) && !rejectionRE().MatchString(baseline.Text()) || out.ExitCode != baseline.ExitCode
}

// judge gives the verdict on one flag probe against the plain help.
func judge(out, baseline Output) (Verdict, string) {
	if p := out.Problem(); p != "" {
		return Uninformative, p
	}
	if m := rejectionRE().FindString(out.Text()); m != "" && !rejectionRE().MatchString(baseline.Text()) {
		return Rejected, firstLineWith(out.Text(), m)
	}
	if out.ExitCode != baseline.ExitCode {
		return Uninformative, fmt.Sprintf("exit %d instead of %d, without a refusal message: %s", out.ExitCode, baseline.ExitCode, firstLine(out.Text()))
	}
	return Accepted, ""
}

func firstLineWith(text, m string) string {
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, m) {
			return truncate(strings.TrimSpace(line), 160)
		}
	}
	return m
}

func firstLine(text string) string {
	for _, line := range strings.Split(text, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			return truncate(line, 160)
		}
	}
	return "(no output)"
}

// sampleValue is a value of the arg's type for a probe: its default, else
// its first enum value, else a plain one.
func sampleValue(a *config.Arg) any {
	if a.Default != nil {
		return a.Default
	}
	item := func(t config.ArgType) any {
		if len(a.Enum) > 0 {
			return a.Enum[0]
		}
		switch t {
		case config.TypeInteger, config.TypeNumber:
			return 1
		case config.TypeBoolean:
			return true
		}
		return "x"
	}
	if a.Type == config.TypeArray {
		return []any{item(a.ItemType())}
	}
	return item(a.Type)
}

// flagOf is the option an arg puts on the command line: its flag, or
// --NAME (docs/config.md, Arg fields).
func flagOf(a *config.Arg) string {
	if a.Flag != "" {
		return a.Flag
	}
	return "--" + strings.ReplaceAll(a.Name, "_", "-")
}

// isOption reports whether a flag is an option ("-x", "--name", "--name=")
// rather than "--" or "-".
func isOption(flag string) bool {
	f := strings.TrimSuffix(flag, "=")
	return len(f) >= 2 && f[0] == '-' && f != "--"
}
