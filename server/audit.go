package server

import (
	"encoding/json"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index/config"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Outcomes of a tool call, as the audit log and the metrics name them.
const (
	OutcomeOK        = "ok"        // the command ran and succeeded
	OutcomeError     = "error"     // the command failed, or could not start
	OutcomeRefused   = "refused"   // nothing ran: unknown tool, invalid arguments, policy, not approved
	OutcomeTimeout   = "timeout"   // the command was killed at its timeout
	OutcomeCancelled = "cancelled" // the client cancelled the call
)

// redacted replaces the value of an argument marked secret.
const redacted = "***"

// callOutcome classifies a finished call.
func callOutcome(out executor.Outcome) string {
	switch {
	case out.Result == nil && out.Argv == nil:
		return OutcomeRefused
	case out.Cancelled:
		return OutcomeCancelled
	case out.Result == nil:
		return OutcomeError
	case out.Result.TimedOut:
		return OutcomeTimeout
	case out.Result.Cancelled():
		return OutcomeCancelled
	case out.IsError:
		return OutcomeError
	}
	return OutcomeOK
}

// An auditRecord is one line of the audit log: one tool call.
type auditRecord struct {
	Time        string   `json:"time"`
	Transport   string   `json:"transport"`
	Session     string   `json:"session,omitempty"`
	Tool        string   `json:"tool"`
	Via         string   `json:"via"`
	Args        any      `json:"args"`
	Argv        []string `json:"argv,omitempty"`
	Outcome     string   `json:"outcome"`
	ExitCode    *int     `json:"exit_code,omitempty"`
	TimedOut    bool     `json:"timed_out"`
	Cancelled   bool     `json:"cancelled"`
	DurationMS  int64    `json:"duration_ms"`
	OutputBytes int      `json:"output_bytes"`
	Error       string   `json:"error,omitempty"`
	Approval    string   `json:"approval,omitempty"`
}

// auditLog appends one JSON line per call to a writer, each line written
// whole with one Write.
type auditLog struct {
	mu sync.Mutex
	w  io.Writer
}

// write appends rec; a failure is returned for the caller to log.
func (a *auditLog) write(rec *auditRecord) error {
	line, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	a.mu.Lock()
	defer a.mu.Unlock()
	_, err = a.w.Write(line)
	return err
}

// record counts one finished call in the metrics and writes it to the
// audit log when there is one. rt is the tool the call was for (nil when
// it names no tool), args the tool's arguments as the caller sent them, ap
// the call's approval (nil when the call never got that far).
func (s *Server) record(req *mcp.CallToolRequest, rt *config.ResolvedTool, tool, via string, args any, out executor.Outcome, ap *approval, start time.Time) {
	outcome := callOutcome(out)
	if ap != nil && ap.refused {
		outcome = OutcomeRefused
	}
	label := unknownToolLabel
	if rt != nil {
		label = rt.Tool.Name
	}
	s.metrics.calls.WithLabelValues(label, outcome).Inc()
	s.metrics.callDuration.WithLabelValues(label).Observe(time.Since(start).Seconds())
	if s.cfg.audit == nil {
		return
	}
	rec := &auditRecord{
		Time:       start.UTC().Format(time.RFC3339Nano),
		Transport:  "stdio",
		Tool:       shorten(tool),
		Via:        via,
		Args:       redactArgs(rt, args),
		Argv:       out.Argv,
		Outcome:    outcome,
		DurationMS: time.Since(start).Milliseconds(),
	}
	if ap != nil {
		rec.Approval = ap.state
	}
	if req.Extra != nil && req.Extra.Header != nil || s.overHTTP.Load() {
		rec.Transport = "http" // the SSE transport passes no headers
	}
	if req.Session != nil {
		rec.Session = req.Session.ID()
	}
	if res := out.Result; res != nil {
		code := res.ExitCode
		rec.ExitCode = &code
		rec.TimedOut = res.TimedOut
		rec.Cancelled = res.Cancelled()
		rec.DurationMS = res.DurationMS
		rec.OutputBytes = len(res.Stdout) + len(res.Stderr)
	} else {
		rec.Cancelled = out.Cancelled
		rec.Error = out.Text
	}
	if err := s.cfg.audit.write(rec); err != nil {
		s.log.Error("audit log write failed", "error", err, "tool", tool)
	}
}

// redactArgs returns the arguments of a call as the audit log shows them:
// an object copied with the value of every secret argument of rt replaced
// by "***", and so the value of a name that is not an argument but
// probably stands for a secret one (Token or tokn for token): a mistyped
// name does not make a secret public. No arguments are an empty object;
// arguments that are not an object (which are refused) are shown as sent,
// or as "***" when the tool has a secret argument.
func redactArgs(rt *config.ResolvedTool, sent any) any {
	if sent == nil {
		return map[string]any{}
	}
	args, ok := sent.(map[string]any)
	if !ok {
		if rt != nil && slices.ContainsFunc(rt.Tool.Args, func(a config.Arg) bool { return a.Secret }) {
			return redacted
		}
		return sent
	}
	out := make(map[string]any, len(args))
	for k, v := range args {
		if secretArg(rt, k) != nil {
			v = redacted
		}
		out[k] = v
	}
	return out
}

// secretArg returns rt's argument name, or the argument name probably
// stands for when rt has none of that name, when it is marked secret.
func secretArg(rt *config.ResolvedTool, name string) *config.Arg {
	if rt == nil {
		return nil
	}
	a := rt.Tool.Arg(name)
	if a == nil {
		a = rt.Tool.Arg(executor.SuggestArg(rt.Tool, name))
	}
	if a != nil && a.Secret {
		return a
	}
	return nil
}
