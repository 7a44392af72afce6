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
// and climax_call, as [metatools.DefinitionsFor] gives them (with
// annotations that fit the index). With [WithClassic] it holds every tool
// of the index, in load order, with its own input schema, description and
// annotations, and no meta-tools. Calling a name that
// is not listed returns an isError result "Unknown tool: NAME" (not the
// JSON-RPC error go-sdk would give).
//
// # Results
//
// Every failure is a tool result with isError set, never a protocol
// error: bad arguments (including arguments that are not a JSON object),
// unknown tools, validation and policy errors, non-zero exits, timeouts.
// When a command ran, the result carries the executor's [executor.Result]
// as structuredContent beside the text; a climax_search answer carries
// its JSON as structuredContent when the call gave keys climax_search does
// not have (it lists them in ignored_args). No output schema is declared,
// so clients do not validate it.
//
// # Long calls
//
// A cancelled request (notifications/cancelled) cancels the context given
// to the executor, which kills the command's process group. A request with
// a progress token gets a progress notification every second while its
// command waits for a slot or runs. At most [executor.WithMaxConcurrent] commands
// run at once; further calls wait.
//
// # Approval
//
// A call of a tool that needs the user's approval (its
// [config.ResolvedTool].Confirm, from --confirm and the policy) is asked
// about once its command line is built and before it starts, through MCP
// elicitation: in the answer to the call for clients on protocol
// 2026-07-28 (which retry the call with the user's answer and a signed,
// single-use request state bound to the command), by an
// elicitation/create request while the call waits for older ones. The
// version is the one agreed: initialize always agrees on an older one. A
// client that cannot be asked gets an isError result, unless
// [WithConfirmFallback] lets the call run unapproved; a question still
// waiting when the session ends (stdio input, HTTP session or SSE stream)
// refuses the call at once. docs/security.md says what this guarantees.
package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/metatools"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Name is the server name reported at initialize.
const Name = "climax"

// DiscoveryInstructions are the instructions sent at initialize in
// discovery mode.
const DiscoveryInstructions = "This server runs command-line tools. Find the right tool with climax_search (call it with no arguments for an overview of the available CLIs, 10 at a time unless you pass a larger limit or an offset; pass cwd, your project's directory, to rank the tools of its build system and version control first), then run it with climax_call, passing its tool_name and args as its input_schema describes."

// progressInterval is how often progress notifications are sent.
const progressInterval = time.Second

// Server serves one tool index over MCP. [Server.Replace] swaps the index
// while it serves.
type Server struct {
	runner *executor.Runner
	cfg    options
	mcp    *mcp.Server
	log    *slog.Logger

	mu  sync.Mutex              // serialises Replace
	set atomic.Pointer[toolSet] // what calls see now

	metrics   *metrics
	approvals *approvals  // request states of approvals asked through input requests
	notReady  atomic.Bool // the last readiness check failed (logged when it changes)
}

// toolSet is one generation of the served tools.
type toolSet struct {
	ix     *index.Index
	meta   *metatools.Tools
	order  map[string]int // listed tool name -> position in tools/list
	listed []*mcp.Tool    // the tools/list entries, in order
}

type options struct {
	classic     bool
	listChanged bool
	audit       *auditLog
	logger      *slog.Logger
	name        string
	version     string
	// ticker starts the clock of progress notifications (tests replace
	// it): its channel and a function that stops it.
	ticker func() (<-chan time.Time, func())

	confirmTimeout       time.Duration
	confirmFallbackAllow bool
	confirmFallbackSet   bool   // WithConfirmFallback was given: it wins over the policy's headless
	confirmVia           string // one of the Via constants; "" is ViaClient
	approvalKeys         [][]byte
	unserved             []string // see WithUnservedConfigs
}

// Option configures a [Server].
type Option func(*options)

// WithClassic lists every tool directly instead of the two meta-tools.
func WithClassic(classic bool) Option { return func(c *options) { c.classic = classic } }

