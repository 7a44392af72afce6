package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/metatools"
	"github.com/climax-mcp/climax/server"
)

const (
	initialize  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}`
	initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

// stdioTimeout bounds a stdio session of a test that should end by
// itself: a safeguard against hangs, generous enough for a loaded machine
// and the race detector (the 33 MiB line of TestServeStdioRefusesHugeLine
// takes half a minute there).
const stdioTimeout = 2 * time.Minute

// response is a JSON-RPC response as read from the server's output.
type response struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// serveLines serves input (lines, then EOF) over stdio and returns the
// output's lines, each checked to be a JSON-RPC message.
func serveLines(t *testing.T, srv *server.Server, input ...string) map[string]response {
	t.Helper()
	var out syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), stdioTimeout)
	defer cancel()
	in := strings.NewReader(strings.Join(input, "\n") + "\n")
	if err := srv.ServeStdio(ctx, in, &out); err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
	byID := map[string]response{}
	for line := range strings.Lines(out.String()) {
		var r response
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("output line is not JSON: %q", line)
		}
		if r.Method == "" {
			byID[string(r.ID)] = r
		}
	}
	return byID
}

func callLine(id any, tool string, args map[string]any) string {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{"name": tool, "arguments": args}})
	return string(b)
}

// Piped requests followed by EOF are all answered, although they are
// still running at EOF (go-sdk issue 1061).
func TestServeStdioAnswersEverythingBeforeEOF(t *testing.T) {
	t.Parallel()
	srv := server.New(buildIndex(t), executor.New())
	for run := range 5 {
		input := []string{initialize, initialized}
		for i := range 5 {
			input = append(input, callLine(i+2, "climax_call", map[string]any{"tool_name": "fake_sleep", "args": map[string]any{"seconds": "0.3"}}))
		}
		input = append(input, `{"jsonrpc":"2.0","id":"list","method":"tools/list"}`)
		got := serveLines(t, srv, input...)
		if len(got) != 7 {
			t.Fatalf("run %d: %d responses, want 7: ids %v", run, len(got), slices.Sorted(maps.Keys(got)))
		}
		for i := range 5 {
			r, ok := got[fmt.Sprint(i+2)]
			if !ok || !strings.Contains(string(r.Result), `"text":"slept 0.3"`) {
				t.Errorf("run %d: response %d: %s", run, i+2, r.Result)
			}
		}
		if _, ok := got[`"list"`]; !ok {
			t.Errorf("run %d: no response to the string id", run)
		}
	}
}

// tools/list on the wire holds the schemas of docs/search.md byte for byte
// (property order included) and in that order.
func TestServeStdioToolsListWire(t *testing.T) {
	for _, classic := range []bool{false, true} {
		ix := buildIndex(t)
		got := serveLines(t, server.New(ix, executor.New(), server.WithClassic(classic)), initialize, initialized, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
		var list struct {
			Tools []struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				InputSchema json.RawMessage `json:"inputSchema"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(got["2"].Result, &list); err != nil {
			t.Fatal(err)
		}
		want := metatools.Definitions()
		if classic {
			want = metatools.ClassicDefinitions(ix)
		}
		if len(list.Tools) != len(want) {
			t.Fatalf("classic=%v: %d tools, want %d", classic, len(list.Tools), len(want))
		}
		for i, d := range want {
			tool := list.Tools[i]
			if tool.Name != d.Name || tool.Description != d.Description || string(tool.InputSchema) != string(d.InputSchema) {
				t.Errorf("classic=%v tool %d:\n got %s %q %s\nwant %s %q %s", classic, i, tool.Name, tool.Description, tool.InputSchema, d.Name, d.Description, d.InputSchema)
			}
		}
	}
}

// Requests that go-sdk answers with errors (before initialize, unknown
// method) are answered, and EOF is not held back by them.
func TestServeStdioErrorsAreAnswered(t *testing.T) {
	srv := server.New(buildIndex(t), executor.New())
	got := serveLines(t, srv,
		`{"jsonrpc":"2.0","id":7,"method":"tools/list"}`,
		initialize, initialized,
		`{"jsonrpc":"2.0","id":8,"method":"no/such/method"}`,
		`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"git_status","arguments":{}}}`,
	)
	for _, id := range []string{"1", "7", "8", "9"} {
		if _, ok := got[id]; !ok {
			t.Errorf("no response to %s: ids %v", id, slices.Sorted(maps.Keys(got)))
		}
	}
	if r := got["9"]; r.Error != nil || !strings.Contains(string(r.Result), `"isError":true`) || !strings.Contains(string(r.Result), "Unknown tool: git_status") {
		t.Errorf("direct call in discovery mode: %s %v", r.Result, r.Error)
	}
}

