package executor

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/climax-mcp/climax/index/config"
)

// Command is a command ready to run: what [Runner.Run] executes.
type Command struct {
	// Argv is the program and its arguments; no shell is involved.
	Argv []string
	// Dir is the working directory; empty means inherited.
	Dir string
	// Env holds KEY=VALUE entries added to the inherited environment
	// (they win over inherited ones).
	Env []string
	// Stdin is written to the command's standard input, which is then
	// closed. Empty means empty input (never the server's own stdin).
	Stdin string
	// Timeout is the time limit; <= 0 means [config.DefaultTimeout].
	Timeout time.Duration
	// MaxOutput is the per-stream output limit in bytes; <= 0 means
	// [config.DefaultMaxOutput]. A Runner's [WithMaxOutput] overrides it.
	MaxOutput int
	// SuccessExitCodes are the exit codes [Result.Failed] does not count
	// as failures; nil means just 0.
	SuccessExitCodes []int

	secret    []secretWord   // the words of Argv that hold values of secret args
	dirSecret bool           // Dir is the value of a secret cwd arg
	values    map[string]any // the tool's args' values (given or default), by name
}

// Value returns the value the tool's arg name has in this command (the
// caller's, else its default), as validated; false when it has none.
func (c *Command) Value(name string) (any, bool) {
	v, ok := c.values[name]
	return v, ok
}

// redacted stands for the value of an argument marked secret in what
// climax shows: command lines, problem messages.
const redacted = "***"

// A secretWord is a word of a command line that holds the value of an
// argument marked secret: Argv[i][keep:] is the value (keep is the length
// of a flag joined with it).
type secretWord struct{ i, keep int }

// RedactedDir returns Dir as climax shows it: "***" when it is the value
// of an argument marked secret.
func (c *Command) RedactedDir() string {
	if c.dirSecret {
		return redacted
	}
	return c.Dir
}

// Redacted returns Argv with the values of arguments marked secret
// replaced by "***" — exactly the words those values became, so that what
// is shown (logs, the audit log, an approval question) hides nothing else.
func (c *Command) Redacted() []string {
	if len(c.secret) == 0 {
		return c.Argv
	}
	out := slices.Clone(c.Argv)
	for _, w := range c.secret {
		out[w.i] = out[w.i][:w.keep] + redacted
	}
	return out
}

// secretWords returns the words of words[from:] that hold a's value, for a
// secret arg a that was just rendered there, as indexes shifted by
// offset.
func secretWords(a *config.Arg, words []string, from, offset int) []secretWord {
	if !a.Secret {
		return nil
	}
	var out []secretWord
	switch flag := flagOf(a); {
	case a.Positional || a.AfterDoubleDash:
		for i := from; i < len(words); i++ {
			out = append(out, secretWord{offset + i, 0})
		}
	case strings.HasSuffix(flag, "="):
		for i := from; i < len(words); i++ {
			out = append(out, secretWord{offset + i, len(flag)})
		}
	case a.Type != config.TypeBoolean:
		for i := from + 1; i < len(words); i += 2 { // flag, value, flag, value...
			out = append(out, secretWord{offset + i, 0})
		}
	}
	return out
}

