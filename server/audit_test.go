package server_test

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/server"
)

func auditIndex(t *testing.T) *index.Index {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	src := fmt.Sprintf(`name: fake
command: %q
env: {%s: "1", GORACE: atexit_sleep_ms=0}
tools:
  - name: fake_login
    description: "Echo a user and a token"
    command: echo
    args:
      - {name: user, positional: true, required: true}
      - {name: token, flag: "--token=", secret: true}
  - name: fake_fail
    description: "Fails"
    command: fail
`, exe, fakeEnv)
	return parseIndex(t, src)
}

// flushed returns what srv's audit log wrote to buf once the records of
// the calls that ended are written.
func flushed(t *testing.T, srv *server.Server, buf *syncBuffer) string {
	t.Helper()
	if !srv.FlushAudit(30 * time.Second) {
		t.Fatal("the audit log was not written within 30s")
	}
	return buf.String()
}

func TestAuditLog(t *testing.T) {
	t.Parallel()
	var buf, logs syncBuffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	srv := server.New(auditIndex(t), executor.New(), server.WithAuditLog(&buf), server.WithLogger(logger))
	cs := connect(t, srv, nil)
	call(t, cs, "climax_call", map[string]any{"tool_name": "fake_login", "args": map[string]any{"user": "ada", "token": "s3cr3t"}})
	call(t, cs, "climax_call", map[string]any{"tool_name": "fake_fail"})
	call(t, cs, "climax_call", map[string]any{"tool_name": "fake_login", "args": map[string]any{"token": "s3cr3t"}})
	call(t, cs, "climax_call", map[string]any{"tool_name": "nope"})
	call(t, cs, "fake_login", map[string]any{"user": "x"})

	out := flushed(t, srv, &buf)
	if strings.Contains(out, "s3cr3t") {
		t.Errorf("a secret value reached the audit log:\n%s", out)
	}
	if strings.Contains(logs.String(), "s3cr3t") || !strings.Contains(logs.String(), "--token=***") {
		t.Errorf("the log does not redact the secret:\n%s", logs.String())
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d audit lines, want 5:\n%s", len(lines), out)
	}
	type record struct {
		Transport string         `json:"transport"`
		Tool      string         `json:"tool"`
		Via       string         `json:"via"`
		Args      map[string]any `json:"args"`
		Argv      []string       `json:"argv"`
		Outcome   string         `json:"outcome"`
		ExitCode  *int           `json:"exit_code"`
		Error     string         `json:"error"`
		Output    int            `json:"output_bytes"`
	}
	var recs []record
	for _, l := range lines {
		var r record
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("audit line is not JSON: %v\n%s", err, l)
		}
		recs = append(recs, r)
	}
	ok := recs[0]
	if ok.Tool != "fake_login" || ok.Via != "climax_call" || ok.Outcome != server.OutcomeOK || ok.ExitCode == nil || *ok.ExitCode != 0 || ok.Output == 0 {
		t.Errorf("successful call: %+v", ok)
	}
	if ok.Args["token"] != "***" || ok.Args["user"] != "ada" {
		t.Errorf("args not redacted: %v", ok.Args)
	}
	if got := strings.Join(ok.Argv[1:], " "); got != "echo ada --token=***" {
		t.Errorf("argv = %q, want the token redacted", got)
	}
	if f := recs[1]; f.Outcome != server.OutcomeError || f.ExitCode == nil || *f.ExitCode != 3 {
		t.Errorf("failing call: %+v", f)
	}
	if r := recs[2]; r.Outcome != server.OutcomeRefused || !strings.Contains(r.Error, "Missing required argument 'user'") || r.Argv != nil {
		t.Errorf("invalid call: %+v", r)
	}
	if r := recs[3]; r.Outcome != server.OutcomeRefused || r.Tool != "nope" || !strings.HasPrefix(r.Error, "Unknown tool: nope") {
		t.Errorf("unknown tool: %+v", r)
	}
	if r := recs[4]; r.Tool != "fake_login" || r.Via != "fake_login" || r.Outcome != server.OutcomeRefused {
		t.Errorf("direct call of an unlisted tool: %+v", r)
	}
}

// failingWriter fails every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, os.ErrClosed }

// A secret value is hidden where it stands in the command line, and only
// there: a caller cannot blank out other words by choosing a secret that
// occurs in them.
func TestAuditLogRedactsOnlyTheSecretsOwnWords(t *testing.T) {
	t.Parallel()
	var buf syncBuffer
	srv := server.New(auditIndex(t), executor.New(), server.WithAuditLog(&buf))
	cs := connect(t, srv, nil)
	call(t, cs, "climax_call", map[string]any{"tool_name": "fake_login", "args": map[string]any{"user": "echo", "token": "o"}})
	var rec struct {
		Argv []string `json:"argv"`
	}
	if err := json.Unmarshal([]byte(flushed(t, srv, &buf)), &rec); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rec.Argv[1:], " "); got != "echo echo --token=***" {
		t.Errorf("argv = %q, want only the token's own word redacted", got)
	}
}

