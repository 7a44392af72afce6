// Command climax turns command-line programs into MCP (Model Context
// Protocol) tools described by YAML configs.
//
// Usage:
//
//	climax [run] [flags] CONFIG...       serve the configs' tools over MCP (stdio, or HTTP with --transport)
//	climax validate [flags] CONFIG...    check configs and a policy
//	climax list [flags] [CONFIG...]      list bundled configs, or the tools of configs
//	climax search [flags] QUERY [CONFIG...]  search tools as climax_search does
//	climax skill [--path | --install]    print or install the config-writing guide
//	climax test-dialog [--via WAY]       check that approval questions can be shown here
//	climax scaffold [flags] PROGRAM [SUBCOMMAND...]  draft a config from an installed program
//	climax scaffold --verify CONFIG      check a config's flags against the installed program
//
// A CONFIG is a path (it contains "/" or ends in .yaml/.yml) or the name of
// a bundled config ("git"). Exit codes: 0 success, 1 error (invalid config,
// validation failed, server failed), 2 usage error (bad flags, unknown
// config name).
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/alecthomas/kong"
	"github.com/climax-mcp/climax/executor"
)

// version is set by the build: go build -ldflags "-X main.version=v1.2.3".
// When empty, the module version from the build info is used, or "dev".
var version string

// Exit codes of the climax command.
const (
	exitOK    = 0 // success
	exitError = 1 // invalid config, validation failed, server failed
	exitUsage = 2 // bad flags or arguments, unknown config name, missing config or policy file
)

// subreaperErr says why climax could not become a child subreaper, if it
// could not (climax run logs it); nil where the system has no subreapers.
var subreaperErr error

func main() {
	// Descendants of a command that leave its process group stay within
	// reach of the command's call (Linux only).
	if err := executor.EnableSubreaper(); !errors.Is(err, errors.ErrUnsupported) {
		subreaperErr = err
	}
	code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	// Nothing a call started outlives climax: not a command still running
	// after the shutdown timeout, nor an orphan no call took (Linux only).
	executor.KillDescendants()
	os.Exit(code)
}

// cli is the command line: one struct per subcommand.
type cli struct {
	Version kong.VersionFlag `help:"Print the version and exit."`

	Run      runCmd      `cmd:"" default:"withargs" help:"Serve the tools of CONFIG... over MCP on stdin/stdout, or over HTTP with --transport http (the default command: 'climax git' is 'climax run git')."`
	Validate validateCmd `cmd:"" help:"Check configs (and a policy): every problem with file and line, missing binaries, duplicate tool names."`
	List     listCmd     `cmd:"" help:"List the bundled configs, or the tools of CONFIG... with the policy applied."`
	Search   searchCmd   `cmd:"" help:"Search the tools of CONFIG... (every bundled config when none is given) as climax_search does; --explain shows why each ranks where it does."`
	Skill    skillCmd    `cmd:"" help:"Print the config-writing guide for coding agents, or install it as a Claude Code command."`

	TestDialog testDialogCmd `cmd:"" name:"test-dialog" help:"Ask a sample approval question the way climax run asks when the MCP client cannot (--confirm-via: a native dialog or the terminal), to check that this machine shows it."`
	Scaffold   scaffoldCmd   `cmd:"" help:"Draft a config from an installed program's help (run only with --help and completion requests, in a sandbox), or check a config against the program with --verify."`
}

const description = `CLImax turns command-line programs into MCP tools described by YAML configs.

A CONFIG is a path to a YAML file (it contains "/" or ends in .yaml or .yml)
or the name of a bundled config, e.g. "git". 'climax list' shows the bundled
configs.

Exit codes:
  0  success
  1  error: invalid config or policy, validation failed, server failed
  2  usage error: bad flags or arguments, unknown config name, missing config
     or policy file (validate counts a missing file as a failed validation: 1)`

// env is what a command runs with: the standard streams of run.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// exitPanic carries an exit code requested by kong (after --help or
// --version) up to run, so that nothing below run exits the process.
type exitPanic struct{ code int }

// usageError marks an error that is the caller's mistake: exit code 2.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// exitCodeError lets a command choose its exit code after it has printed
// its own report (validate prints problems itself, then exits 1).
type exitCodeError struct{ code int }

