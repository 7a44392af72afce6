package executor

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/climax-mcp/climax/index/config"
)

// MaxResolvedLen is how many bytes of a resolver's output a confirm
// message shows; longer output is cut with "…".
const MaxResolvedLen = 200

// NotLookedUp is the value of a resolver variable whose resolver failed:
// it says the value is missing rather than showing the resolver's own
// arguments, which would read as the answer ("named: Name=instance-id,...").
const NotLookedUp = "<not looked up>"

// Resolution is what the resolvers of one call found: the value of every
// variable, and why those that failed did.
type Resolution struct {
	// Vars holds each resolver variable's value: the resolver's output
	// (trimmed, at most [MaxResolvedLen] bytes), or [NotLookedUp] for one
	// that failed.
	Vars map[string]string
	// Failures say, one per failed resolver in order, which variable
	// could not be looked up and why ("{_size} could not be looked up:
	// exit status 1: NoSuchBucket").
	Failures []string
}

// Resolve runs the resolvers of rt's tool (config.Tool.Resolve) for cmd, a
// validated call of the tool, one after another: each is the config's base
// command, the resolver's subcommand and its flags, built like any call of
// the config (same executor, docker or local, environment, working
// directory, global args) and run like one (no shell, its own timeout,
// the tool's output limit). A flag whose template names an arg without a
// value is left out; an array arg's items are joined by commas. A
// resolver that fails — cannot start, exits non-zero, times out or prints
// nothing — leaves its variable as [NotLookedUp] and adds a failure.
// Resolve runs nothing for a tool without resolvers.
func (r *Runner) Resolve(ctx context.Context, rt *config.ResolvedTool, cmd *Command) Resolution {
	res := Resolution{Vars: map[string]string{}}
	for i := range rt.Tool.Resolve {
		rv := &rt.Tool.Resolve[i]
		value, err := r.resolveOne(ctx, rt, cmd, rv)
		if err != nil {
			res.Vars[rv.Var] = NotLookedUp
			res.Failures = append(res.Failures, fmt.Sprintf("{%s} could not be looked up: %v", rv.Var, err))
			continue
		}
		res.Vars[rv.Var] = value
	}
	return res
}

// resolveOne runs one resolver and returns its value, or why it failed.
// The reason, which the question and the log show, has "***" for the value
// of every secret arg the resolver was given where its error output echoed
// it.
func (r *Runner) resolveOne(ctx context.Context, rt *config.ResolvedTool, cmd *Command, rv *config.Resolver) (value string, err error) {
	tool := &config.Tool{
		Name:      rt.Tool.Name,
		Command:   rv.Command,
		Timeout:   rv.Timeout,
		MaxOutput: rt.Tool.MaxOutput,
		// What the tool's commands do not inherit, its resolvers do not
		// either: their output reaches the question.
		InheritEnv: rt.Tool.InheritEnv,
	}
	values := map[string]any{}
	var secrets []string
	defer func() {
		if err != nil {
			err = errors.New(hideSecrets(err.Error(), secrets))
		}
	}()
	for i, f := range rv.Flags {
		v, ok := fillTemplate(f.Value, func(name string) (string, bool) {
			x, ok := cmd.Value(name)
			if !ok {
				return "", false
			}
			if a := rt.Tool.Arg(name); a != nil && a.Secret {
				secrets = append(secrets, renderItems(x, ","))
			}
			return renderItems(x, ","), true
		})
		if !ok {
			continue
		}
		name := "flag" + strconv.Itoa(i)
		tool.Args = append(tool.Args, config.Arg{Name: name, Flag: f.Flag, Type: config.TypeString})
		values[name] = v
	}
	c, err := Build(&config.ResolvedTool{Tool: tool, CLI: rt.CLI, Executor: rt.Executor}, values)
	if err != nil {
		return "", err
	}
	out, err := r.Run(ctx, c)
	if err != nil {
		return "", err
	}
	text := strings.TrimSpace(out.Stdout)
	switch {
	case out.TimedOut:
		return "", fmt.Errorf("timed out after %s", secondsText(rv.Timeout))
	case out.ExitCode != 0:
		msg := fmt.Sprintf("exit status %d", out.ExitCode)
		if line, _, _ := strings.Cut(strings.TrimSpace(out.Stderr), "\n"); line != "" {
			msg += ": " + clipText(line, 100)
		}
		return "", errors.New(msg)
	case text == "":
		return "", errors.New("it printed nothing")
	}
	return clipText(text, MaxResolvedLen), nil
}

// hideSecrets returns s with every occurrence of a value in secrets (the
// empty one aside) replaced by "***".
func hideSecrets(s string, secrets []string) string {
	for _, v := range secrets {
		if v != "" {
			s = strings.ReplaceAll(s, v, redacted)
		}
	}
	return s
}

// renderItems renders a value for a template: an array's items joined by
// sep (spaces in a question, commas in a resolver's flag value, the form
// of "Values=a,b" lists), other values as on a command line.
func renderItems(v any, sep string) string {
	if items, ok := v.([]any); ok {
		words := make([]string, len(items))
		for i, x := range items {
			words[i] = Render(x)
		}
		return strings.Join(words, sep)
	}
	return Render(v)
}

// fillTemplate fills a template ([config.ParseTemplate]) with lookup's
// values; it reports false when a variable has none, or the template does
// not parse (the loader refuses such templates).
func fillTemplate(tmpl string, lookup func(string) (string, bool)) (string, bool) {
	parts, err := config.ParseTemplate(tmpl)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Var == "" {
			b.WriteString(p.Text)
			continue
		}
		v, ok := lookup(p.Var)
		if !ok {
			return "", false
		}
		b.WriteString(v)
	}
	return b.String(), true
}

// ConfirmText fills the tool's confirm_message for cmd: {arg} with the
// arg's value ("***" for a secret arg, "" for one without a value), {VAR}
// with the resolution's value, every filled value with its control
// characters escaped (EscapeControl) so that it cannot fake a line of the
// question. It returns "" when the tool has no confirm message.
func ConfirmText(t *config.Tool, cmd *Command, res Resolution) string {
	if t.ConfirmMessage == "" {
		return ""
	}
	parts, err := config.ParseTemplate(t.ConfirmMessage)
	if err != nil {
		return t.ConfirmMessage
	}
	var b strings.Builder
	for _, p := range parts {
		switch {
		case p.Var == "":
			b.WriteString(p.Text)
		case t.Arg(p.Var) != nil:
			v, ok := cmd.Value(p.Var)
			switch {
			case !ok:
			case t.Arg(p.Var).Secret:
				b.WriteString(redacted)
			default:
				b.WriteString(EscapeControl(renderItems(v, " ")))
			}
		default:
			b.WriteString(EscapeControl(res.Vars[p.Var]))
		}
	}
	return b.String()
}

// EscapeControl returns s with the characters that would not show as
// themselves (control and format characters, line separators) and bytes
// that are not UTF-8 written as escapes (\n, \x1b, \u202e), as
// [ShellQuote] writes them; other text is unchanged.
func EscapeControl(s string) string {
	if utf8.ValidString(s) && !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	writeEscaped(&b, s, false)
	return b.String()
}

// clipText cuts s to at most n bytes at a character boundary, adding "…"
// when it cut.
func clipText(s string, n int) string {
	return clip(s, n, "…")
}

// clip cuts s to at most n bytes at a character boundary, adding mark
// when it cut.
func clip(s string, n int, mark string) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + mark
}