// A request the client cancelled is not waited for at EOF, and its
// command is killed.
func TestServeStdioCancelledRequest(t *testing.T) {
	t.Parallel()
	srv := server.New(buildIndex(t), executor.New())
	pidfile := filepath.Join(t.TempDir(), "pid")
	pr, pw := io.Pipe()
	var out syncBuffer
	done := make(chan error, 1)
	go func() { done <- srv.ServeStdio(context.Background(), pr, &out) }()
	fmt.Fprintln(pw, initialize)
	fmt.Fprintln(pw, initialized)
	fmt.Fprintln(pw, callLine(2, "climax_call", map[string]any{"tool_name": "fake_sleep", "args": map[string]any{"seconds": "30", "pidfile": pidfile}}))
	pid := waitPID(t, pidfile)
	fmt.Fprintln(pw, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"test"}}`)
	pw.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ServeStdio: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("ServeStdio did not return after EOF with a cancelled request")
	}
	waitGone(t, pid)
}

func TestServeStdioContextEnds(t *testing.T) {
	srv := server.New(buildIndex(t), executor.New())
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var out syncBuffer
	go func() { done <- srv.ServeStdio(ctx, pr, &out) }()
	fmt.Fprintln(pw, initialize)
	waitOutput(t, &out, `"id":1`)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("ServeStdio = %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ServeStdio did not return after ctx was cancelled")
	}
}

// Logs go to the logger; stdout carries only protocol messages.
func TestServeStdioLogsStayOffStdout(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	srv := server.New(buildIndex(t), executor.New(), server.WithLogger(logger))
	got := serveLines(t, srv, initialize, initialized, callLine(2, "climax_call", map[string]any{"tool_name": "fake_echo", "args": map[string]any{"message": "hi"}}))
	if len(got) != 2 {
		t.Errorf("responses: %v", got)
	}
	if !strings.Contains(logs.String(), "msg=call tool=fake_echo") {
		t.Errorf("call not logged:\n%s", logs.String())
	}
}

// Lines go-sdk cannot decode get a JSON-RPC error each, and the session
// goes on: one client mistake must not end the server.
func TestServeStdioSurvivesMalformedLines(t *testing.T) {
	t.Parallel()
	srv := server.New(buildIndex(t), executor.New())
	deep := strings.Repeat("[", 1001) + strings.Repeat("]", 1001)
	// Past encoding/json's own limit (10,000), which calls it a syntax error.
	deeper := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	bad := []struct {
		line string
		id   string // id of the error reply
		code int
	}{
		{`garbage, not JSON`, "null", -32700},
		{`{"jsonrpc":"2.0","id":20,"method":"ping"`, "null", -32700},
		{`42`, "null", -32600},
		{`[{"jsonrpc":"2.0","id":21,"method":"ping"}]`, "null", -32600},
		{`{"jsonrpc":"1.0","id":22,"method":"ping"}`, "22", -32600},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, "null", -32600},
		{`{"jsonrpc":"2.0","id":23,"method":5}`, "23", -32600},
		{`{"jsonrpc":"2.0"}`, "null", -32600},
		{`{"jsonrpC":"2.0","id":25,"method":"ping"}`, "25", -32600}, // member names are case-sensitive
		{`{"jsonrpc":"2.0","id":24,"method":"ping","params":` + deep + `}`, "24", -32600},
		{`{"jsonrpc":"2.0","id":27,"method":"ping","params":` + deeper + `}`, "27", -32600},
		{`{"jsonrpc":"2.0","id":26,"method":"ping","params":{"x":[` + strings.Repeat("[],", server.MaxItems) + `[]]}}`, "26", -32600},
		// A number beyond float64's range elsewhere in the message still
		// leaves its id readable.
		{`{"jsonrpc":"2.0","id":28,"method":"ping","params":{"w":1e400,"x":[` + strings.Repeat("[],", server.MaxItems) + `[]]}}`, "28", -32600},
	}
	input := []string{initialize, initialized}
	for _, b := range bad {
		input = append(input, b.line, "")
	}
	input = append(input, `{"jsonrpc":"2.0","id":"list","method":"tools/list"}`,
		callLine("search", "climax_search", map[string]any{"query": "echo"}))

	var out syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), stdioTimeout)
	defer cancel()
	if err := srv.ServeStdio(ctx, strings.NewReader(strings.Join(input, "\n")+"\n"), &out); err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
	var errs []response
	answered := map[string]bool{}
	for line := range strings.Lines(out.String()) {
		var r response
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("output line is not JSON: %q", line)
		}
		if r.Error != nil {
			errs = append(errs, r)
		} else {
			answered[string(r.ID)] = true
		}
	}
	if len(errs) != len(bad) {
		t.Fatalf("got %d error replies, want %d:\n%s", len(errs), len(bad), out.String())
	}
	for i, b := range bad {
		if string(errs[i].ID) != b.id || errs[i].Error.Code != b.code {
			t.Errorf("line %q: reply id %s code %d, want id %s code %d", b.line[:min(len(b.line), 40)], errs[i].ID, errs[i].Error.Code, b.id, b.code)
		}
	}
	for _, id := range []string{`1`, `"list"`, `"search"`} {
		if !answered[id] {
			t.Errorf("request %s after the malformed lines was not answered:\n%s", id, out.String())
		}
	}
}

// A message beyond the size limit is refused without being buffered, and
// the session goes on.
func TestServeStdioRefusesHugeLine(t *testing.T) {
	t.Parallel()
	srv := server.New(buildIndex(t), executor.New())
	huge := `{"jsonrpc":"2.0","id":30,"method":"ping","params":{"x":"` + strings.Repeat("a", 33<<20) + `"}}`
	// Between go-sdk's default line limit (16 MiB) and ours: answered.
	large := `{"jsonrpc":"2.0","id":32,"method":"ping","params":{"x":"` + strings.Repeat("a", 20<<20) + `"}}`
	input := strings.Join([]string{initialize, initialized, huge, `{"jsonrpc":"2.0","id":31,"method":"ping"}`, large}, "\n") + "\n"
	got := serveLines(t, srv, input)
	if r, ok := got["32"]; !ok || r.Error != nil {
		t.Errorf("20 MiB ping: %+v, want an answer", r)
	}
	if r, ok := got["null"]; !ok || r.Error == nil || !strings.Contains(r.Error.Message, "larger than") {
		t.Errorf("huge line: reply %+v, want an error about its size", r)
	}
	if r, ok := got["31"]; !ok || r.Error != nil {
		t.Errorf("ping after the huge line: %+v", r)
	}
}

// A request the client cancels gets no response (MCP: the receiver of a
// cancellation should not respond), and its command is stopped.
func TestServeStdioDropsResponseToCancelledRequest(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	srv := server.New(buildIndex(t), executor.New(), server.WithLogger(logger))
	inR, inW := io.Pipe()
	var out syncBuffer
	done := make(chan error, 1)
	go func() { done <- srv.ServeStdio(context.Background(), inR, &out) }()
	send := func(line string) {
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	params, _, pidfile := waitCall(t, nil)
	send(initialize)
	send(initialized)
	send(callLine(7, params.Name, params.Arguments.(map[string]any)))
	pid := waitPID(t, pidfile)
	send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"test"}}`)
	waitGone(t, pid)
	// go-sdk writes the cancelled call's result, which the guard drops.
	waitLog(t, &logs, "dropped the response to a cancelled request")
	send(`{"jsonrpc":"2.0","id":8,"method":"ping"}`)
	waitOutput(t, &out, `"id":8`)
	inW.Close()
	if err := receive(t, done); err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
	if strings.Contains(out.String(), `"id":7`) {
		t.Errorf("the cancelled request was answered:\n%s", out.String())
	}
}

