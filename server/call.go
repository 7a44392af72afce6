package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index/config"
	"github.com/climax-mcp/climax/metatools"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A call's path (docs/README.md, A call's path): the handler decodes the
// arguments and has the executor prepare the call (validate, coerce,
// policy, argv) into an [executor.Call]; runCall decides on that value
// (the user's approval, a slot, the progress it tells meanwhile), runs
// it, then logs and records the outcome. Nothing calls back up.

// infoKey is the context key of a request's *reqInfo.
type infoKey struct{}

// A reqInfo is what the server knows of a request beyond its message. The
// transport that serves a session (ServeStdio, the HTTP guard) puts one
// in the session's context, whose values go-sdk gives the session's
// requests; [Server.middleware] completes a copy for each tools/call.
type reqInfo struct {
	transport string          // "stdio" or "http"; "" for a session connected otherwise
	lt        *lifetime       // the requests' lifetime; nil: none
	stateless bool            // streamable HTTP without sessions: calls cannot send the client requests
	ended     context.Context // done when the session's client can no longer answer; nil: never

	// Of a tools/call, from the middleware:
	req   *mcp.CallToolRequest
	set   *toolSet  // the tool set the call was checked against
	start time.Time // when the call came in
}

// withInfo returns ctx carrying ri.
func withInfo(ctx context.Context, ri *reqInfo) context.Context {
	return context.WithValue(ctx, infoKey{}, ri)
}

// infoFrom returns the reqInfo of ctx; a zero one when it has none.
func infoFrom(ctx context.Context) *reqInfo {
	if ri, ok := ctx.Value(infoKey{}).(*reqInfo); ok {
		return ri
	}
	return &reqInfo{}
}

// toolsFor returns the tool set a tools/call request was checked against,
// so that a call uses one set from start to end even when [Server.Replace]
// runs meanwhile; else the set calls see now.
func (s *Server) toolsFor(ctx context.Context) *toolSet {
	if set := infoFrom(ctx).set; set != nil {
		return set
	}
	return s.tools()
}

// callHandler answers climax_call.
func (s *Server) callHandler(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	ri := infoFrom(ctx)
	args, err := executor.DecodeArgs(req.Params.Arguments)
	if err != nil {
		s.log.Info("call rejected", "tool", metatools.CallName, "error", oneLine(err.Error()))
		s.record(ri, callRecord{via: metatools.CallName, out: executor.Outcome{Text: err.Error(), IsError: true}})
		return errorResult(err.Error()), nil
	}
	set := s.toolsFor(ctx)
	toolArgs := args["args"]
	c, prepared := set.meta.Prepare(args)
	if prepared.Tool == "" {
		// Refused before a tool was chosen: no or an unknown tool_name,
		// or args that are not an object.
		name, _ := args["tool_name"].(string)
		rt, _ := set.ix.Get(strings.TrimSpace(name)) // as climax_call reads it
		shown := sentToolName(args["tool_name"])
		s.log.Info("call rejected", "tool", metatools.CallName, "tool_name", shorten(shown), "error", oneLine(prepared.Text))
		s.record(ri, callRecord{rt: rt, tool: shown, via: metatools.CallName, args: toolArgs, out: prepared.Outcome})
		return toResult(prepared.Outcome), nil
	}
	rt, _ := set.ix.Get(prepared.Tool)
	p := pendingCall{rt: rt, via: metatools.CallName, args: toolArgs, call: c, refused: prepared.Outcome}
	if c != nil {
		p.finish = func(out executor.Outcome) executor.Outcome { return set.meta.Finish(c, args, out) }
	}
	return s.runCall(ctx, p), nil
}

// sentToolName is how the log and the audit log show the tool_name a
// climax_call gave: the name itself, "" when there was none, else the
// value as JSON (5.5, {"a":1}), so that a wrong type reads as what was
// sent.
func sentToolName(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%T", v)
	}
	return string(b)
}