func TestAuditLogWriteFailureDoesNotFailTheCall(t *testing.T) {
	t.Parallel()
	cs := connect(t, server.New(auditIndex(t), executor.New(), server.WithAuditLog(failingWriter{})), nil)
	res := call(t, cs, "climax_call", map[string]any{"tool_name": "fake_login", "args": map[string]any{"user": "ada"}})
	if res.IsError || !strings.Contains(text(t, res), "ada") {
		t.Errorf("call failed with a failing audit log: %v %q", res.IsError, text(t, res))
	}
}

// A refused call shows no secret value either: not in the problem the
// caller gets back (which also goes to the log and the audit log), and not
// under a mistyped name that stands for a secret argument.
func TestRefusedCallsKeepSecrets(t *testing.T) {
	t.Parallel()
	ix := parseIndexWithPolicy(t, "tools:\n  s_login:\n    args:\n      token: {pattern: \"tok-[0-9]+\"}\n", `name: s
command: echo
tools:
  - name: s_login
    description: "Log in"
    args:
      - {name: pin, type: integer, flag: --pin, secret: true}
      - {name: pos, positional: true, secret: true}
      - {name: pat, flag: --pat, pattern: "[a-z]+", secret: true}
      - {name: keys, type: array, flag: --key, enum: [a, b], secret: true}
      - {name: token, flag: --token, secret: true}
      - {name: user, flag: --user}
`)
	var audit, logs syncBuffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	srv := server.New(ix, executor.New(), server.WithAuditLog(&audit), server.WithLogger(logger))
	cs := connect(t, srv, nil)
	for _, args := range []map[string]any{
		{"pin": "SECRET1"},
		{"pos": "-SECRET2"},
		{"pat": "SECRET3"},
		{"keys": []any{"SECRET4", "b"}},
		{"keys": map[string]any{"k": "SECRET5"}},
		{"token": "SECRET6"},
		{"Token": "SECRET7", "user": "ada", "pin": "x"},
	} {
		res := call(t, cs, "climax_call", map[string]any{"tool_name": "s_login", "args": args})
		msg := text(t, res)
		if !res.IsError || !strings.Contains(msg, "***") {
			t.Errorf("args %v: want a refusal that shows the value as ***, got:\n%s", args, msg)
		}
		if strings.Contains(msg, "SECRET") {
			t.Errorf("args %v: the refusal shows a secret:\n%s", args, msg)
		}
	}
	if strings.Contains(flushed(t, srv, &audit), "SECRET") {
		t.Errorf("a secret value reached the audit log:\n%s", audit.String())
	}
	if strings.Contains(logs.String(), "SECRET") {
		t.Errorf("a secret value reached the log:\n%s", logs.String())
	}
	if !strings.Contains(audit.String(), `"Token":"***"`) || !strings.Contains(audit.String(), `"user":"ada"`) {
		t.Errorf("the audit log should show the mistyped secret name redacted and the rest as sent:\n%s", audit.String())
	}
}

func TestCallOutcome(t *testing.T) {
	for _, tc := range []struct {
		out  executor.Outcome
		want string
	}{
		{executor.Outcome{IsError: true, Text: "Argument validation failed"}, server.OutcomeRefused},
		{executor.Outcome{IsError: true, Argv: []string{"x"}, Text: "Program not found"}, server.OutcomeError},
		{executor.Outcome{IsError: true, Argv: []string{"x"}, Cancelled: true}, server.OutcomeCancelled},
		{executor.Outcome{Argv: []string{"x"}, Result: &executor.Result{}}, server.OutcomeOK},
		{executor.Outcome{IsError: true, Argv: []string{"x"}, Result: &executor.Result{TimedOut: true}}, server.OutcomeTimeout},
	} {
		if got := server.CallOutcome(tc.out); got != tc.want {
			t.Errorf("callOutcome(%+v) = %s, want %s", tc.out, got, tc.want)
		}
	}
}