// Every reply carries the id of its request exactly, or, for an id go-sdk
// would change (a fraction, an exponent, an integer beyond 2^53, -0), an
// invalid-request error echoing that id; a null id gets an
// invalid-request error with id null.
func TestServeStdioEchoesIDsExactly(t *testing.T) {
	t.Parallel()
	srv := server.New(buildIndex(t), executor.New())
	good := []string{`0`, `7`, `-3`, `9007199254740991`, `-9007199254740991`, `"s"`, `"\u00e9\ud83d\ude00"`, `""`}
	bad := []string{`1.5`, `1e2`, `1e400`, `-0`, `123456789012345678901234567890`, `9007199254740992`, `2.0`}
	input := []string{initialize, initialized}
	for _, id := range append(append([]string{}, good...), bad...) {
		input = append(input, `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`)
	}
	input = append(input, `{"jsonrpc":"2.0","id":null,"method":"ping"}`, `{"jsonrpc":"2.0","id":"\ud800","method":"ping"}`,
		`{"jsonrpc":"2.0","ID":5,"method":"ping"}`) // a notification: "ID" is not "id"

	var out syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), stdioTimeout)
	defer cancel()
	if err := srv.ServeStdio(ctx, strings.NewReader(strings.Join(input, "\n")+"\n"), &out); err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
	replies := map[string][]response{}
	for line := range strings.Lines(out.String()) {
		var raw struct {
			ID json.RawMessage `json:"id"`
		}
		var r response
		if json.Unmarshal([]byte(line), &raw) != nil || json.Unmarshal([]byte(line), &r) != nil {
			t.Fatalf("output line is not JSON: %q", line)
		}
		replies[idText(raw.ID)] = append(replies[idText(raw.ID)], r)
	}
	for _, id := range good {
		if rs := replies[idText([]byte(id))]; len(rs) != 1 || rs[0].Error != nil {
			t.Errorf("id %s: replies %+v, want one result", id, rs)
		}
		delete(replies, idText([]byte(id)))
	}
	for _, id := range bad {
		if rs := replies[id]; len(rs) != 1 || rs[0].Error == nil || rs[0].Error.Code != -32600 || !strings.Contains(rs[0].Error.Message, "integer from -9007199254740991 to 9007199254740991") {
			t.Errorf("id %s: replies %+v, want one invalid-request error", id, rs)
		}
		delete(replies, id)
	}
	if rs := replies["null"]; len(rs) != 2 || rs[0].Error == nil || !strings.Contains(rs[0].Error.Message, `"id" must not be null`) ||
		rs[1].Error == nil || !strings.Contains(rs[1].Error.Message, "unpaired surrogate") {
		t.Errorf("null id and lone surrogate: replies %+v, want two invalid-request errors", rs)
	}
	delete(replies, "null")
	delete(replies, "1") // initialize
	if len(replies) > 0 {
		t.Errorf("replies with ids that were never sent: %v", slices.Sorted(maps.Keys(replies)))
	}
}

