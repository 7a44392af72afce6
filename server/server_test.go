package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/executor/executortest"
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
	"github.com/climax-mcp/climax/metatools"
	"github.com/climax-mcp/climax/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fakeEnv makes the test binary act as a fake CLI (package executortest).
const fakeEnv = executortest.EnvVar

func TestMain(m *testing.M) { executortest.Main(m) }

func fakeConfig(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf(`name: fake-tools
description: "A fake CLI for tests"
command: %q
env:
  %s: "1"
  GORACE: atexit_sleep_ms=0 # a fake CLI built with -race would sleep 1 s at exit
category: testing
tags: [fake]
tools:
  - name: fake_echo
    description: "Echo the message back"
    command: echo
    args:
      - name: message
        description: "Text to echo"
        required: true
        positional: true
      - name: format
        description: "Output format"
        flag: --format
        enum: [json, text, csv]
      - name: count
        type: integer
        flag: --count
  - name: fake_fail
    description: "Always fails with exit code 3"
    command: fail
  - name: fake_sleep
    description: "Sleeps for a while"
    command: sleep
    timeout: 60
    args:
      - name: seconds
        positional: true
        default: "0.3"
      - name: pidfile
        positional: true
  - name: fake_wait
    description: "Waits until a file exists"
    command: wait
    timeout: 600
    args:
      - name: file
        positional: true
        required: true
      - name: pidfile
        positional: true
  - name: fake_timeout
    description: "Sleeps beyond its timeout"
    command: sleep
    timeout: 0.5
    args:
      - name: seconds
        positional: true
        default: "10"
`, exe, fakeEnv)
}

const gitConfig = `name: git-tools
description: "MCP tools for Git"
command: git
category: vcs
tags: [version-control]
tools:
  - name: git_status
    description: "Show the working tree status"
    command: status
`

func buildIndex(t *testing.T) *index.Index {
	t.Helper()
	return parseIndex(t, fakeConfig(t), gitConfig)
}

// connect serves srv over an in-memory transport and returns a connected
// client session.
func connect(t *testing.T, srv *server.Server, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	return connectAt(t, srv, opts, "")
}

func newSession(t *testing.T, opts ...server.Option) *mcp.ClientSession {
	t.Helper()
	return connect(t, server.New(buildIndex(t), executor.New(), opts...), nil)
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("CallTool(%s): %v", name, err)
	}
	return res
}

func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("want 1 content, got %d", len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content is %T", res.Content[0])
	}
	return tc.Text
}

func TestDiscoveryListTools(t *testing.T) {
	cs := newSession(t)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defs := metatools.Definitions()
	if len(res.Tools) != len(defs) {
		t.Fatalf("tools/list holds %d tools, want %d", len(res.Tools), len(defs))
	}
	for i, d := range defs {
		tool := res.Tools[i]
		if tool.Name != d.Name || tool.Description != d.Description {
			t.Errorf("tool %d = %s %q, want %s %q", i, tool.Name, tool.Description, d.Name, d.Description)
		}
		if tool.OutputSchema != nil {
			t.Errorf("%s has an output schema", tool.Name)
		}
	}
	if got := cs.InitializeResult().Instructions; got != server.DiscoveryInstructions {
		t.Errorf("instructions = %q", got)
	}
	if got := cs.InitializeResult().ServerInfo.Name; got != "climax" {
		t.Errorf("server name = %q", got)
	}
}