// WithLogger sets the logger (default: discard).
func WithLogger(l *slog.Logger) Option { return func(c *options) { c.logger = l } }

// WithListChanged declares the tools.listChanged capability, for a server
// whose tools [Server.Replace] may change: clients then get
// notifications/tools/list_changed whenever Replace changes the
// tools/list they see (in either mode). Without it nothing is sent.
func WithListChanged(on bool) Option { return func(c *options) { c.listChanged = on } }

// WithAuditLog appends one JSON line per tool call to w (see
// docs/operations.md for its fields). Each line is written whole with one
// Write, from a goroutine of the server's: a call never waits for w, and
// when w falls behind by more than a few hundred records, further records
// are dropped, counted (the climax_audit_records_dropped_total metric)
// and announced by a line in the log once w takes writes again. A failed
// write is logged and never fails the call. [Server.FlushAudit] waits for
// the records queued.
func WithAuditLog(w io.Writer) Option {
	return func(c *options) {
		c.audit = nil
		if w != nil {
			c.audit = newAuditLog(w)
		}
	}
}

// FlushAudit waits until the audit records of the calls that ended so far
// are written, at most timeout, and reports whether they were (true
// without an audit log). A server that stops calls it before closing the
// log's file; a writer that stalls (a FIFO nobody reads) makes it give up
// after timeout.
func (s *Server) FlushAudit(timeout time.Duration) bool {
	if s.cfg.audit == nil {
		return true
	}
	return s.cfg.audit.flush(timeout)
}

// WithUnservedConfigs names configs that exist but that the server was
// not started with (climax passes its bundled configs missing from its
// command line): climax_search says so when a query names one
// ([metatools.WithUnservedConfigs]).
func WithUnservedConfigs(names []string) Option {
	return func(c *options) { c.unserved = slices.Clone(names) }
}

// WithVersion sets the version reported at initialize.
func WithVersion(v string) Option { return func(c *options) { c.version = v } }

// New returns a server for ix that runs commands with runner (which also
// bounds how many run at once: [executor.WithMaxConcurrent]).
func New(ix *index.Index, runner *executor.Runner, opts ...Option) *Server {
	s := &Server{runner: runner, cfg: options{name: Name, version: "devel", ticker: progressTicker, confirmTimeout: DefaultConfirmTimeout}}
	for _, o := range opts {
		o(&s.cfg)
	}
	s.approvals = newApprovals(s.cfg.approvalKeys)
	s.log = s.cfg.logger
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	instructions := ""
	if !s.cfg.classic {
		instructions = DiscoveryInstructions
	}
	if needsApproval(ix) {
		instructions = strings.TrimSpace(instructions + " " + confirmInstructions(s.cfg.classic))
	}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: s.cfg.name, Version: s.cfg.version}, &mcp.ServerOptions{
		Instructions: instructions,
		Logger:       s.log.With("component", "go-sdk"),
		// One page: the tools' load order is restored on the whole list.
		PageSize: math.MaxInt32,
		// No logging capability; tools/list_changed only when tools can
		// change.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: s.cfg.listChanged}},
	})
	s.metrics = newMetrics(func() int {
		n := 0
		for range s.mcp.Sessions() {
			n++
		}
		return n
	})
	if a := s.cfg.audit; a != nil {
		a.log, a.dropped = s.log, s.metrics.auditDropped
	}
	s.Replace(ix)
	s.mcp.AddReceivingMiddleware(s.middleware, lifetimeMiddleware)
	return s
}