// idText is the text of an id: numbers as written, strings re-encoded
// (the same string may be escaped differently).
func idText(raw []byte) string {
	var s string
	if len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		b, _ := json.Marshal(s)
		return string(b)
	}
	return string(raw)
}

// A request reusing the id of a request in progress gets an error, is not
// passed on, and does not hold back the end of the session.
func TestServeStdioDuplicateID(t *testing.T) {
	t.Parallel()
	srv := server.New(buildIndex(t), executor.New())
	params, file, _ := waitCall(t, nil)
	pr, pw := io.Pipe()
	var out syncBuffer
	done := make(chan error, 1)
	go func() { done <- srv.ServeStdio(context.Background(), pr, &out) }()
	fmt.Fprintln(pw, initialize)
	fmt.Fprintln(pw, initialized)
	fmt.Fprintln(pw, callLine(2, params.Name, params.Arguments.(map[string]any)))
	fmt.Fprintln(pw, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	waitOutput(t, &out, "already in use")
	release(t, file)
	pw.Close()
	if err := receive(t, done); err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
	var results, errs int
	for line := range strings.Lines(out.String()) {
		var r response
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("output line is not JSON: %q", line)
		}
		switch {
		case string(r.ID) == "2" && r.Error == nil && strings.Contains(string(r.Result), "released"):
			results++
		case string(r.ID) == "null" && r.Error != nil && r.Error.Code == -32600 && strings.Contains(r.Error.Message, "request id already in use: 2 "):
			errs++
		case string(r.ID) == "1":
		default:
			t.Errorf("unexpected reply %s", line)
		}
	}
	if results != 1 || errs != 1 {
		t.Errorf("%d results for id 2 and %d duplicate errors, want 1 and 1:\n%s", results, errs, out.String())
	}
}