func TestClassicListTools(t *testing.T) {
	ix := buildIndex(t)
	cs := connect(t, server.New(ix, executor.New(), server.WithClassic(true), server.WithVersion("1.2.3")), nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for i, tool := range res.Tools {
		names = append(names, tool.Name)
		rt := ix.Tools()[i]
		schema, _ := json.Marshal(tool.InputSchema)
		var want any
		json.Unmarshal(rt.Schema, &want)
		wantJSON, _ := json.Marshal(want)
		if tool.Description != rt.Tool.Description || string(schema) != string(wantJSON) {
			t.Errorf("tool %s: %q %s\nwant %q %s", tool.Name, tool.Description, schema, rt.Tool.Description, wantJSON)
		}
	}
	if got, want := strings.Join(names, ","), strings.Join(ix.Names(), ","); got != want {
		t.Errorf("classic tools/list = %s\nwant (load order) %s", got, want)
	}
	if init := cs.InitializeResult(); init.Instructions != "" || init.ServerInfo.Version != "1.2.3" {
		t.Errorf("initialize: instructions %q, version %q", init.Instructions, init.ServerInfo.Version)
	}
}

func TestUnknownTool(t *testing.T) {
	tests := []struct {
		classic bool
		name    string
		want    string
	}{
		{false, "nonexistent_tool", "Unknown tool: nonexistent_tool\nThis server lists only climax_search and climax_call: find tools with climax_search, then run them with climax_call."},
		{false, "fake_echo", "Unknown tool: fake_echo\nfake_echo is not listed directly: run it with climax_call (tool_name \"fake_echo\")."},
		{true, "nonexistent_tool", "Unknown tool: nonexistent_tool"},
		{true, "fake_ehco", "Unknown tool: fake_ehco\nDid you mean: fake_echo?"},
		{true, "climax_call", "Unknown tool: climax_call"},
		{true, "climax_search", "Unknown tool: climax_search"},
		// A caller's control characters are quoted, not echoed raw.
		{true, "bad\n\x1b[31mname", `Unknown tool: "bad\n\x1b[31mname"`},
		{false, "bad\n\x1b[31mname", `Unknown tool: "bad\n\x1b[31mname"` + "\nThis server lists only climax_search and climax_call: find tools with climax_search, then run them with climax_call."},
	}
	sessions := map[bool]*mcp.ClientSession{false: newSession(t), true: newSession(t, server.WithClassic(true))}
	for _, tt := range tests {
		res := call(t, sessions[tt.classic], tt.name, map[string]any{})
		if got := text(t, res); !res.IsError || got != tt.want {
			t.Errorf("classic=%v %s: %v %q\nwant error %q", tt.classic, tt.name, res.IsError, got, tt.want)
		}
	}
	// climax_call of an unknown tool lists the available tools.
	res := call(t, sessions[false], "climax_call", map[string]any{"tool_name": "nonexistent_tool"})
	want := "Unknown tool: nonexistent_tool\nAvailable tools: fake_echo, fake_fail, fake_sleep, fake_wait, fake_timeout, git_status\nUse climax_search to find tools and their argument schemas."
	if got := text(t, res); !res.IsError || got != want {
		t.Errorf("climax_call unknown: %q\nwant %q", got, want)
	}
}

func TestSearch(t *testing.T) {
	cs := newSession(t)
	res := call(t, cs, "climax_search", map[string]any{"cli": "git-tools", "limit": 5})
	want := `{"mode":"search","total_matches":1,"returned":1,"has_more":false,"results":[{"tool_name":"git_status","description":"Show the working tree status","cli_name":"git-tools","input_schema":{"type":"object","properties":{}}}]}`
	if got := text(t, res); res.IsError || got != want {
		t.Errorf("search: %v %s\nwant %s", res.IsError, got, want)
	}
	if res.StructuredContent != nil {
		t.Errorf("search has structured content %v", res.StructuredContent)
	}
	res = call(t, cs, "climax_search", nil)
	if got := text(t, res); !strings.HasPrefix(got, `{"mode":"summary","total_matches":2,"returned":2,"has_more":false,"summary":[{"name":"fake-tools"`) {
		t.Errorf("summary: %s", got)
	}
	res = call(t, cs, "climax_search", map[string]any{"query": 1})
	if got := text(t, res); !res.IsError || got != "Argument validation failed:\n  - Argument 'query' must be a string (got number)" {
		t.Errorf("bad query: %v %q", res.IsError, got)
	}
}

// Keys climax_search does not have are named in its answer's JSON, which
// is then also the structured content (a call's result lists its ignored
// names there): {"q": ...} got the overview with no word on why.
func TestSearchIgnoredKeys(t *testing.T) {
	cs := newSession(t)
	res := call(t, cs, "climax_search", map[string]any{"q": "git status"})
	got := text(t, res)
	wantNote := `"note":"[ignored argument 'q' (did you mean 'query'?): climax_search has no argument of that name, so the search ran without it]","ignored_args":[{"name":"q","did_you_mean":"query"}]`
	if res.IsError || !strings.HasPrefix(got, `{"mode":"summary",`+wantNote+`,"total_matches":2`) {
		t.Errorf("search with q: %v %s\nwant the note %s", res.IsError, got, wantNote)
	}
	m, ok := res.StructuredContent.(map[string]any)
	if !ok {
		t.Fatalf("structured content is %T", res.StructuredContent)
	}
	b, _ := json.Marshal(m["ignored_args"])
	if string(b) != `[{"did_you_mean":"query","name":"q"}]` || m["mode"] != "summary" || m["summary"] == nil {
		t.Errorf("structured content %v", m)
	}
}

// Classic calls and climax_call share one execution path: same text, same
// structured content, same isError.
func TestCallParity(t *testing.T) {
	t.Parallel()
	disc, classic := newSession(t), newSession(t, server.WithClassic(true))
	tests := []struct {
		tool    string
		args    map[string]any
		want    string
		isError bool
	}{
		{"fake_echo", map[string]any{"message": "hello", "format": "json", "count": "42"}, "hello --format json --count 42", false},
		{"fake_echo", map[string]any{"message": "big", "count": 12345678901234}, "big --count 12345678901234", false},
		{"fake_fail", nil, "[stderr]\nsomething broke\n\n[exit code: 3]", true},
		{"fake_echo", map[string]any{}, "Argument validation failed:\n  - Missing required argument 'message'", true},
		{"fake_echo", map[string]any{"message": "x", "format": "xml"}, "Argument validation failed:\n  - Argument 'format' must be one of: json, text, csv", true},
		{"fake_echo", map[string]any{"message": "x", "count": "hello"}, "Argument validation failed:\n  - Argument 'count': cannot convert 'hello' to integer", true},
		{"fake_timeout", nil, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			via := call(t, disc, "climax_call", map[string]any{"tool_name": tt.tool, "args": tt.args})
			direct := call(t, classic, tt.tool, tt.args)
			vt, dt := text(t, via), text(t, direct)
			if vt != dt || via.IsError != direct.IsError {
				t.Errorf("climax_call: %v %q\nclassic:     %v %q", via.IsError, vt, direct.IsError, dt)
			}
			if tt.want != "" && vt != tt.want || via.IsError != tt.isError {
				t.Errorf("got %v %q\nwant %v %q", via.IsError, vt, tt.isError, tt.want)
			}
			vs, ds := structured(t, via), structured(t, direct)
			if vs != ds {
				t.Errorf("structured content differs:\n%s\n%s", vs, ds)
			}
			ranCommand := !strings.HasPrefix(vt, "Argument validation failed")
			if ranCommand != (vs != "null") {
				t.Errorf("structured content %s for %q", vs, vt)
			}
		})
	}
}

