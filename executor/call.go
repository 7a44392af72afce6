package executor

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"time"
	"unicode/utf8"

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

// DecodeArgs decodes the JSON arguments of a call: absent or null is nil
// (no arguments), an object is a map with numbers as [json.Number].
// Anything else is a *[ValidationError] saying what was sent instead, and
// so is text that checkJSONText refuses: an object that names a key twice,
// at any depth (encoding/json would keep the last, where another reader
// of the same request may take the first), a lone UTF-16 surrogate escape
// (which encoding/json would make U+FFFD), nesting deeper than
// [MaxJSONDepth] or more than [MaxJSONItems] items and members. A json
// argument sent as a string holding JSON gets the same checks ([Validate]).
func DecodeArgs(raw json.RawMessage) (map[string]any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if raw[0] != '{' {
		return nil, &ValidationError{Problems: []string{fmt.Sprintf("Arguments must be a JSON object (got %s)", jsonKind(raw[0]))}}
	}
	if at := invalidUTF8(raw); at >= 0 {
		return nil, &ValidationError{Problems: []string{fmt.Sprintf("Arguments are not valid UTF-8 (byte %d): JSON text is UTF-8; send the value as UTF-8 text (a value goes to the command as sent, never with bad bytes replaced)", at)}}
	}
	if err := checkJSONText(raw); err != nil {
		return nil, &ValidationError{Problems: []string{err.(*jsonTextError).phrase("Arguments", false)}}
	}
	args, err := decodeValue(raw, 0)
	if err != nil {
		return nil, &ValidationError{Problems: []string{fmt.Sprintf("Arguments are not valid JSON: %v", err)}}
	}
	return args.(map[string]any), nil
}

// directDepth is how many levels of objects and arrays decodeValue
// decodes from slices of the arguments: climax_call's arguments hold the
// tool's arguments, which hold an argument's array or object.
const directDepth = 4

// rawValue is a JSON value as encoding/json hands it to UnmarshalJSON: a
// slice of the text being decoded, not a copy.
type rawValue []byte

func (v *rawValue) UnmarshalJSON(b []byte) error {
	*v = b
	return nil
}

// decodeValue decodes the JSON value b as a json.Decoder with UseNumber
// does (objects as map[string]any, arrays as []any, numbers as
// json.Number), without first copying b into a Decoder's buffer, which
// grows to twice the size of a large value on the way (a 10 MiB string
// argument made it allocate 32 MiB). Objects and arrays are decoded a
// level at a time from slices of b, each level validating its text
// again; below depth directDepth a Decoder decodes the rest, so that the
// text is read a bounded number of times however deep it nests.
func decodeValue(b []byte, depth int) (any, error) {
	switch {
	case depth > directDepth:
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		var v any
		err := dec.Decode(&v)
		return v, err
	case b[0] == '{':
		var members map[string]rawValue
		if err := json.Unmarshal(b, &members); err != nil {
			return nil, err
		}
		m := make(map[string]any, len(members))
		for k, raw := range members {
			v, err := decodeValue(raw, depth+1)
			if err != nil {
				return nil, err
			}
			m[k] = v
		}
		return m, nil
	case b[0] == '[':
		var items []rawValue
		if err := json.Unmarshal(b, &items); err != nil {
			return nil, err
		}
		a := make([]any, len(items))
		for i, raw := range items {
			v, err := decodeValue(raw, depth+1)
			if err != nil {
				return nil, err
			}
			a[i] = v
		}
		return a, nil
	}
	return decodeLeaf(b)
}

// invalidUTF8 returns the offset of the first byte of b that is not part
// of valid UTF-8, or -1 when b is valid.
func invalidUTF8(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return -1
}