// Build turns validated values (as [Validate] returns them) into the
// command to run, as docs/calls.md (Building the command line) says:
//
//  1. the CLI's base command split into words, each word then expanded
//     ("~" or "~/" at its start becomes the home directory; $VAR and
//     ${VAR} are replaced from the config's env, then the inherited
//     environment; a word that expands to nothing is dropped; a variable's
//     value is never split further), then the tool's command words;
//  2. positional args in definition order, one argv token per value (an
//     array: one token per item);
//  3. flag args in definition order (absent → default → skipped);
//     booleans give the flag alone when true and nothing when false; a
//     flag ending in "=" is joined with its value into one token; an arg
//     with neither flag nor positional gets "--" + name with "_" → "-";
//     an array repeats the flag for each item (-H a -H b, --x=a --x=b);
//  4. global args that have a default: the default env-expanded, skipped
//     when it names an unset variable or expands to empty (for an array,
//     item by item), rendered as in 2 and 3;
//  5. when an after_double_dash arg has a value: "--", then those args'
//     values in definition order, one token per value or item;
//  6. stdin and cwd args go to Command.Stdin and Command.Dir instead. Dir
//     is the cwd arg's value as [Validate] returns it (where a leading
//     "~" is already the home directory; Build expands nothing in a
//     caller's value), else the config's working_dir ("~" and variables
//     expanded), else empty (inherited).
//
// A relative program path (a first word with a slash, such as ./bin/tool)
// becomes absolute, resolved against the config's working_dir, or the
// directory of the config's file when it has none, or else the server's
// working directory: never against a call's cwd arg, which chooses where
// the program runs but not which program runs.
//
// Absent values fall back to the argument's default, so Build also works on
// unvalidated but well-typed values. Values are rendered with [Render].
//
// With a docker executor the argv is prefixed with
//
//	docker run --rm [-i] [-v VOLUME]... [--network NET] [-w DIR] [-e KEY=VALUE]... IMAGE
//
// where -i is present when a stdin value is supplied, volumes are
// env-expanded, -w is the cwd arg's value when supplied (a path inside the
// container) and else the executor's working_dir, and the config's env is
// passed into the container with -e (sorted by key) instead of to the
// docker client. The docker client itself runs in the config's working_dir
// (so relative volume paths resolve there), else the inherited one.
func Build(rt *config.ResolvedTool, values map[string]any) (*Command, error) {
	if rt == nil || rt.Tool == nil || rt.CLI == nil {
		return nil, errors.New("No tool given")
	}
	t, c := rt.Tool, rt.CLI
	lookup := envLookup(c.Env)

	argv := BaseCommand(c)
	if len(argv) == 0 {
		return nil, fmt.Errorf("The command of %s is empty after expansion (%q): set the variables it uses or fix command in the config", cliName(c), c.Command)
	}
	argv = append(argv, strings.Fields(t.Command)...)

	cmd := &Command{Timeout: seconds(t.Timeout), MaxOutput: t.MaxOutput, SuccessExitCodes: t.SuccessExitCodes, values: map[string]any{}}
	value := func(a *config.Arg) (any, bool, error) {
		v, ok := values[a.Name]
		if !ok {
			v = a.Default
		}
		if v == nil {
			return nil, false, nil
		}
		cv, err := coerceArg(a, v)
		if err != nil {
			return nil, false, fmt.Errorf("Argument '%s': %w", a.Name, err)
		}
		cmd.values[a.Name] = cv
		return cv, true, nil
	}

	var cwd string
	var hasCwd, cwdSecret, hasStdin bool
	var tail []string // the after_double_dash values
	var secret, tailSecret []secretWord
	for i := range t.Args {
		a := &t.Args[i]
		v, ok, err := value(a)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		switch {
		case a.Stdin:
			cmd.Stdin, hasStdin = Render(v), true
		case a.Cwd:
			// An empty directory is no directory: the config's applies.
			if cwd = Render(v); cwd != "" {
				hasCwd, cwdSecret = true, a.Secret
			}
		case a.AfterDoubleDash:
			n := len(tail)
			tail = appendPositional(tail, v)
			tailSecret = append(tailSecret, secretWords(a, tail, n, 0)...)
		case a.Positional:
			n := len(argv)
			argv = appendPositional(argv, v)
			secret = append(secret, secretWords(a, argv, n, 0)...)
		}
	}
	for i := range t.Args {
		a := &t.Args[i]
		if a.Positional || a.Stdin || a.Cwd {
			continue
		}
		v, ok, err := value(a)
		if err != nil {
			return nil, err
		}
		if ok {
			n := len(argv)
			argv = appendFlag(argv, a, v)
			secret = append(secret, secretWords(a, argv, n, 0)...)
		}
	}
	for i := range c.GlobalArgs {
		a := &c.GlobalArgs[i]
		if a.Default == nil || a.Stdin || a.Cwd {
			continue
		}
		d := expandDefault(a.Default, lookup)
		if d == nil {
			continue
		}
		v, err := coerceArg(a, d)
		if err != nil {
			return nil, fmt.Errorf("Global argument '%s' of %s: default: %w", a.Name, cliName(c), err)
		}
		n := len(argv)
		if a.Positional {
			argv = appendPositional(argv, v)
		} else {
			argv = appendFlag(argv, a, v)
		}
		secret = append(secret, secretWords(a, argv, n, 0)...)
	}
	if len(tail) > 0 {
		for _, w := range tailSecret {
			secret = append(secret, secretWord{len(argv) + 1 + w.i, w.keep})
		}
		argv = append(append(argv, "--"), tail...)
	}

	if strings.EqualFold(rt.Executor.Type, config.ExecutorDocker) {
		e := rt.Executor
		if e.Image == "" {
			return nil, errors.New("The docker executor has no image: set executor.image in the policy")
		}
		prefix := []string{"docker", "run", "--rm"}
		if hasStdin {
			prefix = append(prefix, "-i")
		}
		for _, v := range e.Volumes {
			// A volume that names an unset variable would mount the
			// wrong thing (":/workspace" is no mount at all).
			x, complete := expandEnv(expandHome(v), lookup)
			if !complete {
				return nil, fmt.Errorf("The docker executor's volume %q names a variable that is not set: set it in the environment climax runs in, or fix executor.volumes in the policy", v)
			}
			if x != "" {
				prefix = append(prefix, "-v", x)
			}
		}
		if e.Network != "" {
			prefix = append(prefix, "--network", e.Network)
		}
		if w := e.WorkingDir; hasCwd || w != "" {
			if hasCwd {
				w = cwd
			}
			prefix = append(prefix, "-w", w)
			if hasCwd && cwdSecret {
				cmd.secret = append(cmd.secret, secretWord{len(prefix) - 1, 0})
			}
		}
		for _, k := range slices.Sorted(maps.Keys(c.Env)) {
			prefix = append(prefix, "-e", k+"="+c.Env[k])
		}
		prefix = append(prefix, e.Image)
		for _, w := range secret {
			cmd.secret = append(cmd.secret, secretWord{len(prefix) + w.i, w.keep})
		}
		cmd.Argv = append(prefix, argv...)
		if c.WorkingDir != "" {
			cmd.Dir = workingDir(c, lookup)
		}
		return cmd, nil
	}

	argv[0] = programPath(argv[0], c, lookup)
	cmd.Argv, cmd.secret = argv, secret
	for _, k := range slices.Sorted(maps.Keys(c.Env)) {
		cmd.Env = append(cmd.Env, k+"="+c.Env[k])
	}
	switch {
	case hasCwd:
		cmd.Dir = cwd // a caller's value: used as it is
		cmd.dirSecret = cwdSecret
	case c.WorkingDir != "":
		cmd.Dir = workingDir(c, lookup)
	}
	return cmd, nil
}

