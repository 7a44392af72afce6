package server_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
	"github.com/climax-mcp/climax/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// onlyGit is an index of the git config alone: replacing the full index
// with it removes every fake_* tool.
func onlyGit(t *testing.T) *index.Index {
	t.Helper()
	c, err := config.Parse([]byte(gitConfig), "git.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ix, _, err := index.New([]*config.Config{c}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func listNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return names
}

func TestReplaceClassic(t *testing.T) {
	t.Parallel()
	srv := server.New(buildIndex(t), executor.New(), server.WithClassic(true), server.WithListChanged(true))
	changed := make(chan struct{}, 100)
	cs := connect(t, srv, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	})
	if init := cs.InitializeResult(); init.Capabilities.Tools == nil || !init.Capabilities.Tools.ListChanged {
		t.Errorf("tools.listChanged not declared: %+v", init.Capabilities.Tools)
	}
	if names := listNames(t, cs); !strings.Contains(strings.Join(names, " "), "fake_echo") {
		t.Fatalf("before: %v", names)
	}

	srv.Replace(onlyGit(t))
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("no notifications/tools/list_changed after Replace")
	}
	if names := listNames(t, cs); strings.Join(names, " ") != "git_status" {
		t.Errorf("after: tools/list = %v, want [git_status]", names)
	}
	res := call(t, cs, "fake_echo", map[string]any{"message": "x"})
	if !res.IsError || !strings.HasPrefix(text(t, res), "Unknown tool: fake_echo") {
		t.Errorf("removed tool still callable: %v %q", res.IsError, text(t, res))
	}
}

func TestReplaceDiscovery(t *testing.T) {
	t.Parallel()
	srv := server.New(buildIndex(t), executor.New())
	cs := connect(t, srv, nil)
	search := func() string {
		return text(t, call(t, cs, "climax_search", map[string]any{"query": "fake_echo"}))
	}
	if !strings.Contains(search(), `"tool_name":"fake_echo"`) {
		t.Fatalf("before: %s", search())
	}
	srv.Replace(onlyGit(t))
	if got := search(); strings.Contains(got, "fake_echo") {
		t.Errorf("after Replace, search still finds fake_echo: %s", got)
	}
	res := call(t, cs, "climax_call", map[string]any{"tool_name": "fake_echo"})
	if !res.IsError || !strings.HasPrefix(text(t, res), "Unknown tool: fake_echo") {
		t.Errorf("climax_call of a removed tool: %v %q", res.IsError, text(t, res))
	}
	if names := listNames(t, cs); strings.Join(names, " ") != "climax_search climax_call" {
		t.Errorf("tools/list = %v", names)
	}
}