// Replace makes ix the served tool set and reports whether the tools/list
// clients see changed. Calls already running finish with the definitions
// they started with; later calls, searches and tools/list see ix, also
// when the list stays the same (a policy may change a command's fixed
// words, which no definition shows).
//
// Only when the list changes are the tools registered with go-sdk again,
// which sends notifications/tools/list_changed to every session when
// [WithListChanged] declared the capability: in classic mode when a tool
// comes, goes, moves or changes its definition; in discovery mode when
// the definitions of climax_search and climax_call change (their
// annotations follow the tools behind them).
func (s *Server) Replace(ix *index.Index) (changed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	next := &toolSet{ix: ix, meta: metatools.New(ix, s.runner, metatools.WithUnservedConfigs(s.cfg.unserved),
		metatools.WithUnrunnable(func() []string { return unrunnableCLIs(ix) }))}
	var defs []metatools.Definition
	if s.cfg.classic {
		defs = metatools.ClassicDefinitions(ix)
	} else {
		defs = metatools.DefinitionsFor(ix)
	}
	next.order = make(map[string]int, len(defs))
	next.listed = make([]*mcp.Tool, len(defs))
	for i, d := range defs {
		next.order[d.Name] = i
		next.listed[i] = &mcp.Tool{Name: d.Name, Description: d.Description, InputSchema: d.InputSchema, Meta: d.Meta, Annotations: toolAnnotations(d.Annotations)}
	}
	prev := s.set.Load()
	if prev != nil && sameTools(prev.listed, next.listed) {
		next.listed = prev.listed // what go-sdk holds
		s.set.Store(next)
		return false
	}
	s.set.Store(next)
	if prev != nil {
		var gone []string
		for name := range prev.order {
			if _, ok := next.order[name]; !ok {
				gone = append(gone, name)
			}
		}
		if len(gone) > 0 {
			s.mcp.RemoveTools(gone...)
		}
	}
	for _, t := range next.listed {
		var h mcp.ToolHandler
		switch {
		case s.cfg.classic:
			h = s.classicHandler(t.Name)
		case t.Name == metatools.SearchName:
			h = s.searchHandler
		default:
			h = s.callHandler
		}
		s.mcp.AddTool(t, h)
	}
	return true
}

// sameTools reports whether a and b give the same tools/list: the same
// tools in the same order, each with the same JSON.
func sameTools(a, b []*mcp.Tool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name {
			return false
		}
		ja, errA := json.Marshal(a[i])
		jb, errB := json.Marshal(b[i])
		if errA != nil || errB != nil || !bytes.Equal(ja, jb) {
			return false
		}
	}
	return true
}

// tools returns the tool set calls see now.
func (s *Server) tools() *toolSet { return s.set.Load() }

// searchHandler answers climax_search.
func (s *Server) searchHandler(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args, err := executor.DecodeArgs(req.Params.Arguments)
	if err != nil {
		s.log.Info("search rejected", "error", oneLine(err.Error()))
		return errorResult(err.Error()), nil
	}
	start := time.Now()
	res := s.toolsFor(ctx).meta.Search(args)
	s.metrics.searched(time.Since(start))
	s.log.Info("search", "args", shorten(string(req.Params.Arguments)), "is_error", res.IsError)
	r := &mcp.CallToolResult{IsError: res.IsError, Content: []mcp.Content{&mcp.TextContent{Text: res.Text}}}
	if len(res.IgnoredArgs) > 0 {
		// The answer's JSON, which lists the ignored keys, is also its
		// structured content: where a call's result lists them.
		r.StructuredContent = json.RawMessage(res.Text)
	}
	return r, nil
}

// A heartbeat sends progress notifications while a call waits or runs.
type heartbeat struct {
	what atomic.Pointer[string]
	done func()
}

// set changes what the notifications say the call is doing.
func (h *heartbeat) set(what string) {
	w := shorten(oneLine(what))
	h.what.Store(&w)
}

// stop ends the notifications and waits for the sender to finish, so that
// no notification follows the response.
func (h *heartbeat) stop() {
	if h.done != nil {
		h.done()
	}
}