// structured returns a call's structured content as JSON, without the
// duration.
func structured(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if res.StructuredContent == nil {
		return "null"
	}
	m, ok := res.StructuredContent.(map[string]any)
	if !ok {
		t.Fatalf("structured content is %T", res.StructuredContent)
	}
	for _, k := range []string{"exit_code", "stdout", "stderr", "timed_out", "truncated", "duration_ms"} {
		if _, ok := m[k]; !ok {
			t.Errorf("structured content lacks %s: %v", k, m)
		}
	}
	delete(m, "duration_ms")
	b, _ := json.Marshal(m)
	return string(b)
}

func TestStructuredContent(t *testing.T) {
	t.Parallel()
	cs := newSession(t, server.WithClassic(true))
	res := call(t, cs, "fake_fail", nil)
	if got, want := structured(t, res), `{"exit_code":3,"stderr":"something broke\n","stdout":"","timed_out":false,"truncated":false}`; got != want {
		t.Errorf("structured content %s\nwant %s", got, want)
	}
}

func TestArgsNotAnObject(t *testing.T) {
	for _, classic := range []bool{false, true} {
		cs := newSession(t, server.WithClassic(classic))
		name := "fake_echo"
		if !classic {
			name = "climax_call"
		}
		for _, args := range []any{[]any{1}, "text", 3, true} {
			res := call(t, cs, name, args)
			got := text(t, res)
			if !res.IsError || !strings.HasPrefix(got, "Argument validation failed:\n  - Arguments must be a JSON object (got ") {
				t.Errorf("classic=%v args %v: %v %q", classic, args, res.IsError, got)
			}
		}
		// climax_call's own args must be an object too.
		if !classic {
			res := call(t, cs, name, map[string]any{"tool_name": "fake_echo", "args": []any{"x"}})
			if got := text(t, res); got != "Argument validation failed:\n  - Argument 'args' must be an object (got array)" {
				t.Errorf("climax_call args array: %q", got)
			}
		}
	}
}