// expandDefault expands $VAR and ${VAR} in a global arg's default (each
// item of a list). A string that names an unset variable or expands to
// nothing is dropped: nil for a scalar, left out of a list (nil when none
// is left).
func expandDefault(d any, lookup func(string) (string, bool)) any {
	expand := func(v any) (any, bool) {
		s, ok := v.(string)
		if !ok {
			return v, true
		}
		expanded, complete := expandEnv(s, lookup)
		return expanded, complete && expanded != ""
	}
	list, ok := d.([]any)
	if !ok {
		v, keep := expand(d)
		if !keep {
			return nil
		}
		return v
	}
	var out []any
	for _, item := range list {
		if v, keep := expand(item); keep {
			out = append(out, v)
		}
	}
	if out == nil {
		return nil
	}
	return out
}

// appendPositional renders a positional value: one token, or one per item
// of an array.
func appendPositional(argv []string, v any) []string {
	if list, ok := v.([]any); ok {
		for _, item := range list {
			argv = append(argv, Render(item))
		}
		return argv
	}
	return append(argv, Render(v))
}

// appendFlag renders a non-positional argument; an array repeats the flag
// for each item.
func appendFlag(argv []string, a *config.Arg, v any) []string {
	flag := flagOf(a)
	if list, ok := v.([]any); ok {
		for _, item := range list {
			argv = appendFlagValue(argv, flag, item)
		}
		return argv
	}
	if a.Type == config.TypeBoolean {
		if b, _ := v.(bool); b {
			return append(argv, flag)
		}
		return argv
	}
	return appendFlagValue(argv, flag, v)
}

