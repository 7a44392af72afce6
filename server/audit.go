package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode"

	vm "github.com/VictoriaMetrics/metrics"
	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index/config"
)

// Outcomes of a tool call, as the audit log and the metrics name them.
const (
	OutcomeOK        = "ok"        // the command ran and succeeded
	OutcomeError     = "error"     // the command failed, or could not start
	OutcomeRefused   = "refused"   // nothing ran: unknown tool, invalid arguments, policy, not approved
	OutcomeTimeout   = "timeout"   // the command was killed at its timeout
	OutcomeCancelled = "cancelled" // the client cancelled the call
)

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

// A callRecord is what record counts and writes of one finished call.
type callRecord struct {
	rt       *config.ResolvedTool // the tool the call was for; nil when it names no served tool
	tool     string               // the name it called
	via      string               // the tool name of the request: climax_call or the tool's own
	args     any                  // the tool's arguments as the caller sent them
	out      executor.Outcome
	approval *approval // the call's approval; nil when the call never got that far
}

// record counts one finished call in the metrics and queues its record
// for the audit log when there is one; ri tells the request, its
// transport, the tool set it was checked against and when it came in. The
// arguments are redacted by the definition of the tool of that name in
// the loaded configs, served or not (see redactArgs).
func (s *Server) record(ri *reqInfo, c callRecord) {
	rt, out, ap := c.rt, c.out, c.approval
	start := ri.start
	if start.IsZero() {
		start = time.Now()
	}
	outcome := callOutcome(out)
	if ap != nil && ap.refused {
		outcome = OutcomeRefused
	}
	label := unknownToolLabel
	if rt != nil {
		label = rt.Tool.Name
	}
	s.metrics.called(label, outcome, time.Since(start))
	if s.cfg.audit == nil {
		return
	}
	rec := &auditRecord{
		Time:       start.UTC().Format(time.RFC3339Nano),
		Transport:  ri.transport,
		Tool:       shorten(c.tool),
		Via:        shorten(c.via),
		Args:       redactArgs(definition(ri.set, rt, c.tool), c.args),
		Argv:       shortenArgv(out.Argv),
		Outcome:    outcome,
		DurationMS: time.Since(start).Milliseconds(),
	}
	if ap != nil {
		rec.Approval = ap.state
	}
	if ri.req != nil && ri.req.Session != nil {
		rec.Session = ri.req.Session.ID()
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
		rec.Error = oneLine(out.Text)
	}
	s.cfg.audit.add(rec)
}

// definition returns the definition of the tool a call named: rt's, or
// else that of the tool of that name in set's loaded configs, served or
// not; nil when no config defines it.
func definition(set *toolSet, rt *config.ResolvedTool, name string) *config.Tool {
	if rt != nil {
		return rt.Tool
	}
	if set == nil {
		return nil
	}
	if t, ok := set.ix.Defined(strings.TrimSpace(name)); ok {
		return t
	}
	return nil
}

// Limits of the audit log's writer (docs/operations.md, "Audit log").
const (
	// maxAuditRecord bounds one line: a record longer than this once its
	// values are capped leaves its arguments out, saying so.
	maxAuditRecord = 16 << 10
	// maxAuditQueue is how many lines may wait to be written; beyond it
	// new records are dropped and counted.
	maxAuditQueue = 256
)

// auditLog writes one JSON line per call to a writer from a goroutine of
// its own, so that a slow or stalled writer (a FIFO whose reader stopped
// reading, a full disk on NFS) never holds a call or the server's
// shutdown: records wait in a queue of at most maxAuditQueue lines, and
// records that find it full are dropped, counted in the
// climax_audit_records_dropped_total metric, and announced by a line in
// the log once writing resumes. Each line is written whole with one
// Write; a failed write is logged.
type auditLog struct {
	w       io.Writer
	log     *slog.Logger
	dropped *vm.Counter // nil until the server sets it

	mu      sync.Mutex
	queue   [][]byte
	lost    int           // records dropped since the last line that said so
	writing bool          // the writer goroutine runs
	idle    chan struct{} // closed when the writer goroutine ends
}

func newAuditLog(w io.Writer) *auditLog {
	return &auditLog{w: w, log: slog.New(slog.DiscardHandler)}
}