func TestCancellationKillsCommand(t *testing.T) {
	t.Parallel()
	for _, classic := range []bool{false, true} {
		t.Run(fmt.Sprintf("classic=%v", classic), func(t *testing.T) {
			cs := newSession(t, server.WithClassic(classic))
			pidfile := filepath.Join(t.TempDir(), "pid")
			name, args := "fake_sleep", any(map[string]any{"seconds": "30", "pidfile": pidfile})
			if !classic {
				name, args = "climax_call", map[string]any{"tool_name": "fake_sleep", "args": args}
			}
			ctx, cancel := context.WithCancel(context.Background())
			errc := make(chan error, 1)
			go func() {
				_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
				errc <- err
			}()
			pid := waitPID(t, pidfile)
			cancel()
			if err := <-errc; !errors.Is(err, context.Canceled) {
				t.Errorf("CallTool after cancel: %v", err)
			}
			waitGone(t, pid)
			// The session still works.
			if res := call(t, cs, "climax_search", map[string]any{"query": "echo"}); classic != res.IsError {
				t.Errorf("after cancel: %v %s", res.IsError, text(t, res))
			}
		})
	}
}

// waitTimeout bounds every wait of waitUntil: far beyond what any
// condition needs on a loaded machine.
const waitTimeout = 30 * time.Second

// waitUntil polls cond until it holds, and fails the test when it does
// not within waitTimeout; what says what was awaited ("the command
// started"), the failure calls it not so.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %s", waitTimeout, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitPID waits for a fake command to write its pid to pidfile, and
// returns the pid.
func waitPID(t *testing.T, pidfile string) int {
	t.Helper()
	pid := 0
	waitUntil(t, "the command started", func() bool {
		b, err := os.ReadFile(pidfile)
		if err == nil {
			pid, err = strconv.Atoi(string(b))
		}
		return err == nil
	})
	return pid
}

// waitGone waits for process pid to end (the executor reaps its
// children, so a killed process disappears).
func waitGone(t *testing.T, pid int) {
	t.Helper()
	waitUntil(t, fmt.Sprintf("process %d ended after it was to be killed", pid), func() bool { return !executortest.Alive(pid) })
}

// fakeTicker is a progress clock the test drives: each value sent on c is
// one tick.
type fakeTicker struct {
	c       chan time.Time
	started atomic.Int32 // calls that started the clock
}

func newFakeTicker() *fakeTicker { return &fakeTicker{c: make(chan time.Time)} }

func (f *fakeTicker) start() (<-chan time.Time, func()) {
	f.started.Add(1)
	return f.c, func() {}
}

// progressSession connects a client that collects the progress
// notifications it gets, to a test server running commands with runner
// whose progress clock is the returned fake ticker.
func progressSession(t *testing.T, runner *executor.Runner) (*mcp.ClientSession, <-chan *mcp.ProgressNotificationParams, *fakeTicker) {
	t.Helper()
	notes := make(chan *mcp.ProgressNotificationParams, 100)
	clock := newFakeTicker()
	srv := server.New(buildIndex(t), runner, server.WithProgressTicker(clock.start))
	cs := connect(t, srv, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) { notes <- req.Params },
	})
	return cs, notes, clock
}

// tick sends one tick, and returns once a call's progress sender took it.
func (f *fakeTicker) tick(t *testing.T) {
	t.Helper()
	select {
	case f.c <- time.Now():
	case <-time.After(30 * time.Second):
		t.Fatal("no call took the tick")
	}
}