// DuplicateKey returns, quoted as messages quote values, a key that an
// object within depth levels of the JSON value raw names twice, or ""
// when none does (or raw is not valid JSON). A message read by
// encoding/json keeps the last of the two, where another reader of the
// same message may take the first: such a message is refused, not read.
func DuplicateKey(raw []byte, depth int) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || depth < 0 {
		return ""
	}
	var inner []rawValue
	switch raw[0] {
	case '{':
		var members map[string]rawValue
		if json.Unmarshal(raw, &members) != nil {
			return ""
		}
		if countKeys(raw) != len(members) {
			return duplicateKey(raw)
		}
		for _, v := range members {
			inner = append(inner, v)
		}
	case '[':
		if json.Unmarshal(raw, &inner) != nil {
			return ""
		}
	}
	for _, v := range inner {
		if k := DuplicateKey(v, depth-1); k != "" {
			return k
		}
	}
	return ""
}

// objectKeys calls f with the quoted text of each key of the JSON object
// b, which encoding/json has found valid, in order.
func objectKeys(b []byte, f func(key []byte)) {
	depth, key := 0, false
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			end := stringEnd(b, i)
			if depth == 1 && key {
				f(b[i : end+1])
				key = false
			}
			i = end
		case '{', '[':
			depth++
			key = depth == 1
		case '}', ']':
			depth--
		case ',':
			key = depth == 1
		}
	}
}

// stringEnd returns the index of the quote that ends the JSON string
// starting at b[start].
func stringEnd(b []byte, start int) int {
	for i := start + 1; i < len(b); i++ {
		j := bytes.IndexAny(b[i:], `"\\`)
		if j < 0 {
			break
		}
		i += j
		if b[i] == '"' {
			return i
		}
		i++ // the escaped character
	}
	return len(b) - 1
}

// countKeys returns how many members the JSON object b holds, counting a
// key named twice twice.
func countKeys(b []byte) int {
	n := 0
	objectKeys(b, func([]byte) { n++ })
	return n
}

// duplicateKey returns the first key the JSON object b names twice, as
// JSON text, decoded and quoted again so that escapes compare equal.
func duplicateKey(b []byte) string {
	seen := map[string]bool{}
	dup := ""
	objectKeys(b, func(raw []byte) {
		var k string
		if json.Unmarshal(raw, &k) != nil || dup != "" {
			return
		}
		if seen[k] {
			dup = quote(k)
		}
		seen[k] = true
	})
	return dup
}

