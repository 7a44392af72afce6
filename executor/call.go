package executor

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"time"

	"github.com/climax-mcp/climax/index/config"
)

// Result is what a finished command produced. It is also the
// structuredContent of an MCP call result.
type Result struct {
	// ExitCode is the command's exit status; 128+N when signal N killed
	// it (also after a timeout or cancellation, usually 143 or 137).
	ExitCode int `json:"exit_code"`
	// Stdout and Stderr are the captured streams, valid UTF-8, each cut to
	// the output limit (head and tail around a marker line).
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	// TimedOut is set when the command was killed at its timeout.
	TimedOut bool `json:"timed_out"`
	// Truncated is set when either stream was cut.
	Truncated bool `json:"truncated"`
	// DurationMS is the wall time from start to the end of the call.
	DurationMS int64 `json:"duration_ms"`

	// IgnoredArgs lists the call's argument names that the tool does not
	// have, which were ignored; absent when there are none.
	IgnoredArgs []IgnoredArg `json:"ignored_args,omitempty"`
	// IgnoredArgsOmitted counts the unknown names beyond the first
	// [MaxIgnoredArgs], which IgnoredArgs leaves out; absent when none.
	IgnoredArgsOmitted int `json:"ignored_args_omitted,omitempty"`

	timeout   float64        // the time limit in seconds, for Text
	cancelled bool           // the context was cancelled while it ran
	success   []int          // the exit codes that are not failures; nil: just 0
	meanings  map[int]string // what exit codes mean (Command.ExitCodes)
}

// Cancelled reports whether the command was stopped because the call's
// context was cancelled.
func (res *Result) Cancelled() bool { return res.cancelled }

// Outcome is the answer to one tool call, ready for any transport.
type Outcome struct {
	// Text is the result text (docs/results.md), or the error message.
	Text string
	// IsError is set for every failure: validation, policy, program not
	// found, non-zero exit, timeout, cancellation.
	IsError bool
	// Result is the finished command; nil when no command ran.
	Result *Result
	// Argv is the command line that ran (or would have run), as
	// [Command.Redacted] shows it: the values of secret arguments are
	// "***". nil when validation failed.
	Argv []string
	// Cancelled is set when the call was cancelled before its command
	// started: while it waited for a free slot, or for the approval of
	// the command. (A command that started and was cancelled has a Result
	// that says so.)
	Cancelled bool
}

// Runner runs tool calls. Make one with [New] (the zero value would kill
// timed-out commands without a grace period). A Runner is safe for
// concurrent use.
type Runner struct {
	maxOutput  int
	grace      time.Duration
	slots      chan struct{} // one per command allowed to run at once
	strictArgs bool
}

// An Option configures a [Runner].
type Option func(*Runner)

// WithMaxOutput sets a server-wide per-stream output limit in bytes that
// overrides every tool's max_output. n <= 0 keeps the per-tool limits.
func WithMaxOutput(n int) Option { return func(r *Runner) { r.maxOutput = n } }

// WithGracePeriod sets how long a command's process group has between
// SIGTERM and SIGKILL after a timeout or cancellation (default 2s).
// d < 0 is taken as 0: SIGKILL follows at once.
func WithGracePeriod(d time.Duration) Option {
	return func(r *Runner) { r.grace = max(d, 0) }
}

// WithMaxConcurrent bounds the commands that run at once: a call that
// passed validation waits for a free slot (or for its context to end).
// n <= 0 keeps the default, [DefaultMaxConcurrent].
func WithMaxConcurrent(n int) Option {
	return func(r *Runner) {
		if n > 0 {
			r.slots = make(chan struct{}, n)
		}
	}
}

// DefaultMaxConcurrent returns the default bound on commands running at
// once: twice GOMAXPROCS, at least 8 (commands mostly wait on I/O).
func DefaultMaxConcurrent() int { return max(8, 2*runtime.GOMAXPROCS(0)) }

// WithStrictArgs makes argument names the tool does not have a validation
// error ("Unknown argument 'cwd' (did you mean 'dir'?)") instead of being
// ignored and listed in [Result].IgnoredArgs.
func WithStrictArgs(strict bool) Option { return func(r *Runner) { r.strictArgs = strict } }

// New returns a Runner.
func New(opts ...Option) *Runner {
	r := &Runner{grace: 2 * time.Second, slots: make(chan struct{}, DefaultMaxConcurrent())}
	for _, o := range opts {
		o(r)
	}
	return r
}

// prepare validates args for rt ([Validate]; with strict set, argument
// names the tool does not have are problems too) and builds the command
// ([Build]). The error is a *[ValidationError] when the arguments are at
// fault.
func prepare(rt *config.ResolvedTool, args map[string]any, strict bool) (*Command, error) {
	values, err := validate(rt, args, strict)
	if err != nil {
		return nil, err
	}
	return Build(rt, values)
}