// progress sends a progress notification ("running TOOL (Ns)", or what
// the heartbeat was last set to) every progressInterval until the
// heartbeat is stopped, when the request carries a progress token; the
// time counts the wait for the user's approval and for a free command
// slot too.
func (s *Server) progress(ctx context.Context, req *mcp.CallToolRequest, tool string) *heartbeat {
	h := &heartbeat{}
	h.set("running " + tool)
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return h
	}
	start := time.Now()
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick, stopTick := s.cfg.ticker()
		defer stopTick()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick:
				elapsed := time.Since(start)
				err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: token,
					Progress:      elapsed.Seconds(),
					Message:       fmt.Sprintf("%s (%ds)", *h.what.Load(), int(elapsed/time.Second)),
				})
				if err != nil {
					s.log.Debug("progress notification failed", "error", err)
				}
			}
		}
	}()
	h.done = func() {
		close(done)
		<-finished
	}
	return h
}

// progressTicker ticks every progressInterval.
func progressTicker() (<-chan time.Time, func()) {
	t := time.NewTicker(progressInterval)
	return t.C, t.Stop
}

// middleware answers what go-sdk would answer differently from
// docs/search.md: a call of an unlisted tool (go-sdk: a JSON-RPC error) and the
// order of tools/list (go-sdk: sorted by name). It also makes the session
// of an initialize remember the protocol version agreed, not the one the
// client asked for: go-sdk answers initialize with an older version than
// 2026-07-28 whatever the client asks, but keeps the version asked for as
// the session's, and would then treat a client that asked for 2026-07-28
// as speaking it (answering its calls with input requests it cannot read,
// and refusing to send it elicitation/create).
func (s *Server) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "initialize":
			if r, ok := req.(*mcp.ServerRequest[*mcp.InitializeParams]); ok && r.Params != nil {
				if v := agreedVersion(r.Params.ProtocolVersion); v != r.Params.ProtocolVersion {
					s.log.Debug("initialize: protocol version agreed", "asked", shorten(r.Params.ProtocolVersion), "agreed", v)
					p := *r.Params
					p.ProtocolVersion = v
					req = &mcp.ServerRequest[*mcp.InitializeParams]{Session: r.Session, Params: &p, Extra: r.Extra}
				}
			}
		case "tools/call":
			if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil {
				ri := *infoFrom(ctx)
				ri.req, ri.set, ri.start = r, s.tools(), time.Now()
				ctx = withInfo(ctx, &ri)
				if _, listed := ri.set.order[r.Params.Name]; !listed {
					s.log.Info("call rejected", "tool", shorten(r.Params.Name), "error", "unknown tool")
					text := ri.set.meta.Unlisted(r.Params.Name, s.cfg.classic)
					args, _ := executor.DecodeArgs(r.Params.Arguments)
					s.record(&ri, callRecord{tool: r.Params.Name, via: r.Params.Name, args: args, out: executor.Outcome{Text: text, IsError: true}})
					return errorResult(text), nil
				}
			}
		case "tools/list":
			res, err := next(ctx, method, req)
			if lr, ok := res.(*mcp.ListToolsResult); ok && err == nil && lr.NextCursor == "" {
				order := s.tools().order
				slices.SortStableFunc(lr.Tools, func(a, b *mcp.Tool) int { return order[a.Name] - order[b.Name] })
			}
			return res, err
		}
		return next(ctx, method, req)
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

// plural returns one when n is 1, else many: "1 item", "2 items".
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
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

// toolAnnotations converts a definition's annotations to go-sdk's; nil
// stays nil (no "annotations" in tools/list).
func toolAnnotations(a *metatools.Annotations) *mcp.ToolAnnotations {
	if a == nil {
		return nil
	}
	isTrue := func(b *bool) bool { return b != nil && *b }
	return &mcp.ToolAnnotations{
		ReadOnlyHint:    isTrue(a.ReadOnlyHint),
		DestructiveHint: a.DestructiveHint,
		IdempotentHint:  isTrue(a.IdempotentHint),
		OpenWorldHint:   a.OpenWorldHint,
	}
}