// Calls refused before a tool was chosen are logged with the tool_name
// and the args as they were sent (a tool's secrets hidden even then).
func TestAuditLogShowsWhatWasSent(t *testing.T) {
	t.Parallel()
	var buf syncBuffer
	srv := server.New(auditIndex(t), executor.New(), server.WithAuditLog(&buf))
	cs := connect(t, srv, nil)
	for _, args := range []map[string]any{
		{},
		{"tool_name": map[string]any{"a": []any{1, 2}}},
		{"tool_name": 5.5},
		{"tool_name": "fake_fail", "args": []any{1}},
		{"tool_name": "fake_login", "args": []any{"s3cr3t"}},
	} {
		if res := call(t, cs, "climax_call", args); !res.IsError {
			t.Fatalf("%v: not refused", args)
		}
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(flushed(t, srv, &buf)), "\n") {
		var r struct {
			Tool    string          `json:"tool"`
			Args    json.RawMessage `json:"args"`
			Outcome string          `json:"outcome"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("%v\n%s", err, l)
		}
		got = append(got, fmt.Sprintf("%s %s %s", r.Tool, r.Args, r.Outcome))
	}
	want := []string{
		" {} refused",
		`{"a":[1,2]} {} refused`,
		"5.5 {} refused",
		"fake_fail [1] refused",
		`fake_login "***" refused`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("audit lines (tool args outcome):\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// stalledWriter blocks every Write until release is closed, as a FIFO
// whose reader stopped reading does.
type stalledWriter struct {
	release chan struct{}
	buf     syncBuffer
}

func (w *stalledWriter) Write(p []byte) (int, error) {
	<-w.release
	return w.buf.Write(p)
}

// A stalled audit log holds no call: records wait in
// a bounded queue, those beyond it are dropped and counted in a metric,
// and once writing resumes a line says how many were dropped.
func TestAuditLogStalledWriterHoldsNoCall(t *testing.T) {
	t.Parallel()
	w := &stalledWriter{release: make(chan struct{})}
	hs := serveHTTP(t, server.HTTPOptions{}, server.WithAuditLog(w))
	cs := mustConnectHTTP(t, hs.url, false, "")
	calls := server.MaxAuditQueue + 50
	for range calls {
		// Each call returns although no record can be written.
		call(t, cs, "climax_call", map[string]any{"tool_name": "made_up"})
	}
	_, metrics := getWithToken(t, hs.base+server.MetricsPath, "")
	if hs.srv.FlushAudit(10 * time.Millisecond) {
		t.Error("FlushAudit reported the records written while the writer is stalled")
	}
	close(w.release)
	if !hs.srv.FlushAudit(30 * time.Second) {
		t.Fatal("the audit log was not written within 30s of the writer resuming")
	}
	records, dropped := 0, 0
	for _, l := range strings.Split(strings.TrimSpace(w.buf.String()), "\n") {
		var rec struct {
			Tool    string `json:"tool"`
			Dropped int    `json:"dropped_records"`
			Note    string `json:"note"`
		}
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		if rec.Dropped > 0 {
			dropped += rec.Dropped
			want := fmt.Sprintf("%d audit records were dropped", rec.Dropped)
			if rec.Dropped == 1 {
				want = "1 audit record was dropped"
			}
			if !strings.Contains(rec.Note, want) {
				t.Errorf("note: %q", rec.Note)
			}
			continue
		}
		records++
	}
	if dropped == 0 || records+dropped != calls || records > server.MaxAuditQueue+1 {
		t.Errorf("%d records written and %d dropped, want %d in all, at most %d written", records, dropped, calls, server.MaxAuditQueue+1)
	}
	if want := fmt.Sprintf("climax_audit_records_dropped_total %d\n", dropped); !strings.Contains(metrics, want) {
		t.Errorf("metrics lack %q:\n%s", want, metrics)
	}
}

// The audit log's transport is the one each call came over, read from
// the request: a server that serves HTTP too records a stdio call as
// "stdio".
func TestAuditTransportOfEachCall(t *testing.T) {
	var buf syncBuffer
	srv := server.New(auditIndex(t), executor.New(), server.WithAuditLog(&buf))
	hs := serveServer(t, srv, server.HTTPOptions{})
	cs, err := connectHTTP(t, hs.url, false, "")
	if err != nil {
		t.Fatal(err)
	}
	call(t, cs, "climax_call", map[string]any{"tool_name": "nope"})
	serveLines(t, srv, initialize, initialized, callLine(2, "climax_call", map[string]any{"tool_name": "nope"}))
	var got []string
	for line := range strings.Lines(flushed(t, srv, &buf)) {
		var rec struct {
			Transport string `json:"transport"`
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("audit line is not JSON: %v\n%s", err, line)
		}
		got = append(got, rec.Transport)
	}
	if !slices.Equal(got, []string{"http", "stdio"}) {
		t.Errorf("transports %q, want [http stdio]", got)
	}
}

// Characters that would not show as themselves are escaped in the audit
// log, as \uXXXX inside its JSON strings: a reader that splits lines on
// NEL (U+0085), as Python's str.splitlines does, would otherwise see two
// records, and a right-to-left override would make a viewer show another
// name than was sent. The line still decodes to what was sent.
func TestAuditLogEscapesHiddenCharacters(t *testing.T) {
	t.Parallel()
	var buf syncBuffer
	srv := server.New(auditIndex(t), executor.New(), server.WithAuditLog(&buf))
	cs := connect(t, srv, nil)
	sent := "x\u0085y \u202eevil\u2066 \u200b \u2028"
	call(t, cs, "climax_call", map[string]any{"tool_name": "fake_fail\u202e", "args": map[string]any{"note": sent}})
	line := strings.TrimSpace(flushed(t, srv, &buf))
	for _, r := range []rune{0x85, 0x202e, 0x2066, 0x200b, 0x2028} {
		if strings.ContainsRune(line, r) {
			t.Errorf("audit line holds U+%04X raw: %q", r, line)
		}
	}
	if strings.Count(line, "\n") != 0 || !strings.Contains(line, `\u0085`) || !strings.Contains(line, `\u202e`) {
		t.Errorf("audit line: %q", line)
	}
	var r struct {
		Tool string `json:"tool"`
	}
	if err := json.Unmarshal([]byte(line), &r); err != nil || r.Tool != "fake_fail\u202e" {
		t.Errorf("decoded tool %q, %v", r.Tool, err)
	}
}
