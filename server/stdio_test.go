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
	"syscall"
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
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
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
	case <-time.After(10 * time.Second):
		t.Fatal("ServeStdio did not return after EOF with a cancelled request")
	}
	deadline := time.Now().Add(5 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("process %d survived the cancellation", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestServeStdioContextEnds(t *testing.T) {
	srv := server.New(buildIndex(t), executor.New())
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.ServeStdio(ctx, pr, io.Discard) }()
	fmt.Fprintln(pw, initialize)
	time.Sleep(50 * time.Millisecond)
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
		{`{"jsonrpc":"2.0","id":24,"method":"ping","params":` + deep + `}`, "null", -32600},
	}
	input := []string{initialize, initialized}
	for _, b := range bad {
		input = append(input, b.line, "")
	}
	input = append(input, `{"jsonrpc":"2.0","id":"list","method":"tools/list"}`,
		callLine("search", "climax_search", map[string]any{"query": "echo"}))

	var out syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
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
	srv := server.New(buildIndex(t), executor.New())
	inR, inW := io.Pipe()
	var out syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- srv.ServeStdio(ctx, inR, &out) }()
	send := func(line string) {
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	waitFor := func(substr string) {
		for ctx.Err() == nil && !strings.Contains(out.String(), substr) {
			time.Sleep(10 * time.Millisecond)
		}
		if ctx.Err() != nil {
			t.Fatalf("no %s in output:\n%s", substr, out.String())
		}
	}
	send(initialize)
	waitFor(`"id":1`)
	send(initialized)
	send(callLine(7, "climax_call", map[string]any{"tool_name": "fake_sleep", "args": map[string]any{"seconds": "30"}}))
	time.Sleep(200 * time.Millisecond) // let the command start
	start := time.Now()
	send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"test"}}`)
	// Once the command is stopped go-sdk writes its result; a ping sent
	// after that is answered after it.
	time.Sleep(500 * time.Millisecond)
	send(`{"jsonrpc":"2.0","id":8,"method":"ping"}`)
	waitFor(`"id":8`)
	inW.Close()
	if err := <-done; err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
	if strings.Contains(out.String(), `"id":7`) {
		t.Errorf("the cancelled request was answered:\n%s", out.String())
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("cancellation took %v", d)
	}
}