// acquire takes a slot to run a command, waiting while all are taken
// (and telling queued, when set). It fails with a [StartError] when ctx
// ends first.
func (r *Runner) acquire(ctx context.Context, tool string, queued func(bool)) (release func(), err error) {
	if r.slots == nil { // the zero Runner
		return func() {}, nil
	}
	select {
	case r.slots <- struct{}{}:
		return func() { <-r.slots }, nil
	default: // all taken: wait
	}
	if queued != nil {
		queued(true)
		defer queued(false)
	}
	select {
	case r.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, &StartError{Msg: fmt.Sprintf("Cancelled: %s did not start (%v)", tool, context.Cause(ctx)), Err: ctx.Err()}
	}
	return func() { <-r.slots }, nil
}

// DecodeArgs decodes the JSON arguments of a call: absent or null is nil
// (no arguments), an object is a map with numbers as [json.Number].
// Anything else is a *[ValidationError] saying what was sent instead.
func DecodeArgs(raw json.RawMessage) (map[string]any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if raw[0] != '{' {
		return nil, &ValidationError{Problems: []string{fmt.Sprintf("Arguments must be a JSON object (got %s)", jsonKind(raw[0]))}}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var args map[string]any
	if err := dec.Decode(&args); err != nil {
		return nil, &ValidationError{Problems: []string{fmt.Sprintf("Arguments are not valid JSON: %v", err)}}
	}
	return args, nil
}

// jsonKind names the JSON type of a value from its first byte.
func jsonKind(first byte) string {
	switch first {
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	default:
		return "number"
	}
}

// A ConfirmFunc asks for the approval of a command that is ready to run
// (validated, its argv built) but not started. It returns nil to let it
// run; its error's message is the call's result text, and the command
// never starts. It may block, e.g. while a user decides.
type ConfirmFunc func(ctx context.Context, rt *config.ResolvedTool, cmd *Command) error

// A CallOption configures one [Runner.Call].
type CallOption func(*callOptions)

type callOptions struct {
	confirm ConfirmFunc
	queued  func(waiting bool)
}

// WithQueued makes queued called with true when a call has to wait for a
// free slot ([WithMaxConcurrent]) before its command can start, and with
// false once it has one (or stopped waiting), for progress messages.
func WithQueued(queued func(waiting bool)) CallOption {
	return func(o *callOptions) { o.queued = queued }
}

// WithConfirm makes confirm the approval step of a call of a tool that
// needs one ([config.ResolvedTool].Confirm). Without it such a call is
// refused.
func WithConfirm(confirm ConfirmFunc) CallOption {
	return func(o *callOptions) { o.confirm = confirm }
}

// Call validates args for rt, builds the command line, runs it and formats
// the result. args holds JSON-decoded values (float64 or json.Number for
// numbers); nil means no arguments. Every failure is an Outcome with
// IsError set; Call never panics on bad input.
//
// It is [Validate] and [Build], then the approval of a tool that needs one
// ([WithConfirm]; it holds no slot), then a wait for a free slot
// ([WithMaxConcurrent], [WithQueued]),
// then [Runner.Run], then [Result.Text]: a validation error's text, a [StartError]'s message (program not found, missing
// working directory), or the result text, with IsError set for every
// failure including an exit code the tool does not count as success
// (config success_exit_codes), a timeout and a cancellation. Argument
// names the tool does not have are listed in the Result's IgnoredArgs, or,
// with [WithStrictArgs], refused with the other validation problems.
func (r *Runner) Call(ctx context.Context, rt *config.ResolvedTool, args map[string]any, opts ...CallOption) (out Outcome) {
	defer func() {
		if p := recover(); p != nil {
			out = Outcome{Text: fmt.Sprintf("Internal error: %v", p), IsError: true, Argv: out.Argv}
		}
	}()
	var co callOptions
	for _, o := range opts {
		o(&co)
	}
	cmd, err := prepare(rt, args, r.strictArgs)
	if err != nil {
		return Outcome{Text: err.Error(), IsError: true}
	}
	if rt.Confirm {
		if co.confirm == nil {
			return Outcome{Text: fmt.Sprintf("%s needs the user's approval before it runs, and this caller cannot ask for it: the command did not run.", rt.Tool.Name), IsError: true, Argv: cmd.Redacted()}
		}
		if err := co.confirm(ctx, rt, cmd); err != nil {
			return Outcome{Text: err.Error(), IsError: true, Argv: cmd.Redacted(), Cancelled: ctx.Err() != nil}
		}
	}
	release, err := r.acquire(ctx, rt.Tool.Name, co.queued)
	if err != nil {
		return Outcome{Text: err.Error(), IsError: true, Argv: cmd.Redacted(), Cancelled: true}
	}
	defer release()
	res, err := r.Run(ctx, cmd)
	if err != nil {
		return Outcome{Text: err.Error(), IsError: true, Argv: cmd.Redacted()}
	}
	res.IgnoredArgs, res.IgnoredArgsOmitted = UnknownArgs(rt.Tool, args)
	return Outcome{Text: res.Text(), IsError: res.Failed(), Result: res, Argv: cmd.Redacted()}
}
