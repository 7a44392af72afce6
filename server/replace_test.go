package server_test

import (
	"context"
	"fmt"
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
	return parseIndex(t, gitConfig)
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

// parseIndex builds an index of the given configs.
func parseIndex(t testing.TB, yamls ...string) *index.Index {
	t.Helper()
	return parseIndexWithPolicy(t, "", yamls...)
}

// parseIndexWithPolicy builds an index of the given configs with the
// policy YAML applied ("" for none).
func parseIndexWithPolicy(t testing.TB, policy string, yamls ...string) *index.Index {
	t.Helper()
	var cfgs []*config.Config
	for i, y := range yamls {
		c, err := config.Parse([]byte(y), fmt.Sprintf("config%d.yaml", i))
		if err != nil {
			t.Fatal(err)
		}
		cfgs = append(cfgs, c)
	}
	var pol *config.Policy
	if policy != "" {
		var err error
		if pol, err = config.ParsePolicy([]byte(policy), "policy.yaml"); err != nil {
			t.Fatal(err)
		}
	}
	ix, _, err := index.New(cfgs, pol)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// listChanges counts the notifications/tools/list_changed a client gets.
type listChanges chan struct{}

func (c listChanges) handler(context.Context, *mcp.ToolListChangedRequest) { c <- struct{}{} }

// none fails if a notification arrives. go-sdk sends notifications 10 ms
// after the change that causes them, so absence can only be shown by
// waiting a while.
func (c listChanges) none(t *testing.T, what string) {
	t.Helper()
	select {
	case <-c:
		t.Errorf("%s: notifications/tools/list_changed sent", what)
	case <-time.After(300 * time.Millisecond):
	}
}

func (c listChanges) one(t *testing.T, what string) {
	t.Helper()
	select {
	case <-c:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: no notifications/tools/list_changed", what)
	}
}

func TestReplaceClassicNotifiesOnlyWhenTheListChanges(t *testing.T) {
	t.Parallel()
	fake := fakeConfig(t)
	srv := server.New(parseIndex(t, fake, gitConfig), executor.New(), server.WithClassic(true), server.WithListChanged(true))
	changes := make(listChanges, 100)
	cs := connect(t, srv, &mcp.ClientOptions{ToolListChangedHandler: changes.handler})
	echo := func() string {
		t.Helper()
		return strings.TrimSpace(text(t, call(t, cs, "fake_echo", map[string]any{"message": "hi"})))
	}
	if got := echo(); got != "hi" {
		t.Fatalf("before: fake_echo says %q", got)
	}

	// The same configs loaded again (a touch, or a fix that brings back
	// what was served).
	if srv.Replace(parseIndex(t, fake, gitConfig)) {
		t.Error("Replace with the same tools reported a change")
	}
	// A change no definition shows: fake_echo runs "echo extra" now. The
	// list stays, calls use the new set.
	withExtra := strings.Replace(fake, "command: echo\n", "command: echo extra\n", 1)
	if withExtra == fake {
		t.Fatal("fake config has no 'command: echo' line")
	}
	if srv.Replace(parseIndex(t, withExtra, gitConfig)) {
		t.Error("Replace with the same definitions reported a change")
	}
	if got := echo(); got != "extra hi" {
		t.Errorf("after Replace: fake_echo says %q, want the new command's %q", got, "extra hi")
	}
	changes.none(t, "same tools/list")

	// A changed description changes the list.
	described := strings.Replace(withExtra, `"Echo the message back"`, `"Echo it"`, 1)
	if !srv.Replace(parseIndex(t, described, gitConfig)) {
		t.Error("Replace with a new description reported no change")
	}
	changes.one(t, "new description")
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Tools[0].Name != "fake_echo" || res.Tools[0].Description != "Echo it" {
		t.Errorf("tools/list after Replace: %s %q", res.Tools[0].Name, res.Tools[0].Description)
	}
}

func TestReplaceDiscoveryNotifiesOnlyWhenTheMetaToolsChange(t *testing.T) {
	t.Parallel()
	srv := server.New(buildIndex(t), executor.New(), server.WithListChanged(true))
	changes := make(listChanges, 100)
	cs := connect(t, srv, &mcp.ClientOptions{ToolListChangedHandler: changes.handler})

	// Other tools behind the same meta-tools: searches see them, the list
	// is the same.
	if srv.Replace(onlyGit(t)) {
		t.Error("Replace that keeps the meta-tools' definitions reported a change")
	}
	if got := text(t, call(t, cs, "climax_search", map[string]any{"query": "fake_echo"})); strings.Contains(got, "fake_echo") {
		t.Errorf("after Replace, search still finds fake_echo: %s", got)
	}
	changes.none(t, "same meta-tools")

	// Only read-only tools behind climax_call: its annotations change.
	readOnly := strings.Replace(gitConfig, "    command: status\n", "    command: status\n    read_only: true\n", 1)
	if !srv.Replace(parseIndex(t, readOnly)) {
		t.Error("Replace that makes climax_call read-only reported no change")
	}
	changes.one(t, "climax_call read-only")
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range res.Tools {
		if tl.Name == "climax_call" && (tl.Annotations == nil || !tl.Annotations.ReadOnlyHint) {
			t.Errorf("climax_call after Replace: annotations %+v, want readOnlyHint", tl.Annotations)
		}
	}
}

// WithUnservedConfigs reaches climax_search, and stays after Replace: a
// query naming a config the server was not started with gets a hint.
func TestUnservedConfigsReachSearch(t *testing.T) {
	t.Parallel()
	srv := server.New(buildIndex(t), executor.New(), server.WithUnservedConfigs([]string{"kubectl", "git"}))
	cs := connect(t, srv, nil)
	search := func(q string) string {
		return text(t, call(t, cs, "climax_search", map[string]any{"query": q}))
	}
	const hint = `"hint":"If you meant the program kubectl: it is a bundled config this server was not started with."`
	for range 2 {
		if got := search("kubectl status"); !strings.Contains(got, hint) || !strings.Contains(got, `"tool_name":"git_status"`) {
			t.Errorf("kubectl status: %s, want git_status and %s", got, hint)
		}
		if got := search("git status"); strings.Contains(got, "started with") {
			t.Errorf("git status (git-tools runs git): %s", got)
		}
		srv.Replace(onlyGit(t))
	}
}