// classicHandler answers a call of the tool name listed directly (classic
// mode), through the same path as climax_call, with the tool's definition
// in the set the call was checked against.
func (s *Server) classicHandler(name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ri := infoFrom(ctx)
		set := s.toolsFor(ctx)
		rt, ok := set.ix.Get(name)
		if !ok {
			return errorResult(set.meta.Unlisted(name, true)), nil
		}
		args, err := executor.DecodeArgs(req.Params.Arguments)
		if err != nil {
			s.log.Info("call rejected", "tool", name, "error", oneLine(err.Error()))
			s.record(ri, callRecord{rt: rt, tool: name, via: name, out: executor.Outcome{Text: err.Error(), IsError: true}})
			return errorResult(err.Error()), nil
		}
		c, refused := s.runner.Prepare(rt, args)
		return s.runCall(ctx, pendingCall{rt: rt, via: name, args: args, call: c, refused: refused}), nil
	}
}

// A pendingCall is a call of a served tool as a handler hands it to
// runCall.
type pendingCall struct {
	rt      *config.ResolvedTool
	via     string                                  // the tool name called: climax_call or the tool's own
	args    any                                     // the tool's arguments as sent, for the audit log
	call    *executor.Call                          // nil when preparing it failed
	refused executor.Outcome                        // the answer when call is nil
	finish  func(executor.Outcome) executor.Outcome // completes the outcome of a call that ran; nil: none
}

// runCall decides on a prepared call and runs it ([Server.execute]), then
// logs and records its outcome. A call that failed to prepare is only
// logged and recorded.
func (s *Server) runCall(ctx context.Context, p pendingCall) *mcp.CallToolResult {
	ri := infoFrom(ctx)
	s.metrics.inFlight.Inc()
	defer s.metrics.inFlight.Dec()
	out := p.refused
	var ap *approval
	if p.call != nil {
		out, ap = s.execute(ctx, ri.req, p.call)
		if ap.input != nil {
			return ap.input
		}
		if p.finish != nil {
			out = p.finish(out)
		}
	}
	s.logCall(p.rt, p.via, out)
	s.record(ri, callRecord{rt: p.rt, tool: p.rt.Tool.Name, via: p.via, args: p.args, out: out, approval: ap})
	return toResult(out)
}

// execute decides whether c may run, asking the user when its tool needs
// approval, waits for a slot to run it, telling the client what it waits
// for in progress notifications, and runs it.
func (s *Server) execute(ctx context.Context, req *mcp.CallToolRequest, c *executor.Call) (executor.Outcome, *approval) {
	tool := c.Tool.Tool.Name
	hb := s.progress(ctx, req, tool)
	defer hb.stop()
	ap := s.newApproval(req, hb, c.Args)
	if c.Tool.Confirm {
		if err := ap.confirm(ctx, c.Tool, c.Command); err != nil {
			return c.Refuse(err.Error(), ctx.Err() != nil), ap
		}
	}
	if !c.TrySlot() {
		hb.set("waiting for a free slot to run " + tool)
		if err := c.WaitSlot(ctx); err != nil {
			return c.Refuse(err.Error(), true), ap
		}
		hb.set("running " + tool)
	}
	return c.Run(ctx), ap
}

// logCall logs one call of rt that reached the executor; its argv shows
// the values of secret arguments as "***" ([executor.Command.Redacted]).
func (s *Server) logCall(rt *config.ResolvedTool, via string, out executor.Outcome) {
	attrs := []any{"tool", rt.Tool.Name, "via", via}
	if out.Argv != nil {
		attrs = append(attrs, "argv", shortenArgv(out.Argv))
	}
	attrs = append(attrs, "is_error", out.IsError)
	if out.Result != nil {
		attrs = append(attrs, "exit_code", out.Result.ExitCode, "timed_out", out.Result.TimedOut, "duration_ms", out.Result.DurationMS)
	} else {
		attrs = append(attrs, "error", oneLine(out.Text))
	}
	s.log.Info("call", attrs...)
}
