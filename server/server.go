// Package server serves a CLImax tool set over MCP (go-sdk): discovery or
// classic mode, over stdio or streamable HTTP.
//
//	ix, _, _ := index.New(configs, policy)
//	srv := server.New(ix, executor.New(), server.WithVersion("1.2.3"))
//	err := srv.ServeStdio(ctx, os.Stdin, os.Stdout)
//
// # Modes
//
// In discovery mode (the default) tools/list holds exactly climax_search
// and climax_call, as [metatools.Definitions] gives them. With
// [WithClassic] it holds every tool of the index, in load order, with its
// own input schema and description, and no meta-tools. Calling a name that
// is not listed returns an isError result "Unknown tool: NAME" (not the
// JSON-RPC error go-sdk would give).
//
// # Results
//
// Every failure is a tool result with isError set, never a protocol
// error: bad arguments (including arguments that are not a JSON object),
// unknown tools, validation and policy errors, non-zero exits, timeouts.
// When a command ran, the result carries the executor's [executor.Result]
// as structuredContent beside the text. No output schema is declared, so
// clients do not validate it.
//
// # Long calls
//
// A cancelled request (notifications/cancelled) cancels the context given
// to the executor, which kills the command's process group. A request with
// a progress token gets a progress notification every second while its
// command waits for a slot or runs. At most [WithMaxConcurrent] commands
// run at once; further calls wait.
package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
	"github.com/climax-mcp/climax/metatools"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Name is the server name reported at initialize.
const Name = "climax"

// DiscoveryInstructions are the instructions sent at initialize in
// discovery mode.
const DiscoveryInstructions = "This server runs command-line tools. Find the right tool with climax_search (call it with no arguments for an overview of the available CLIs), then run it with climax_call, passing its tool_name and args as its input_schema describes."

// progressInterval is how often progress notifications are sent.
const progressInterval = time.Second

// Server serves one tool index over MCP.
type Server struct {
	ix     *index.Index
	runner *executor.Runner
	cfg    options
	meta   *metatools.Tools
	log    *slog.Logger
	mcp    *mcp.Server
	order  map[string]int // listed tool name → position in tools/list
	sem    chan struct{}  // one token per running command
}

type options struct {
	classic       bool
	maxConcurrent int
	logger        *slog.Logger
	name, version string
}

// An Option configures a [Server].
type Option func(*options)

// WithClassic lists every tool directly instead of the two meta-tools.
func WithClassic(classic bool) Option { return func(c *options) { c.classic = classic } }

// WithMaxConcurrent bounds the number of commands running at once; calls
// beyond it wait. n <= 0 keeps the default, [DefaultMaxConcurrent].
func WithMaxConcurrent(n int) Option { return func(c *options) { c.maxConcurrent = n } }

// WithLogger sets the logger (default: discard).
func WithLogger(l *slog.Logger) Option { return func(c *options) { c.logger = l } }

// WithVersion sets the server version reported at initialize.
func WithVersion(v string) Option { return func(c *options) { c.version = v } }

// DefaultMaxConcurrent returns the default bound on concurrently running
// commands: twice GOMAXPROCS, at least 8 (commands mostly wait on I/O).
func DefaultMaxConcurrent() int { return max(8, 2*runtime.GOMAXPROCS(0)) }

// New returns a server for ix that runs commands with runner.
func New(ix *index.Index, runner *executor.Runner, opts ...Option) *Server {
	s := &Server{ix: ix, runner: runner, cfg: options{name: Name, version: "devel"}}
	for _, o := range opts {
		o(&s.cfg)
	}
	if s.cfg.maxConcurrent <= 0 {
		s.cfg.maxConcurrent = DefaultMaxConcurrent()
	}
	s.log = s.cfg.logger
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.meta = metatools.New(ix, runner)
	s.sem = make(chan struct{}, s.cfg.maxConcurrent)

	var defs []metatools.Definition
	instructions := ""
	if s.cfg.classic {
		defs = metatools.ClassicDefinitions(ix)
	} else {
		defs = metatools.Definitions()
		instructions = DiscoveryInstructions
	}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: s.cfg.name, Version: s.cfg.version}, &mcp.ServerOptions{
		Instructions: instructions,
		Logger:       s.log.With("component", "go-sdk"),
		PageSize:     max(mcp.DefaultPageSize, len(defs)+1),
		// The tool list never changes; no logging capability.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
	})
	s.order = make(map[string]int, len(defs))
	for i, d := range defs {
		s.order[d.Name] = i
		s.mcp.AddTool(&mcp.Tool{Name: d.Name, Description: d.Description, InputSchema: d.InputSchema}, s.handler(d.Name))
	}
	s.mcp.AddReceivingMiddleware(s.middleware, lifetimeMiddleware)
	return s
}

