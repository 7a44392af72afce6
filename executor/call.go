package executor

import (
	"context"
	"fmt"
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

	timeout   float64 // the time limit in seconds, for Text
	cancelled bool    // the context was cancelled while it ran
}

// Cancelled reports whether the command was stopped because the call's
// context was cancelled.
func (res *Result) Cancelled() bool { return res.cancelled }

// Outcome is the answer to one tool call, ready for any transport.
type Outcome struct {
	// Text is the result text of SPEC section 2, or the error message.
	Text string
	// IsError is set for every failure: validation, policy, program not
	// found, non-zero exit, timeout, cancellation.
	IsError bool
	// Result is the finished command; nil when no command ran.
	Result *Result
	// Argv is the command line that ran (or would have run); nil when
	// validation failed.
	Argv []string
}

// Runner runs tool calls. Make one with [New] (the zero value would kill
// timed-out commands without a grace period). A Runner is safe for
// concurrent use.
type Runner struct {
	maxOutput int
	grace     time.Duration
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

// New returns a Runner.
func New(opts ...Option) *Runner {
	r := &Runner{grace: 2 * time.Second}
	for _, o := range opts {
		o(r)
	}
	return r
}

// Prepare validates args for rt ([Validate]) and builds the command
// ([Build]). The error is a *[ValidationError] when the arguments are at
// fault.
func Prepare(rt *config.ResolvedTool, args map[string]any) (*Command, error) {
	values, err := Validate(rt, args)
	if err != nil {
		return nil, err
	}
	return Build(rt, values)
}

// Call validates args for rt, builds the command line, runs it and formats
// the result. args holds JSON-decoded values (float64 or json.Number for
// numbers); nil means no arguments. Every failure is an Outcome with
// IsError set; Call never panics on bad input.
//
// It is [Prepare], then [Runner.Run], then [Result.Text]: a validation
// error's text, a [StartError]'s message (program not found, missing
// working directory), or the result text, with IsError set for every
// failure including a non-zero exit, a timeout and a cancellation.
func (r *Runner) Call(ctx context.Context, rt *config.ResolvedTool, args map[string]any) (out Outcome) {
	defer func() {
		if p := recover(); p != nil {
			out = Outcome{Text: fmt.Sprintf("Internal error: %v", p), IsError: true, Argv: out.Argv}
		}
	}()
	cmd, err := Prepare(rt, args)
	if err != nil {
		return Outcome{Text: err.Error(), IsError: true}
	}
	res, err := r.Run(ctx, cmd)
	if err != nil {
		return Outcome{Text: err.Error(), IsError: true, Argv: cmd.Argv}
	}
	return Outcome{Text: res.Text(), IsError: res.Failed(), Result: res, Argv: cmd.Argv}
}