// add queues rec, or drops it when the queue is full.
func (a *auditLog) add(rec *auditRecord) {
	line, err := marshalRecord(rec)
	if err != nil {
		a.log.Error("audit record not written", "error", err, "tool", rec.Tool)
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.queue) >= maxAuditQueue {
		if a.lost == 0 {
			a.log.Warn("audit log: records dropped: the log is not written as fast as calls end (a stalled FIFO reader, a slow disk); the log will say how many", "queue", maxAuditQueue)
		}
		a.lost++
		if a.dropped != nil {
			a.dropped.Inc()
		}
		return
	}
	a.queue = append(a.queue, line)
	if !a.writing {
		a.writing = true
		a.idle = make(chan struct{})
		go a.drain()
	}
}

// drain writes the queued lines until the queue is empty, then a line
// saying how many records were dropped meanwhile, if any.
func (a *auditLog) drain() {
	for {
		a.mu.Lock()
		batch, lost := a.queue, a.lost
		a.queue, a.lost = nil, 0
		if len(batch) == 0 && lost == 0 {
			a.writing = false
			close(a.idle)
			a.mu.Unlock()
			return
		}
		a.mu.Unlock()
		for _, line := range batch {
			a.writeLine(line)
		}
		if lost > 0 {
			line, _ := json.Marshal(droppedRecord{
				Time:    time.Now().UTC().Format(time.RFC3339Nano),
				Dropped: lost,
				Note:    fmt.Sprintf("%d %s dropped: the log was not written as fast as calls ended (at most %d records wait)", lost, plural(lost, "audit record was", "audit records were"), maxAuditQueue),
			})
			a.writeLine(append(line, '\n'))
			a.log.Warn("audit log: writing resumed after records were dropped", "dropped", lost)
		}
	}
}

func (a *auditLog) writeLine(line []byte) {
	if _, err := a.w.Write(line); err != nil {
		a.log.Error("audit log write failed", "error", err)
	}
}

// flush waits until every record queued so far is written, at most
// timeout, and reports whether they were.
func (a *auditLog) flush(timeout time.Duration) bool {
	a.mu.Lock()
	if !a.writing {
		a.mu.Unlock()
		return true
	}
	idle := a.idle
	a.mu.Unlock()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-idle:
		return true
	case <-t.C:
		return false
	}
}

// droppedRecord is the line that says how many records were dropped.
type droppedRecord struct {
	Time    string `json:"time"`
	Dropped int    `json:"dropped_records"`
	Note    string `json:"note"`
}

// marshalRecord returns rec as one line of at most maxAuditRecord bytes:
// when its values, each capped already, still make it longer, its
// arguments are left out and the line says so.
func marshalRecord(rec *auditRecord) ([]byte, error) {
	line, err := marshalLine(rec)
	if err != nil {
		return nil, err
	}
	if len(line) >= maxAuditRecord {
		cut := *rec
		cut.Args = fmt.Sprintf("…(left out: the record would be %d bytes, over the audit log's limit of %d)", len(line), maxAuditRecord)
		if line, err = marshalLine(&cut); err != nil {
			return nil, err
		}
	}
	return append(line, '\n'), nil
}

// marshalLine is json.Marshal with the characters that would not show as
// themselves also escaped (\u0085, bidirectional overrides, other control
// and format characters): encoding/json escapes only U+2028 and U+2029 of
// them, and a reader that splits lines on NEL, or a viewer that reorders
// text by a right-to-left override, would see another record than was
// written. They occur only inside strings, where \uXXXX means the same.
func marshalLine(v any) ([]byte, error) {
	line, err := json.Marshal(v)
	if err != nil || !bytes.ContainsFunc(line, hidden) {
		return line, err
	}
	var b bytes.Buffer
	for _, r := range string(line) {
		if hidden(r) {
			fmt.Fprintf(&b, `\u%04x`, r)
		} else {
			b.WriteRune(r)
		}
	}
	return b.Bytes(), nil
}

// hidden reports whether r, outside ASCII, would not show as itself: a C1
// control, a format character (U+202E, U+2066...) or a line or paragraph
// separator.
func hidden(r rune) bool {
	return r >= 0x80 && (r < 0xa0 || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp))
}