// MCP returns the go-sdk server holding the tools, for transports other
// than stdio (for example mcp.NewStreamableHTTPHandler). It is shared: the
// same value on every call.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Classic reports whether the server lists every tool directly.
func (s *Server) Classic() bool { return s.cfg.classic }

// handler returns the tools/call handler of one listed tool.
func (s *Server) handler(name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, problem := decodeArgs(req.Params.Arguments)
		if problem != "" {
			s.log.Info("call rejected", "tool", name, "error", oneLine(problem))
			return errorResult(problem), nil
		}
		switch {
		case s.cfg.classic:
			rt, ok := s.ix.Get(name)
			if !ok { // cannot happen: listed tools come from the index
				return errorResult("Unknown tool: " + name), nil
			}
			return s.run(ctx, req, rt, args, name), nil
		case name == metatools.SearchName:
			out := s.meta.Search(args)
			s.log.Info("search", "args", shorten(string(req.Params.Arguments)), "is_error", out.IsError)
			return toResult(out), nil
		default: // climax_call
			rt, toolArgs, err := s.meta.Resolve(args)
			if err != nil {
				s.log.Info("call rejected", "tool", name, "tool_name", shorten(fmt.Sprint(args["tool_name"])), "error", oneLine(err.Error()))
				return errorResult(err.Error()), nil
			}
			return s.run(ctx, req, rt, toolArgs, name), nil
		}
	}
}

// run runs one tool call through the executor, within the concurrency
// bound, sending progress while it waits and runs.
func (s *Server) run(ctx context.Context, req *mcp.CallToolRequest, rt *config.ResolvedTool, args map[string]any, via string) *mcp.CallToolResult {
	tool := rt.Tool.Name
	start := time.Now()
	var mu sync.Mutex
	state := "waiting to run " + tool
	setState := func(st string) { mu.Lock(); state = st; mu.Unlock() }
	stop := s.progress(ctx, req, func() string { mu.Lock(); defer mu.Unlock(); return state }, start)
	defer stop()

	select {
	case s.sem <- struct{}{}:
	default:
		s.log.Debug("waiting for a free command slot", "tool", tool, "max_concurrent", cap(s.sem))
		select {
		case s.sem <- struct{}{}:
		case <-ctx.Done():
			s.log.Info("call cancelled while waiting", "tool", tool, "via", via)
			return errorResult(fmt.Sprintf("Cancelled: %s did not start (%v)", tool, context.Cause(ctx)))
		}
	}
	defer func() { <-s.sem }()
	setState("running " + tool)

	out := s.runner.Call(ctx, rt, args)
	attrs := []any{"tool", tool, "via", via}
	if out.Argv != nil {
		attrs = append(attrs, "argv", shortenArgv(out.Argv))
	}
	attrs = append(attrs, "is_error", out.IsError)
	if out.Result != nil {
		attrs = append(attrs, "exit_code", out.Result.ExitCode, "timed_out", out.Result.TimedOut, "duration_ms", out.Result.DurationMS)
	} else {
		attrs = append(attrs, "error", oneLine(out.Text), "duration_ms", time.Since(start).Milliseconds())
	}
	s.log.Info("call", attrs...)
	return toResult(out)
}