// flagOf returns the flag of a non-positional argument: its own, or
// "--" and its name with "_" as "-".
func flagOf(a *config.Arg) string {
	if a.Flag == "" && !a.Positional {
		return "--" + strings.ReplaceAll(a.Name, "_", "-")
	}
	return a.Flag
}

// appendFlagValue renders one flag and value: joined into one token when
// the flag ends in "=", else two tokens.
func appendFlagValue(argv []string, flag string, v any) []string {
	if strings.HasSuffix(flag, "=") {
		return append(argv, flag+Render(v))
	}
	return append(argv, flag, Render(v))
}

// BaseCommand returns the words of the config's base command as a command
// line starts with them: the command is split into words, then in each
// word a leading "~" becomes the home directory and $VAR / ${VAR} are
// looked up in the config's env, then the process environment (a value is
// never split). Words that expand to nothing are dropped.
func BaseCommand(c *config.Config) []string {
	lookup := envLookup(c.Env)
	var words []string
	for _, w := range strings.Fields(c.Command) {
		if w = expandWord(w, lookup); w != "" {
			words = append(words, w)
		}
	}
	return words
}

// programPath makes a relative program path absolute (see [Build]); a
// bare name or an absolute path is returned as it is.
func programPath(prog string, c *config.Config, lookup func(string) (string, bool)) string {
	if !hasPathSeparator(prog) || filepath.IsAbs(prog) {
		return prog
	}
	dir := workingDir(c, lookup)
	if dir == "" {
		dir = configDir(c)
	}
	p, err := filepath.Abs(filepath.Join(dir, prog))
	if err != nil {
		return filepath.Join(dir, prog)
	}
	return p
}

// workingDir returns the config's working_dir, expanded; a relative one is
// taken relative to the directory of the config's file, so that a config
// means the same wherever climax starts. "" when there is none.
func workingDir(c *config.Config, lookup func(string) (string, bool)) string {
	dir := expandWord(c.WorkingDir, lookup)
	if dir == "" || filepath.IsAbs(dir) {
		return dir
	}
	return filepath.Join(configDir(c), dir)
}

// configDir returns the directory of the config's file, "" for a bundled
// config or one that was not read from a file.
func configDir(c *config.Config) string {
	if c.Source == "" || strings.HasPrefix(c.Source, "bundled:") {
		return ""
	}
	if dir, err := filepath.Abs(filepath.Dir(c.Source)); err == nil {
		return dir
	}
	return filepath.Dir(c.Source)
}

// hasPathSeparator reports whether a program name is a path rather than a
// name to look up in PATH.
func hasPathSeparator(name string) bool {
	return strings.ContainsRune(name, '/') || strings.ContainsRune(name, filepath.Separator)
}

// envLookup looks a variable up in the config's env, then in the process
// environment.
func envLookup(env map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		if v, ok := env[k]; ok {
			return v, true
		}
		return os.LookupEnv(k)
	}
}

// expandEnv replaces $VAR and ${VAR} as os.ExpandEnv does and reports
// whether every variable named was set.
func expandEnv(s string, lookup func(string) (string, bool)) (string, bool) {
	complete := true
	out := os.Expand(s, func(k string) string {
		v, ok := lookup(k)
		if !ok {
			complete = false
		}
		return v
	})
	return out, complete
}

// expandHome expands a leading "~" or "~/" to the home directory.
func expandHome(w string) string {
	if w == "~" || strings.HasPrefix(w, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			return home + w[1:]
		}
	}
	return w
}

// expandWord expands a leading "~" or "~/" to the home directory, then
// $VAR and ${VAR}.
func expandWord(w string, lookup func(string) (string, bool)) string {
	out, _ := expandEnv(expandHome(w), lookup)
	return out
}

func seconds(s float64) time.Duration {
	if s <= 0 {
		s = config.DefaultTimeout
	}
	if s > 1e9 {
		s = 1e9 // about 31 years; keeps the Duration from overflowing
	}
	// Rounded, so that Duration.Seconds gives back the configured value.
	return time.Duration(math.Round(s * float64(time.Second)))
}

func cliName(c *config.Config) string {
	if c.Name != "" {
		return c.Name
	}
	return "the CLI"
}