// receive returns the next value of c.
func receive[T any](t *testing.T, c <-chan T) T {
	t.Helper()
	select {
	case v := <-c:
		return v
	case <-time.After(30 * time.Second):
		var zero T
		t.Fatalf("nothing received on %T in 30s", c)
		return zero
	}
}

// release creates file, which ends a fake_wait command waiting for it.
func release(t *testing.T, file string) {
	t.Helper()
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
}

type callResult struct {
	res *mcp.CallToolResult
	err error
}

// startCall calls a tool in the background.
func startCall(ctx context.Context, cs *mcp.ClientSession, params *mcp.CallToolParams) <-chan callResult {
	c := make(chan callResult, 1)
	go func() {
		res, err := cs.CallTool(ctx, params)
		c <- callResult{res, err}
	}()
	return c
}

// waitCall returns the parameters of a climax_call of fake_wait, with a
// progress token unless token is nil, and the files it waits for and
// writes its pid to.
func waitCall(t *testing.T, token any) (params *mcp.CallToolParams, file, pidfile string) {
	t.Helper()
	dir := t.TempDir()
	file, pidfile = filepath.Join(dir, "release"), filepath.Join(dir, "pid")
	params = &mcp.CallToolParams{Name: "climax_call", Arguments: map[string]any{"tool_name": "fake_wait", "args": map[string]any{"file": file, "pidfile": pidfile}}}
	if token != nil {
		params.SetProgressToken(token)
	}
	return params, file, pidfile
}

func TestProgress(t *testing.T) {
	t.Parallel()
	cs, notes, clock := progressSession(t, executor.New())

	// A call without a progress token: no clock.
	first, firstFile, firstPID := waitCall(t, nil)
	firstDone := startCall(context.Background(), cs, first)
	waitPID(t, firstPID)

	// A call with a token: a notification per tick.
	second, secondFile, secondPID := waitCall(t, "tok-1")
	secondDone := startCall(context.Background(), cs, second)
	waitPID(t, secondPID)
	last := 0.0
	for range 3 {
		clock.tick(t)
		p := receive(t, notes)
		if p.ProgressToken != "tok-1" || p.Progress <= last || !progressMessage.MatchString(p.Message) {
			t.Errorf("notification: token %v, progress %v after %v, message %q", p.ProgressToken, p.Progress, last, p.Message)
		}
		last = p.Progress
	}
	release(t, secondFile)
	if r := receive(t, secondDone); r.err != nil || r.res.IsError || text(t, r.res) != "released" {
		t.Fatalf("second call: %v %+v", r.err, r.res)
	}
	release(t, firstFile)
	if r := receive(t, firstDone); r.err != nil || r.res.IsError || text(t, r.res) != "released" {
		t.Fatalf("first call: %v %+v", r.err, r.res)
	}
	if n := clock.started.Load(); n != 1 {
		t.Errorf("the progress clock started %d times, want 1 (only the call with a token)", n)
	}
	select {
	case p := <-notes:
		t.Errorf("notification after the calls ended: %+v", p)
	default:
	}
}

var (
	progressMessage = regexp.MustCompile(`^running fake_wait \([0-9]+s\)$`)
	waitingMessage  = regexp.MustCompile(`^waiting for a free slot to run fake_wait \([0-9]+s\)$`)
)

// With one command slot, a second call waits for the first to end, and
// its progress says it waits, then that it runs.
func TestMaxConcurrentWaits(t *testing.T) {
	t.Parallel()
	cs, notes, clock := progressSession(t, executor.New(executor.WithMaxConcurrent(1)))
	first, firstFile, firstPID := waitCall(t, nil)
	firstDone := startCall(context.Background(), cs, first)
	waitPID(t, firstPID)
	second, secondFile, secondPID := waitCall(t, "tok-2")
	secondDone := startCall(context.Background(), cs, second)
	// The second call is being served; the first progress may come
	// before it reached the slot queue.
	for deadline := time.Now().Add(30 * time.Second); ; {
		clock.tick(t)
		p := receive(t, notes)
		if waitingMessage.MatchString(p.Message) {
			break
		}
		if !progressMessage.MatchString(p.Message) || time.Now().After(deadline) {
			t.Fatalf("progress while waiting for a slot: %q", p.Message)
		}
	}
	if _, err := os.Stat(secondPID); err == nil {
		t.Fatal("the second command started while the only slot was taken")
	}
	release(t, firstFile)
	if r := receive(t, firstDone); r.err != nil || text(t, r.res) != "released" {
		t.Fatalf("first call: %v %+v", r.err, r.res)
	}
	waitPID(t, secondPID)
	clock.tick(t)
	if p := receive(t, notes); !progressMessage.MatchString(p.Message) {
		t.Errorf("progress once running: %q", p.Message)
	}
	release(t, secondFile)
	if r := receive(t, secondDone); r.err != nil || text(t, r.res) != "released" {
		t.Fatalf("second call: %v %+v", r.err, r.res)
	}
}