// progress sends a progress notification every progressInterval until the
// returned stop function is called, when the request carries a progress
// token. stop waits for the sender to finish, so that no notification
// follows the response.
func (s *Server) progress(ctx context.Context, req *mcp.CallToolRequest, state func() string, start time.Time) (stop func()) {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(progressInterval)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				elapsed := time.Since(start)
				err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: token,
					Progress:      elapsed.Seconds(),
					Message:       fmt.Sprintf("%s (%ds)", state(), int(elapsed/time.Second)),
				})
				if err != nil {
					s.log.Debug("progress notification failed", "error", err)
				}
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// middleware answers what go-sdk would answer differently from the
// contract: a call of an unlisted tool (go-sdk: a JSON-RPC error) and the
// order of tools/list (go-sdk: sorted by name).
func (s *Server) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "tools/call":
			if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil {
				if _, listed := s.order[r.Params.Name]; !listed {
					s.log.Info("call rejected", "tool", shorten(r.Params.Name), "error", "unknown tool")
					return errorResult(s.unknownTool(r.Params.Name)), nil
				}
			}
		case "tools/list":
			res, err := next(ctx, method, req)
			if lr, ok := res.(*mcp.ListToolsResult); ok && err == nil && lr.NextCursor == "" {
				slices.SortStableFunc(lr.Tools, func(a, b *mcp.Tool) int { return s.order[a.Name] - s.order[b.Name] })
			}
			return res, err
		}
		return next(ctx, method, req)
	}
}

// unknownTool is the text of a call of a name that tools/list does not
// hold.
func (s *Server) unknownTool(name string) string {
	text := "Unknown tool: " + name
	if !s.cfg.classic {
		if _, ok := s.ix.Get(name); ok {
			return text + fmt.Sprintf("\n%s is not listed directly: run it with %s (tool_name %q).", name, metatools.CallName, name)
		}
		return text + fmt.Sprintf("\nThis server lists only %s and %s: find tools with %s, then run them with %s.",
			metatools.SearchName, metatools.CallName, metatools.SearchName, metatools.CallName)
	}
	if sug := metatools.Suggestions(name, s.ix.Names()); len(sug) > 0 {
		text += "\nDid you mean: " + strings.Join(sug, ", ") + "?"
	}
	return text
}

// decodeArgs decodes tools/call arguments: absent or null is nil, an
// object is a map (numbers as json.Number). Anything else gives the text
// of the error result instead.
func decodeArgs(raw json.RawMessage) (map[string]any, string) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, ""
	}
	if raw[0] != '{' {
		return nil, argumentError(fmt.Sprintf("Arguments must be a JSON object (got %s)", jsonKind(raw[0])))
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var args map[string]any
	if err := dec.Decode(&args); err != nil {
		return nil, argumentError(fmt.Sprintf("Arguments are not valid JSON: %v", err))
	}
	return args, ""
}

// argumentError is the text of an argument validation error with one
// problem.
func argumentError(problem string) string {
	return (&executor.ValidationError{Problems: []string{problem}}).Error()
}

func jsonKind(first byte) string {
	switch first {
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	default:
		return "number"
	}
}

func toResult(out executor.Outcome) *mcp.CallToolResult {
	r := &mcp.CallToolResult{IsError: out.IsError, Content: []mcp.Content{&mcp.TextContent{Text: out.Text}}}
	if out.Result != nil {
		r.StructuredContent = out.Result
	}
	return r
}

func errorResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// oneLine puts a (possibly multi-line) message on one log line.
func oneLine(s string) string {
	return shorten(strings.Join(strings.Fields(s), " "))
}

// maxLogValue is the length beyond which logged values are shortened.
const maxLogValue = 200

// shorten cuts s to about maxLogValue bytes, saying how long it was.
func shorten(s string) string {
	if len(s) <= maxLogValue {
		return s
	}
	cut := maxLogValue
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s…(%d bytes)", s[:cut], len(s))
}

// shortenArgv shortens each long argument, and the list itself.
func shortenArgv(argv []string) []string {
	const maxArgs = 50
	out := make([]string, 0, min(len(argv), maxArgs+1))
	for i, a := range argv {
		if i == maxArgs {
			out = append(out, fmt.Sprintf("…(%d more)", len(argv)-maxArgs))
			break
		}
		out = append(out, shorten(a))
	}
	return out
}