func (e *exitCodeError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// runOnly is the command line of the run command alone. A server's start
// parses its command line with it: kong builds its model of a command line
// by reflection over every command's flags at each start, and for run
// alone that takes less than half the time (see [runOnlyApplies]).
type runOnly struct {
	Version kong.VersionFlag `help:"Print the version and exit."`
	Run     runCmd           `cmd:"" default:"withargs"`
}

// runOnlyApplies reports whether args can be parsed with [runOnly]: they
// name no other command and ask for no help or version. Whatever else
// runOnly does not parse goes to the whole command line, which reports
// the error.
func runOnlyApplies(args []string) bool {
	if len(args) == 0 {
		return false
	}
	for _, a := range args {
		switch {
		case a == "-h", a == "--help", a == "--version", a == "help":
			return false
		case a != "run" && slices.Contains(subcommands, a):
			return false
		}
	}
	return true
}

// newParser returns the parser of the command line into model (a *cli or
// a *runOnly). After --help or --version it panics with exitPanic; e is
// bound for the commands' Run methods.
func newParser(model any, e *env) (*kong.Kong, error) {
	return kong.New(model,
		kong.Name("climax"),
		kong.Description(description),
		kong.Writers(e.stdout, e.stderr),
		kong.Exit(func(code int) { panic(exitPanic{code}) }),
		kong.Vars{"version": versionString(), "autoBudget": strconv.Itoa(defaultAutoBudget), "read_only_help": readOnlyHelp},
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
		kong.ValueFormatter(helpWithDefault),
		// "--limit -1" reaches the flag's own check ("must not be
		// negative") instead of failing as an unknown short flag -1.
		kong.WithHyphenPrefixedParameters(true),
		kong.Bind(e),
	)
}

// helpWithDefault is kong's help text of a flag with its default value
// added, "(default: 30m)", when the default says something: not for
// an empty, 0 or false default, and not when the help already speaks of
// the default.
func helpWithDefault(value *kong.Value) string {
	help := kong.DefaultHelpValueFormatter(value)
	switch d := value.Default; {
	case d == "" || d == "0" || d == "false" || value.IsBool() || strings.Contains(value.OrigHelp, "default"):
		return help
	case strings.HasSuffix(help, "."):
		return help[:len(help)-1] + " (default: " + d + ")."
	default:
		return help + " (default: " + d + ")"
	}
}

// run is the whole command, testable: it parses args, runs the chosen
// subcommand and returns the process exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	defer func() {
		if r := recover(); r != nil {
			ep, ok := r.(exitPanic)
			if !ok {
				panic(r)
			}
			code = ep.code
		}
	}()
	// Errors may quote what was typed or read (paths, names): they reach
	// the terminal escaped.
	errOut := controlEscaper{stderr}
	kctx, err := parse(args, e)
	var be *buildError
	if errors.As(err, &be) {
		fmt.Fprintf(stderr, "climax: %v\n", err)
		return exitError
	}
	if err != nil {
		err = withQueryUsage(err)
		fmt.Fprintf(errOut, "climax: %v\n", err)
		var pe *kong.ParseError
		if errors.As(err, &pe) && pe.Context != nil && pe.Context.Selected() != nil {
			fmt.Fprintf(stderr, "Run 'climax %s --help' for usage.\n", pe.Context.Selected().Name)
		} else {
			fmt.Fprintln(stderr, "Run 'climax --help' for usage.")
		}
		return exitUsage
	}
	err = kctx.Run()
	var ue *usageError
	var ce *exitCodeError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ce):
		return ce.code
	case errors.As(err, &ue):
		fmt.Fprintf(errOut, "climax: %v\n", err)
		return exitUsage
	default:
		fmt.Fprintf(errOut, "climax: %v\n", err)
		return exitError
	}
}

// parse parses args: with [runOnly] when it applies and they parse, else
// with the whole command line, whose errors name what is wrong.
func parse(args []string, e *env) (*kong.Context, error) {
	if runOnlyApplies(args) {
		if parser, err := newParser(&runOnly{}, e); err == nil {
			if kctx, err := parser.Parse(args); err == nil {
				return kctx, nil
			}
		}
	}
	parser, err := newParser(&cli{}, e)
	if err != nil {
		return nil, &buildError{err}
	}
	return parser.Parse(args)
}

// buildError is a failure to build the command-line parser: a bug, not a
// usage error.
type buildError struct{ err error }

func (e *buildError) Error() string { return e.err.Error() }
func (e *buildError) Unwrap() error { return e.err }

// versionString is the version --version prints and the server reports.
func versionString() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}
