package executor

import (
	"context"
	"time"

	"github.com/climax-mcp/climax/index"
)

// Result is what a finished command produced. It is also the
// structuredContent of an MCP call result.
type Result struct {
	ExitCode   int    `json:"exit_code"`
	Stdout     string `json:"stdout"`
	Stderr     string `json:"stderr"`
	TimedOut   bool   `json:"timed_out"`
	Truncated  bool   `json:"truncated"`
	DurationMS int64  `json:"duration_ms"`
}

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

// Runner runs tool calls. The zero value is not usable; use [New].
type Runner struct {
	maxOutput int
	grace     time.Duration
}

// An Option configures a [Runner].
type Option func(*Runner)

// WithMaxOutput sets a server-wide per-stream output limit in bytes that
// overrides every tool's max_output. n <= 0 keeps the per-tool limits.
func WithMaxOutput(n int) Option { return func(r *Runner) { r.maxOutput = n } }

// New returns a Runner.
func New(opts ...Option) *Runner {
	r := &Runner{grace: 2 * time.Second}
	for _, o := range opts {
		o(r)
	}
	return r
}

// Call validates args for rt, builds the command line, runs it and formats
// the result. args holds JSON-decoded values (float64 or json.Number for
// numbers); nil means no arguments. Every failure is an Outcome with
// IsError set; Call never panics on bad input.
//
// STUB: to be replaced by the executor issue.
func (r *Runner) Call(ctx context.Context, rt *index.ResolvedTool, args map[string]any) Outcome {
	return Outcome{Text: "not implemented", IsError: true}
}
