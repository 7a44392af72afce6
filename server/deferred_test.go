package server_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/metatools"
	"github.com/climax-mcp/climax/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A deferred server answers initialize and tools/list before it has an
// index; calls made meanwhile wait for it and are answered once it comes.
func TestDeferredServesBeforeIndex(t *testing.T) {
	t.Parallel()
	srv, deliver := server.NewDeferred(executor.New())
	cs := connect(t, srv, nil) // initialize
	if got := cs.InitializeResult().Instructions; got != server.DiscoveryInstructions {
		t.Errorf("instructions = %q", got)
	}
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	if want := []string{metatools.SearchName, metatools.CallName}; strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("tools/list = %v, want %v", names, want)
	}

	type answer struct {
		name string
		text string
	}
	answers := make(chan answer, 3)
	for _, c := range []struct {
		name string
		args map[string]any
	}{
		{metatools.SearchName, map[string]any{"query": "echo"}},
		{metatools.CallName, map[string]any{"tool_name": "fake_echo", "args": map[string]any{"message": "hi there"}}},
		{"fake_echo", nil}, // not listed in discovery mode: the hint needs the index
	} {
		go func() {
			r := call(t, cs, c.name, c.args)
			answers <- answer{c.name, text(t, r)}
		}()
	}
	select {
	case a := <-answers:
		t.Fatalf("%s answered before the index was delivered: %s", a.name, a.text)
	case <-time.After(100 * time.Millisecond):
	}

	deliver(buildIndex(t))
	got := map[string]string{}
	for range 3 {
		select {
		case a := <-answers:
			got[a.name] = a.text
		case <-time.After(10 * time.Second):
			t.Fatalf("calls not answered after the index was delivered; got %v", got)
		}
	}
	if s := got[metatools.SearchName]; !strings.Contains(s, `"mode":"search"`) || !strings.Contains(s, `"fake_echo"`) {
		t.Errorf("climax_search = %s", s)
	}
	if s := got[metatools.CallName]; !strings.Contains(s, "hi there") {
		t.Errorf("climax_call = %s", s)
	}
	if s := got["fake_echo"]; !strings.Contains(s, "Unknown tool: fake_echo\nfake_echo is not listed directly") {
		t.Errorf("call of fake_echo = %s", s)
	}
}

// A call cancelled while it waits for the index gets an isError result
// at once; the server keeps serving and answers later calls.
func TestDeferredWaitCancelled(t *testing.T) {
	t.Parallel()
	srv, deliver := server.NewDeferred(executor.New())
	// Record what the server answers (outermost middleware): the client
	// itself stops listening when its context ends.
	results := make(chan *mcp.CallToolResult, 1)
	srv.MCP().AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if r, ok := res.(*mcp.CallToolResult); ok && err == nil {
				results <- r
			}
			return res, err
		}
	})
	cs := connect(t, srv, nil)

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: metatools.SearchName}); err == nil {
		t.Error("the cancelled call succeeded")
	}
	select {
	case r := <-results:
		if !r.IsError || !strings.Contains(text(t, r), "the tools were still loading") {
			t.Errorf("cancelled wait: isError %v, %q", r.IsError, text(t, r))
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the cancelled call is still waiting")
	}

	deliver(buildIndex(t))
	r := call(t, cs, metatools.SearchName, nil)
	if r.IsError || !strings.Contains(text(t, r), `"mode":"summary"`) {
		t.Errorf("climax_search after delivery: %q", text(t, r))
	}
	<-results
}

// Over stdio, a call piped before EOF is answered once the index comes,
// before ServeStdio returns.
func TestServeStdioDeferred(t *testing.T) {
	t.Parallel()
	srv, deliver := server.NewDeferred(executor.New())
	ix := buildIndex(t)
	go func() {
		time.Sleep(100 * time.Millisecond)
		deliver(ix)
	}()
	got := serveLines(t, srv, initialize, initialized,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		callLine(3, metatools.SearchName, map[string]any{"query": "echo"}))
	if len(got) != 3 {
		t.Fatalf("got %d responses, want 3: %v", len(got), got)
	}
	if r := string(got["3"].Result); !strings.Contains(r, `fake_echo`) {
		t.Errorf("climax_search: %s", r)
	}
}

// Misuse is a panic with a message, not a hang: classic mode without an
// index, delivering twice, delivering nil.
func TestDeferredMisuse(t *testing.T) {
	t.Parallel()
	ix := buildIndex(t)
	for name, f := range map[string]func(){
		"classic": func() { server.NewDeferred(executor.New(), server.WithClassic(true)) },
		"twice": func() {
			_, deliver := server.NewDeferred(executor.New())
			deliver(ix)
			deliver(ix)
		},
		"nil": func() {
			_, deliver := server.NewDeferred(executor.New())
			deliver((*index.Index)(nil))
		},
	} {
		var msg any
		func() {
			defer func() { msg = recover() }()
			f()
		}()
		if s, ok := msg.(string); !ok || !strings.HasPrefix(s, "server: ") {
			t.Errorf("%s: panic %v, want a server: message", name, msg)
		}
	}
}
