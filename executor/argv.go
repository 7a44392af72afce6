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
	// (they win over inherited ones). Under the docker executor they are
	// the config's env in the docker client's environment, which passes
	// each into the container by name (-e KEY in Argv).
	Env []string
	// InheritEnv, when not nil, limits the variables the command inherits
	// from this process's environment to those it names: a name, or a
	// prefix followed by "*" ([Inherits]). nil inherits them all. Either
	// way CLImax's own CLIMAX_* settings are left out and Env is added.
	// [Build] sets it from the tool's inherit_env, else the config's; never
	// under the docker executor, whose client needs the server's
	// environment to reach the daemon and passes the container none of it.
	InheritEnv []string
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
	// ExitCodes says what exit codes mean, for the result text
	// ("[exit code: 1 (no matches)]"); nil when the tool says nothing.
	ExitCodes map[int]string

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
	flag := flagWords(a)
	last := flag[len(flag)-1]
	switch {
	case a.Positional:
		for i := from; i < len(words); i++ {
			out = append(out, secretWord{offset + i, 0})
		}
	case a.Type == config.TypeBoolean:
	case strings.HasSuffix(last, "="):
		// Fixed words, then the last one joined with the value, per value.
		for i := from + len(flag) - 1; i < len(words); i += len(flag) {
			out = append(out, secretWord{offset + i, len(last)})
		}
	default:
		// Fixed words, the flag, then the value, per value.
		for i := from + len(flag); i < len(words); i += len(flag) + 1 {
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
//     flag ending in "=" is joined with its value into one token; a flag
//     of several words ("-not -path") gives them all, the last one as the
//     flag; an arg with neither flag nor positional gets "--" + name with
//     "_" → "-"; an array repeats the flag for each item (-H a -H b,
//     --x=a --x=b);
//  4. global args that have a default: the default env-expanded, skipped
//     when it names an unset variable or expands to empty (for an array,
//     item by item), rendered as in 2 and 3;
//  5. when an after_double_dash arg has a value: "--", then those args
//     in definition order, rendered as in 2 (a positional one) or 3 (one
//     with a flag, as `docker exec -- CONTAINER sh -c CMD` needs);
//  6. stdin and cwd args go to Command.Stdin and Command.Dir instead. Dir
//     is the cwd arg's value as [Validate] returns it (where a leading
//     "~" is already the home directory; Build expands nothing in a
//     caller's value), else the config's working_dir ("~" and variables
//     expanded), else empty (inherited);
//  7. Command.Env is the config's env, then the tool's env (whose keys
//     win), sorted by key; Command.InheritEnv is the tool's inherit_env,
//     else the config's (nil when neither has one: everything is
//     inherited).
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
// With a docker executor the argv is prefixed with the words that run it
// in a container of the policy's image, hardened unless the policy relaxes
// it (docs/calls.md, The docker executor):
//
//	docker run --rm [-i] --network none --user UID:GID --cap-drop ALL
//	  --security-opt no-new-privileges --read-only --tmpfs /tmp
//	  --pids-limit 1024 --memory 2g --cpus 1 [-v VOLUME]... [-w DIR] [-e KEY]... IMAGE
//
// (podman instead of docker with runtime: podman). -i is present when a
// stdin value is supplied; volumes are expanded from the environment of
// this process only, never from the config's env; -w is the cwd arg's
// value when supplied (a path inside the container), else the executor's
// working_dir. The config's env is passed into the container by name (-e
// KEY, sorted by key), with its values in Command.Env, the environment of
// the docker client, so that no value appears in the argv, and so in `ps`,
// the logs, the audit log or an approval question; a config env variable
// the client itself reads (PATH, HOME, DOCKER_*, LD_*, ...) fails the
// call. The docker client runs in the server's working directory.
func Build(rt *config.ResolvedTool, values map[string]any) (*Command, error) {
	if rt == nil || rt.Tool == nil || rt.CLI == nil {
		return nil, errors.New("No tool given")
	}
	var line commandLine
	if err := line.build(rt, values); err != nil {
		return nil, err
	}
	t := rt.Tool
	cmd := &Command{Stdin: line.stdin, Timeout: seconds(t.Timeout), MaxOutput: t.MaxOutput, SuccessExitCodes: t.SuccessExitCodes, ExitCodes: t.ExitCodes, values: line.values}
	if rt.Executor.IsDocker() {
		return containerCommand(cmd, rt, &line)
	}
	return localCommand(cmd, rt, &line), nil
}

// A commandLine is a call rendered as words (steps 1 to 5 of [Build]),
// with the values that do not become words: before it is placed on the
// host or in a container.
type commandLine struct {
	argv   []string
	secret []secretWord   // the words of argv that hold secret values
	values map[string]any // the tool's args' values (given or default), by name

	stdin    string
	hasStdin bool

	cwd               string // the cwd arg's value; "" leaves the default in place
	hasCwd, cwdSecret bool
	tail              []string     // the after_double_dash values
	tailSecret        []secretWord // the words of tail that hold secret values
	lookup            func(string) (string, bool)
	env               map[string]string // the config's env, then the tool's
}

// build renders the call's command line: steps 1 to 5 of [Build].
func (l *commandLine) build(rt *config.ResolvedTool, values map[string]any) error {
	t, c := rt.Tool, rt.CLI
	l.lookup, l.env, l.values = envLookup(c.Env), commandEnv(c, t), map[string]any{}
	l.argv = BaseCommand(c)
	if len(l.argv) == 0 {
		return fmt.Errorf("The command of %s is empty after expansion (%q): set the variables it uses or fix command in the config", cliName(c), c.Command)
	}
	l.argv = append(l.argv, strings.Fields(t.Command)...)
	if err := l.addOperands(t.Args, values); err != nil {
		return err
	}
	if err := l.addFlags(t.Args, values); err != nil {
		return err
	}
	if err := l.addGlobals(c); err != nil {
		return err
	}
	if len(l.tail) > 0 {
		for _, w := range l.tailSecret {
			l.secret = append(l.secret, secretWord{len(l.argv) + 1 + w.i, w.keep})
		}
		l.argv = append(append(l.argv, "--"), l.tail...)
	}
	return nil
}

// value returns the value an arg takes in a call, and records it: the
// caller's, else its default, coerced to its type; false when it has none.
func (l *commandLine) value(a *config.Arg, values map[string]any) (any, bool, error) {
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
	l.values[a.Name] = cv
	return cv, true, nil
}

// addOperands renders the positional args (step 2) and sets aside the
// stdin, cwd and after_double_dash values.
func (l *commandLine) addOperands(args []config.Arg, values map[string]any) error {
	for i := range args {
		a := &args[i]
		v, ok, err := l.value(a, values)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		switch {
		case a.Stdin:
			l.stdin, l.hasStdin = Render(v), true
		case a.Cwd:
			// An empty directory is no directory: the config's applies.
			if l.cwd = Render(v); l.cwd != "" {
				l.hasCwd, l.cwdSecret = true, a.Secret
			}
		case a.AfterDoubleDash:
			n := len(l.tail)
			if a.Positional {
				l.tail = appendPositional(l.tail, v)
			} else {
				l.tail = appendFlag(l.tail, a, v)
			}
			l.tailSecret = append(l.tailSecret, secretWords(a, l.tail, n, 0)...)
		case a.Positional:
			n := len(l.argv)
			l.argv = appendPositional(l.argv, v)
			l.secret = append(l.secret, secretWords(a, l.argv, n, 0)...)
		}
	}
	return nil
}

// addFlags renders the flag args (step 3).
func (l *commandLine) addFlags(args []config.Arg, values map[string]any) error {
	for i := range args {
		a := &args[i]
		if a.Positional || a.Stdin || a.Cwd || a.AfterDoubleDash {
			continue
		}
		v, ok, err := l.value(a, values)
		if err != nil {
			return err
		}
		if ok {
			n := len(l.argv)
			l.argv = appendFlag(l.argv, a, v)
			l.secret = append(l.secret, secretWords(a, l.argv, n, 0)...)
		}
	}
	return nil
}

// addGlobals renders the global args that have a default (step 4).
func (l *commandLine) addGlobals(c *config.Config) error {
	for i := range c.GlobalArgs {
		a := &c.GlobalArgs[i]
		if a.Default == nil || a.Stdin || a.Cwd {
			continue
		}
		d := expandDefault(a.Default, l.lookup)
		if d == nil {
			continue
		}
		v, err := coerceArg(a, d)
		if err != nil {
			return fmt.Errorf("Global argument '%s' of %s: default: %w", a.Name, cliName(c), err)
		}
		n := len(l.argv)
		if a.Positional {
			l.argv = appendPositional(l.argv, v)
		} else {
			l.argv = appendFlag(l.argv, a, v)
		}
		l.secret = append(l.secret, secretWords(a, l.argv, n, 0)...)
	}
	return nil
}

// commandEnv returns the variables a tool's commands get on top of the
// inherited environment: the config's env, then the tool's, whose keys
// win.
func commandEnv(c *config.Config, t *config.Tool) map[string]string {
	if len(t.Env) == 0 {
		return c.Env
	}
	env := maps.Clone(c.Env)
	if env == nil {
		env = map[string]string{}
	}
	maps.Copy(env, t.Env)
	return env
}

// inheritEnv returns the variables of the server's environment a tool's
// commands keep: the tool's inherit_env, which replaces the config's; nil
// when neither limits them.
func inheritEnv(c *config.Config, t *config.Tool) []string {
	if t.InheritEnv != nil {
		return t.InheritEnv
	}
	return c.InheritEnv
}

// localCommand places a command line on the host: the program path made
// absolute when relative, the inherited environment limited as the config
// says and its env added, and the directory of step 6 of [Build].
func localCommand(cmd *Command, rt *config.ResolvedTool, line *commandLine) *Command {
	c := rt.CLI
	argv := line.argv
	argv[0] = programPath(argv[0], c, line.lookup)
	cmd.Argv, cmd.secret = argv, line.secret
	cmd.InheritEnv = slices.Clone(inheritEnv(c, rt.Tool))
	for _, k := range slices.Sorted(maps.Keys(line.env)) {
		cmd.Env = append(cmd.Env, k+"="+line.env[k])
	}
	switch {
	case line.hasCwd:
		cmd.Dir = line.cwd // a caller's value: used as it is
		cmd.dirSecret = line.cwdSecret
	case c.WorkingDir != "":
		cmd.Dir = workingDir(c, line.lookup)
	}
	return cmd
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
	flag := flagWords(a)
	if list, ok := v.([]any); ok {
		for _, item := range list {
			argv = appendFlagValue(argv, flag, item)
		}
		return argv
	}
	if a.Type == config.TypeBoolean {
		if b, _ := v.(bool); b {
			return append(argv, flag...)
		}
		return argv
	}
	return appendFlagValue(argv, flag, v)
}

// flagWords returns the words of a non-positional argument's flag: its
// own split at white space ("-not -path" is two words, the last one the
// option that takes the value), or "--" and its name with "_" as "-".
func flagWords(a *config.Arg) []string {
	if words := strings.Fields(a.Flag); len(words) > 0 {
		return words
	}
	return []string{"--" + strings.ReplaceAll(a.Name, "_", "-")}
}

// appendFlagValue renders one flag and value: the flag's words, the last
// one joined with the value into one token when it ends in "=", else
// followed by the value as its own token.
func appendFlagValue(argv []string, flag []string, v any) []string {
	last := len(flag) - 1
	argv = append(argv, flag[:last]...)
	if strings.HasSuffix(flag[last], "=") {
		return append(argv, flag[last]+Render(v))
	}
	return append(argv, flag[last], Render(v))
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