// A call cancelled while it waits for a slot ends, and takes no slot.
func TestMaxConcurrentWaitCancelled(t *testing.T) {
	t.Parallel()
	cs, notes, clock := progressSession(t, executor.New(executor.WithMaxConcurrent(1)))
	first, file, pidfile := waitCall(t, nil)
	firstDone := startCall(context.Background(), cs, first)
	waitPID(t, pidfile)
	ctx, cancel := context.WithCancel(context.Background())
	waiting, _, waitingPID := waitCall(t, "tok-3")
	waitingDone := startCall(ctx, cs, waiting)
	clock.tick(t) // the waiting call is being served
	receive(t, notes)
	cancel()
	if r := receive(t, waitingDone); r.err == nil {
		t.Errorf("waiting call cancelled: %+v, want an error", r.res)
	}
	release(t, file)
	if r := receive(t, firstDone); r.err != nil || text(t, r.res) != "released" {
		t.Errorf("first call: %v %+v", r.err, r.res)
	}
	// The cancelled call never ran, and took no slot.
	if got := echoCall(t, cs, "after"); got != "after" {
		t.Errorf("call after: %q", got)
	}
	if _, err := os.Stat(waitingPID); err == nil {
		t.Error("the cancelled call's command ran")
	}
}

func TestCallsAreLogged(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	cs := connect(t, server.New(buildIndex(t), executor.New(), server.WithLogger(logger)), nil)
	long := strings.Repeat("a", 1000)
	call(t, cs, "climax_call", map[string]any{"tool_name": "fake_echo", "args": map[string]any{"message": long}})
	call(t, cs, "climax_call", map[string]any{"tool_name": "fake_fail"})
	call(t, cs, "climax_call", map[string]any{"tool_name": "nope"})
	out := logs.String()
	for _, want := range []string{
		"msg=call tool=fake_echo via=climax_call",
		strings.Repeat("a", 200) + "…(1000 bytes)",
		"exit_code=0",
		"msg=call tool=fake_fail via=climax_call",
		"exit_code=3",
		"duration_ms=",
		`msg="call rejected" tool=climax_call tool_name=nope error="Unknown tool: nope`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, strings.Repeat("a", 201)) {
		t.Errorf("long argument not shortened")
	}
}

// waitLog waits until logs hold substr.
func waitLog(t *testing.T, logs *syncBuffer, substr string) {
	t.Helper()
	waitLogCount(t, logs, substr, 1)
}

// waitLogCount waits until logs hold substr n times or more.
func waitLogCount(t *testing.T, logs *syncBuffer, substr string, n int) {
	t.Helper()
	waitUntil(t, fmt.Sprintf("%q logged %d times", substr, n), func() bool { return strings.Count(logs.String(), substr) >= n })
}

// syncBuffer is a bytes.Buffer safe for concurrent use.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestClassicWithoutTools(t *testing.T) {
	c, err := config.Parse([]byte(gitConfig), "git.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ix, _, err := index.New([]*config.Config{c}, &config.Policy{Default: config.PolicyDisabled})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, server.New(ix, executor.New(), server.WithClassic(true)), nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil || len(res.Tools) != 0 {
		t.Fatalf("tools/list: %v %v", res, err)
	}
	if r := call(t, cs, "git_status", nil); !r.IsError || text(t, r) != "Unknown tool: git_status" {
		t.Errorf("disabled tool: %v %q", r.IsError, text(t, r))
	}
}