// decodeLeaf decodes a string, number, true, false or null that
// encoding/json has found valid in the value holding it: without
// decoding it again when its text says what it is (a string without
// escapes is its own text), which keeps an array of 100,000 strings from
// costing 100,000 decodings.
func decodeLeaf(b []byte) (any, error) {
	switch {
	case b[0] == '"' && bytes.IndexByte(b, '\\') < 0 && utf8.Valid(b):
		return string(b[1 : len(b)-1]), nil
	case b[0] == '-' || b[0] >= '0' && b[0] <= '9':
		return json.Number(b), nil
	case string(b) == "true":
		return true, nil
	case string(b) == "false":
		return false, nil
	case string(b) == "null":
		return nil, nil
	}
	var v any // a string with escapes (or invalid UTF-8, made U+FFFD)
	err := json.Unmarshal(b, &v)
	return v, err
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

// A Call is one tool call ready to run: its arguments validated, coerced
// and checked against the policy, its command line built, nothing started.
// Make one with [Runner.Prepare]. The caller decides what happens next on
// this value: whether the call may run (the approval of a tool whose
// Tool.Confirm is set is the caller's to ask for), and what to tell while
// it waits for a slot ([Call.TrySlot], [Call.WaitSlot]); then [Call.Run]
// runs it. A Call runs at most once and is not safe for concurrent use.
type Call struct {
	// Tool is the tool called.
	Tool *config.ResolvedTool
	// Args are the call's arguments as the caller sent them.
	Args map[string]any
	// Command is the command line that runs.
	Command *Command

	r       *Runner
	release func() // set while the call holds a slot
}

// Prepare validates args for rt ([Validate]), coerces them and builds the
// command line ([Build]) into a [Call]. args holds JSON-decoded values
// (float64 or json.Number for numbers); nil means no arguments. On
// failure the Outcome is the answer (IsError set, no Argv) and the Call
// is nil. Argument names the tool does not have are listed in the
// Result's IgnoredArgs, or, with [WithStrictArgs], refused with the other
// validation problems.
func (r *Runner) Prepare(rt *config.ResolvedTool, args map[string]any) (c *Call, refused Outcome) {
	defer func() {
		if p := recover(); p != nil {
			c, refused = nil, Outcome{Text: fmt.Sprintf("Internal error: %v", p), IsError: true}
		}
	}()
	cmd, err := prepare(rt, args, r.strictArgs)
	if err != nil {
		return nil, Outcome{Text: err.Error(), IsError: true}
	}
	return &Call{Tool: rt, Args: args, Command: cmd, r: r}, Outcome{}
}

// Refuse is the Outcome of c when it does not run: text says why;
// cancelled tells that the call was cancelled before its command started.
func (c *Call) Refuse(text string, cancelled bool) Outcome {
	return Outcome{Text: text, IsError: true, Argv: c.Command.Redacted(), Cancelled: cancelled}
}

// TrySlot takes a slot for c's command when one is free
// ([WithMaxConcurrent]) and reports whether c holds one.
func (c *Call) TrySlot() bool {
	if c.release != nil {
		return true
	}
	if c.r.slots == nil { // the zero Runner
		c.release = func() {}
		return true
	}
	select {
	case c.r.slots <- struct{}{}:
		c.release = c.r.freeSlot
		return true
	default:
		return false
	}
}

// WaitSlot waits for a slot for c's command. It fails with a
// [StartError] when ctx ends first.
func (c *Call) WaitSlot(ctx context.Context) error {
	if c.TrySlot() {
		return nil
	}
	select {
	case c.r.slots <- struct{}{}:
		c.release = c.r.freeSlot
		return nil
	case <-ctx.Done():
		return &StartError{Msg: fmt.Sprintf("Cancelled: %s did not start (%v)", c.Tool.Tool.Name, context.Cause(ctx)), Err: ctx.Err()}
	}
}

func (r *Runner) freeSlot() { <-r.slots }

// Run runs c's command, waiting for a slot first when it holds none, and
// formats the result: a [StartError]'s message (program not found,
// missing working directory, cancelled while waiting for a slot) or the
// result text ([Result.Text]), with IsError set for every failure
// including an exit code the tool does not count as success (config
// success_exit_codes), a timeout and a cancellation. It frees the slot.
func (c *Call) Run(ctx context.Context) (out Outcome) {
	argv := c.Command.Redacted()
	defer func() {
		if p := recover(); p != nil {
			out = Outcome{Text: fmt.Sprintf("Internal error: %v", p), IsError: true, Argv: argv}
		}
	}()
	if err := c.WaitSlot(ctx); err != nil {
		return Outcome{Text: err.Error(), IsError: true, Argv: argv, Cancelled: true}
	}
	defer func() {
		c.release()
		c.release = nil
	}()
	res, err := c.r.Run(ctx, c.Command)
	if err != nil {
		return Outcome{Text: err.Error(), IsError: true, Argv: argv}
	}
	res.IgnoredArgs, res.IgnoredArgsOmitted = UnknownArgs(c.Tool.Tool, c.Args)
	return Outcome{Text: res.Text(), IsError: res.Failed(), Result: res, Argv: argv}
}

// Call prepares a call of rt with args ([Runner.Prepare]) and runs it
// ([Call.Run]), for callers that cannot ask anyone for approval: a call of
// a tool that needs approval (Tool.Confirm) is refused. Every failure is
// an Outcome with IsError set; Call never panics on bad input.
func (r *Runner) Call(ctx context.Context, rt *config.ResolvedTool, args map[string]any) Outcome {
	c, refused := r.Prepare(rt, args)
	if c == nil {
		return refused
	}
	if rt.Confirm {
		return c.Unapproved()
	}
	return c.Run(ctx)
}

// Unapproved is the Outcome of c, a call of a tool that needs approval
// (Tool.Confirm), when its caller cannot ask anyone for it.
func (c *Call) Unapproved() Outcome {
	return c.Refuse(fmt.Sprintf("%s needs the user's approval before it runs, and this caller cannot ask for it: the command did not run.", c.Tool.Tool.Name), false)
}