// waitOutput waits until out holds substr.
func waitOutput(t *testing.T, out *syncBuffer, substr string) {
	t.Helper()
	waitUntil(t, fmt.Sprintf("%q in the output", substr), func() bool { return strings.Contains(out.String(), substr) })
}

// Ending ServeStdio's context (SIGTERM, in climax) while a call runs and
// input is still open kills the call's command and returns at once.
func TestServeStdioContextEndsRunningCall(t *testing.T) {
	t.Parallel()
	srv := server.New(buildIndex(t), executor.New())
	params, _, pidfile := waitCall(t, nil)
	pr, pw := io.Pipe()
	defer pw.Close()
	var out syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.ServeStdio(ctx, pr, &out) }()
	fmt.Fprintln(pw, initialize)
	fmt.Fprintln(pw, initialized)
	fmt.Fprintln(pw, callLine(2, params.Name, params.Arguments.(map[string]any)))
	pid := waitPID(t, pidfile)
	cancel()
	if err := receive(t, done); !errors.Is(err, context.Canceled) {
		t.Errorf("ServeStdio = %v, want context.Canceled", err)
	}
	waitGone(t, pid)
}

// Spaces and tabs around a message are not part of it: a message followed
// by a space is answered, and the session goes on (go-sdk alone ended the
// session on such trailing data).
func TestServeStdioToleratesSpaceAroundMessages(t *testing.T) {
	t.Parallel()
	srv := server.New(buildIndex(t), executor.New())
	got := serveLines(t, srv, initialize+" ", "\t"+initialized+"\t",
		`{"jsonrpc":"2.0","id":2,"method":"ping"} `,
		`{"jsonrpc":"2.0","id":3,"method":"ping"}`+"\t \r",
		`{"jsonrpc":"2.0","id":4,"method":"tools/list"}`)
	for _, id := range []string{"1", "2", "3", "4"} {
		if r, ok := got[id]; !ok || r.Error != nil {
			t.Errorf("request %s: %+v, %v", id, r, ok)
		}
	}
}

// One message may hold at most MaxItems array items and object members:
// beyond, it is refused before it is decoded (without the
// cap, one 11 MiB message of 4 million empty arrays grows the server by
// 600 MB),
// and the session goes on.
func TestServeStdioRefusesTooManyItems(t *testing.T) {
	t.Parallel()
	srv := server.New(buildIndex(t), executor.New())
	items := func(n int) string { return "[" + strings.Repeat("[],", n-1) + "[]]" }
	over := callLine(40, "climax_call", map[string]any{"tool_name": "fake_echo", "args": map[string]any{"message": "hi"}})
	over = strings.Replace(over, `"message":"hi"`, `"message":"hi","x":`+items(server.MaxItems), 1)
	within := callLine(41, "climax_call", map[string]any{"tool_name": "fake_echo", "args": map[string]any{"message": "hi"}})
	within = strings.Replace(within, `"message":"hi"`, `"message":"hi","x":`+items(server.MaxItems-10), 1)
	got := serveLines(t, srv, initialize, initialized, over, within)
	r := got["40"]
	if r.Error == nil || r.Error.Code != -32600 || !strings.Contains(r.Error.Message, fmt.Sprintf("more than the %d allowed in one message", server.MaxItems)) {
		t.Errorf("too many items: %+v", r)
	}
	if r := got["41"]; r.Error != nil || r.Result == nil {
		t.Errorf("items within the limit: %+v", r)
	}
}

// A response (to a request of the server's) that go-sdk would misread is
// dropped without a reply, and the session goes on: go-sdk v1.8.0 ends
// the session on an "error" that is not an error object.
func TestServeStdioDropsMisreadResponses(t *testing.T) {
	t.Parallel()
	srv := server.New(buildIndex(t), executor.New())
	var out syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), stdioTimeout)
	defer cancel()
	input := strings.Join([]string{initialize, initialized,
		`{"jsonrpc":"2.0","id":30,"error":5}`,
		`{"jsonrpc":"2.0","id":1.5,"result":{}}`,
		`{"jsonrpc":"2.0","id":31,"method":"ping"}`}, "\n") + "\n"
	if err := srv.ServeStdio(ctx, strings.NewReader(input), &out); err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
	if got := out.String(); strings.Count(got, "\n") != 2 || !strings.Contains(got, `{"jsonrpc":"2.0","id":31,"result":{}}`) {
		t.Errorf("want the answers to initialize and ping only, got:\n%s", got)
	}
}
