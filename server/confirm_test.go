package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
	"github.com/climax-mcp/climax/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The protocol versions a client may speak: the current one, where the
// server asks for input in its answer and the client retries the call, and
// the one before, where the server sends elicitation/create mid-call.
const (
	newProtocol = "2026-07-28"
	oldProtocol = "2025-11-25"
)

var protocols = []string{newProtocol, oldProtocol}

// confirmIndex is the test tool set with policy applied.
func confirmIndex(t *testing.T, policy string) *index.Index {
	t.Helper()
	return parseIndexWithPolicy(t, policy, fakeConfig(t), gitConfig)
}

// sleepNeedsApproval enables every tool; fake_sleep needs approval.
const sleepNeedsApproval = "default: enabled\ntools:\n  fake_sleep: {confirm: true}\n"

// connectAt connects a client speaking version (the client's default
// when "") to srv in memory.
func connectAt(t *testing.T, srv *server.Server, opts *mcp.ClientOptions, version string) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts)
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	if got := cs.InitializeResult().ProtocolVersion; version != "" && got != version {
		t.Fatalf("negotiated protocol %s, want %s", got, version)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// answering is a client that answers every approval request with answer
// and keeps the requests it got.
type answering struct {
	mu       sync.Mutex
	requests []*mcp.ElicitParams
	answer   func(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error)
}

func (a *answering) options() *mcp.ClientOptions {
	return &mcp.ClientOptions{ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		a.mu.Lock()
		a.requests = append(a.requests, req.Params)
		a.mu.Unlock()
		return a.answer(ctx, req.Params)
	}}
}

func (a *answering) asked() []*mcp.ElicitParams {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]*mcp.ElicitParams(nil), a.requests...)
}

func answer(action string, content map[string]any) func(context.Context, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	return func(context.Context, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: action, Content: content}, nil
	}
}

// sleepCall calls fake_sleep through climax_call; the command would write
// its pid to marker.
func sleepCall(t *testing.T, cs *mcp.ClientSession, marker string) *mcp.CallToolResult {
	t.Helper()
	return call(t, cs, "climax_call", map[string]any{"tool_name": "fake_sleep", "args": map[string]any{"seconds": "0", "pidfile": marker}})
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func TestApprovalAccepted(t *testing.T) {
	t.Parallel()
	for _, version := range protocols {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			a := &answering{answer: answer("accept", map[string]any{"approve": true})}
			cs := connectAt(t, server.New(confirmIndex(t, sleepNeedsApproval), executor.New()), a.options(), version)
			marker := filepath.Join(t.TempDir(), "ran")
			res := sleepCall(t, cs, marker)
			if res.IsError || text(t, res) != "slept 0" || !exists(marker) {
				t.Fatalf("approved call: %v %q, ran %v", res.IsError, text(t, res), exists(marker))
			}
			asked := a.asked()
			if len(asked) != 1 {
				t.Fatalf("asked %d times, want once", len(asked))
			}
			exe, _ := os.Executable()
			wd, _ := os.Getwd()
			want := fmt.Sprintf("Allow fake_sleep to run this command?\n\n%s sleep 0 %s\n\nWorking directory: %s\nExecutor: local", exe, marker, wd)
			if asked[0].Message != want || asked[0].Mode != "form" {
				t.Errorf("message:\n%s\nwant:\n%s", asked[0].Message, want)
			}
			data, _ := json.Marshal(asked[0].RequestedSchema)
			var schema struct {
				Type       string                    `json:"type"`
				Properties map[string]map[string]any `json:"properties"`
				Required   []string                  `json:"required"`
			}
			if err := json.Unmarshal(data, &schema); err != nil || schema.Type != "object" || len(schema.Properties) != 1 ||
				schema.Properties["approve"]["type"] != "boolean" || len(schema.Required) != 1 || schema.Required[0] != "approve" {
				t.Errorf("requested schema %s", data)
			}
			// A tool that needs no approval asks nothing.
			echoCall(t, cs, "hi")
			if n := len(a.asked()); n != 1 {
				t.Errorf("fake_echo asked for approval (%d requests)", n)
			}
		})
	}
}

func TestApprovalRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		answer func(context.Context, *mcp.ElicitParams) (*mcp.ElicitResult, error)
		want   string
	}{
		{"decline", answer("decline", nil), "The user declined to run fake_sleep: nothing ran."},
		{"cancel", answer("cancel", nil), "The user dismissed the approval request for fake_sleep: nothing ran."},
		{"approve false", answer("accept", map[string]any{"approve": false}), "The user declined to run fake_sleep: nothing ran."},
		{"timeout", func(ctx context.Context, _ *mcp.ElicitParams) (*mcp.ElicitResult, error) {
			// The user never answers (under the new protocol the client
			// retries when the request has expired).
			time.Sleep(300 * time.Millisecond)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, nil
		}, "The user did not answer the approval request for fake_sleep within 100ms: nothing ran."},
	}
	for _, tt := range tests {
		for _, version := range protocols {
			t.Run(tt.name+"/"+version, func(t *testing.T) {
				t.Parallel()
				a := &answering{answer: tt.answer}
				var audit syncBuffer
				// Only the unanswered case waits for the time limit; the others
				// get time to answer on a busy machine.
				limit := 30 * time.Second
				if tt.name == "timeout" {
					limit = 100 * time.Millisecond
				}
				srv := server.New(confirmIndex(t, sleepNeedsApproval), executor.New(), server.WithConfirmTimeout(limit), server.WithAuditLog(&audit))
				cs := connectAt(t, srv, a.options(), version)
				marker := filepath.Join(t.TempDir(), "ran")
				res := sleepCall(t, cs, marker)
				if !res.IsError || text(t, res) != tt.want {
					t.Errorf("result %v %q, want %q", res.IsError, text(t, res), tt.want)
				}
				if exists(marker) {
					t.Fatal("the command ran")
				}
				if len(a.asked()) != 1 {
					t.Errorf("asked %d times", len(a.asked()))
				}
				rec := auditRecord(t, flushed(t, srv, &audit))
				wantApproval := "declined"
				if tt.name == "timeout" {
					wantApproval = "unanswered"
				}
				if rec["approval"] != wantApproval || rec["outcome"] != "refused" || rec["tool"] != "fake_sleep" {
					t.Errorf("audit record %v", rec)
				}
			})
		}
	}
}

// auditRecord decodes the only line of an audit log.
func auditRecord(t *testing.T, log string) map[string]any {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(log), "\n")
	if len(lines) != 1 {
		t.Fatalf("audit log has %d lines:\n%s", len(lines), log)
	}
	var rec map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &rec); err != nil {
		t.Fatal(err)
	}
	return rec
}

func TestApprovalClientCannotBeAsked(t *testing.T) {
	t.Parallel()
	for _, version := range protocols {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			var audit syncBuffer
			srv := server.New(confirmIndex(t, sleepNeedsApproval), executor.New(), server.WithAuditLog(&audit))
			cs := connectAt(t, srv, nil, version) // no elicitation handler: no capability
			marker := filepath.Join(t.TempDir(), "ran")
			res := sleepCall(t, cs, marker)
			want := "fake_sleep needs the user's approval before it runs, and CLImax could not ask for it: the client did not declare the elicitation capability. Nothing ran. " +
				"An operator can change this: exempt the tool (confirm: false under its name in the policy), loosen the rule (--confirm, or confirm: in the policy), ask on this machine (--confirm-via auto, dialog or tty), or let such calls run unapproved with --confirm-fallback allow."
			if !res.IsError || text(t, res) != want {
				t.Errorf("result %v %q", res.IsError, text(t, res))
			}
			if exists(marker) {
				t.Fatal("the command ran")
			}
			if rec := auditRecord(t, flushed(t, srv, &audit)); rec["approval"] != "not_asked" || rec["outcome"] != "refused" {
				t.Errorf("audit record %v", rec)
			}
		})
	}
}

func TestApprovalFallbackAllow(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	var audit syncBuffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv := server.New(confirmIndex(t, sleepNeedsApproval), executor.New(), server.WithConfirmFallback(true), server.WithLogger(logger), server.WithAuditLog(&audit))
	cs := connectAt(t, srv, nil, oldProtocol)
	marker := filepath.Join(t.TempDir(), "ran")
	if res := sleepCall(t, cs, marker); res.IsError || !exists(marker) {
		t.Fatalf("fallback allow: %v %q, ran %v", res.IsError, text(t, res), exists(marker))
	}
	if l := logs.String(); !strings.Contains(l, "level=WARN") || !strings.Contains(l, "running without the user's approval") || !strings.Contains(l, "tool=fake_sleep") {
		t.Errorf("log: %s", l)
	}
	if rec := auditRecord(t, flushed(t, srv, &audit)); rec["approval"] != "not_asked" || rec["outcome"] != "ok" {
		t.Errorf("audit record %v", rec)
	}
}

func TestApprovalClassic(t *testing.T) {
	t.Parallel()
	for _, version := range protocols {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			a := &answering{answer: answer("decline", nil)}
			cs := connectAt(t, server.New(confirmIndex(t, sleepNeedsApproval), executor.New(), server.WithClassic(true)), a.options(), version)
			marker := filepath.Join(t.TempDir(), "ran")
			res := call(t, cs, "fake_sleep", map[string]any{"seconds": "0", "pidfile": marker})
			if !res.IsError || text(t, res) != "The user declined to run fake_sleep: nothing ran." || exists(marker) {
				t.Fatalf("classic declined: %v %q, ran %v", res.IsError, text(t, res), exists(marker))
			}
			a.answer = answer("accept", map[string]any{"approve": true})
			if res := call(t, cs, "fake_sleep", map[string]any{"seconds": "0", "pidfile": marker}); res.IsError || !exists(marker) {
				t.Fatalf("classic approved: %v %q", res.IsError, text(t, res))
			}
			if init := cs.InitializeResult(); init.Instructions != server.ClassicConfirmInstructions {
				t.Errorf("classic instructions %q", init.Instructions)
			}
		})
	}
}

func TestApprovalInvalidArgsAskNothing(t *testing.T) {
	t.Parallel()
	a := &answering{answer: answer("accept", map[string]any{"approve": true})}
	cs := connectAt(t, server.New(confirmIndex(t, "default: enabled\nconfirm: all\n"), executor.New()), a.options(), oldProtocol)
	res := call(t, cs, "climax_call", map[string]any{"tool_name": "fake_echo", "args": map[string]any{}})
	if !res.IsError || !strings.Contains(text(t, res), "Missing required argument 'message'") || len(a.asked()) != 0 {
		t.Fatalf("invalid call: %q, asked %d", text(t, res), len(a.asked()))
	}
}

func TestApprovalSearchAndInstructions(t *testing.T) {
	t.Parallel()
	cs := connect(t, server.New(confirmIndex(t, sleepNeedsApproval), executor.New()), nil)
	if got := cs.InitializeResult().Instructions; got != server.DiscoveryInstructions+" "+server.DiscoveryConfirmInstructions {
		t.Errorf("instructions %q", got)
	}
	res := call(t, cs, "climax_search", map[string]any{"query": "fake"})
	var out struct {
		Results []map[string]any `json:"results"`
	}
	if err := json.Unmarshal([]byte(text(t, res)), &out); err != nil {
		t.Fatal(err)
	}
	for _, r := range out.Results {
		c, has := r["confirm"]
		if (r["tool_name"] == "fake_sleep") != has || has && c != true {
			t.Errorf("%v: confirm %v %v", r["tool_name"], c, has)
		}
	}
	// The meta-tools' descriptions stay as they are.
	plain := connect(t, server.New(buildIndex(t), executor.New()), nil)
	if got := plain.InitializeResult().Instructions; got != server.DiscoveryInstructions {
		t.Errorf("instructions without approvals %q", got)
	}
	for _, c := range []*mcp.ClientSession{cs, plain} {
		lt, err := c.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range lt.Tools {
			if strings.Contains(strings.ToLower(tool.Description), "approv") || strings.Contains(tool.Description, "confirm") {
				t.Errorf("%s description mentions approval: %q", tool.Name, tool.Description)
			}
		}
	}
}

// TestApprovalProgress: the heartbeat goes on while the user decides, and
// says so; then it says the command runs.
func TestApprovalProgress(t *testing.T) {
	t.Parallel()
	notes := make(chan *mcp.ProgressNotificationParams, 100)
	clock := newFakeTicker()
	asked, decided := make(chan struct{}), make(chan struct{})
	a := &answering{answer: func(context.Context, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		close(asked)
		<-decided
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, nil
	}}
	opts := a.options()
	opts.ProgressNotificationHandler = func(_ context.Context, req *mcp.ProgressNotificationClientRequest) { notes <- req.Params }
	ix := confirmIndex(t, "default: enabled\ntools:\n  fake_wait: {confirm: true}\n")
	cs := connectAt(t, server.New(ix, executor.New(), server.WithProgressTicker(clock.start)), opts, oldProtocol)
	params, file, pidfile := waitCall(t, "tok")
	done := startCall(context.Background(), cs, params)
	receive(t, asked)
	clock.tick(t)
	if p := receive(t, notes); !regexp.MustCompile(`^waiting for the user to approve fake_wait \([0-9]+s\)$`).MatchString(p.Message) {
		t.Errorf("progress while asking: %q", p.Message)
	}
	close(decided)
	waitPID(t, pidfile)
	clock.tick(t)
	if p := receive(t, notes); !progressMessage.MatchString(p.Message) {
		t.Errorf("progress while running: %q", p.Message)
	}
	release(t, file)
	if r := receive(t, done); r.err != nil || r.res.IsError || text(t, r.res) != "released" {
		t.Fatalf("call: %v %+v", r.err, r.res)
	}
}

// TestApprovalStateless: over stateless HTTP a client on the current
// protocol is asked through its retry; one on an older protocol cannot be
// asked.
func TestApprovalStateless(t *testing.T) {
	t.Parallel()
	hs := serveHTTPIndex(t, confirmIndex(t, sleepNeedsApproval), server.HTTPOptions{Stateless: true})
	for _, version := range protocols {
		t.Run(version, func(t *testing.T) {
			a := &answering{answer: answer("accept", map[string]any{"approve": true})}
			client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, a.options())
			cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: hs.url, MaxRetries: -1}, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			marker := filepath.Join(t.TempDir(), "ran")
			res := sleepCall(t, cs, marker)
			if version == newProtocol {
				if res.IsError || !exists(marker) || len(a.asked()) != 1 {
					t.Fatalf("stateless %s: %v %q, ran %v, asked %d", version, res.IsError, text(t, res), exists(marker), len(a.asked()))
				}
				return
			}
			if !res.IsError || !strings.Contains(text(t, res), "could not ask for it: this server runs stateless HTTP") || exists(marker) || len(a.asked()) != 0 {
				t.Fatalf("stateless %s: %v %q, ran %v", version, res.IsError, text(t, res), exists(marker))
			}
		})
	}
}

// TestApprovalRetryState: under the current protocol the answer comes
// back in a retry, and only with the request state the server issued for
// that very command, once.
func TestApprovalRetryState(t *testing.T) {
	t.Parallel()
	opts := &mcp.ClientOptions{
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
		// Declares the capability; the retries below carry the answers.
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			t.Error("the server sent elicitation/create under " + newProtocol)
			return nil, nil
		},
	}
	cs := connectAt(t, server.New(confirmIndex(t, sleepNeedsApproval), executor.New()), opts, newProtocol)
	marker := filepath.Join(t.TempDir(), "ran")
	args := map[string]any{"tool_name": "fake_sleep", "args": map[string]any{"seconds": "0", "pidfile": marker}}
	yes := mcp.InputResponseMap{"climax_approval": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}}
	try := func(state string, responses mcp.InputResponseMap, arguments map[string]any) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "climax_call", Arguments: arguments, InputResponses: responses, RequestState: state})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}

	first := try("", nil, args)
	if !first.NeedsInput() || first.RequestState == "" || first.InputRequests["climax_approval"] == nil {
		t.Fatalf("first round: %+v", first)
	}
	// An answer without the server's state, or with a forged one, is
	// not taken: the server asks again.
	for _, state := range []string{"", "forged", first.RequestState + "x"} {
		if res := try(state, yes, args); !res.NeedsInput() || exists(marker) {
			t.Fatalf("state %q: %+v, ran %v", state, res, exists(marker))
		}
	}
	// The state of another command does not approve this one.
	other := map[string]any{"tool_name": "fake_sleep", "args": map[string]any{"seconds": "0.1", "pidfile": marker}}
	if res := try(first.RequestState, yes, other); !res.NeedsInput() || exists(marker) {
		t.Fatalf("state of another command: %+v, ran %v", res, exists(marker))
	}
	// The right state approves once.
	if res := try(first.RequestState, yes, args); res.NeedsInput() || res.IsError || !exists(marker) {
		t.Fatalf("approved retry: %+v, ran %v", res, exists(marker))
	}
	os.Remove(marker)
	if res := try(first.RequestState, yes, args); !res.NeedsInput() || exists(marker) {
		t.Fatalf("replayed state: %+v, ran %v", res, exists(marker))
	}
}

// TestApprovalHidesSecrets: the question shows secret values as ***; the
// command gets the real value.
func TestApprovalHidesSecrets(t *testing.T) {
	t.Parallel()
	src := auditIndex(t).Tools()[0].CLI
	ix, _, err := index.New([]*config.Config{src}, config.WithConfirm(nil, config.ConfirmAll))
	if err != nil {
		t.Fatal(err)
	}
	a := &answering{answer: answer("accept", map[string]any{"approve": true})}
	cs := connectAt(t, server.New(ix, executor.New()), a.options(), oldProtocol)
	res := call(t, cs, "climax_call", map[string]any{"tool_name": "fake_login", "args": map[string]any{"user": "ann marie", "token": "s3cr3t"}})
	if res.IsError || text(t, res) != "ann marie --token=s3cr3t" {
		t.Fatalf("approved call: %q", text(t, res))
	}
	asked := a.asked()
	if len(asked) != 1 || strings.Contains(asked[0].Message, "s3cr3t") || !strings.Contains(asked[0].Message, " echo 'ann marie' '--token=***'\n") {
		t.Fatalf("question: %q", asked[0].Message)
	}
}

func TestApprovalNamesDockerImage(t *testing.T) {
	t.Parallel()
	a := &answering{answer: answer("decline", nil)}
	ix := confirmIndex(t, "executor: {type: docker, image: alpine/git, working_dir: /workspace}\ndefault: enabled\nconfirm: all\n")
	cs := connectAt(t, server.New(ix, executor.New()), a.options(), oldProtocol)
	res := call(t, cs, "climax_call", map[string]any{"tool_name": "fake_echo", "args": map[string]any{"message": "hi"}})
	if !res.IsError || text(t, res) != "The user declined to run fake_echo: nothing ran." {
		t.Fatalf("declined: %q", text(t, res))
	}
	asked := a.asked()
	if len(asked) != 1 || !strings.Contains(asked[0].Message, "\n\ndocker run --rm --network none ") ||
		!strings.Contains(asked[0].Message, " --workdir=/workspace -e ") ||
		!strings.HasSuffix(asked[0].Message, "\nExecutor: docker, image alpine/git") {
		t.Fatalf("question: %q", asked[0].Message)
	}
	// The config's env is passed by name: its values are not in the question.
	if !strings.Contains(asked[0].Message, " -e GORACE ") || strings.Contains(asked[0].Message, "atexit_sleep_ms") {
		t.Fatalf("question shows an env value: %q", asked[0].Message)
	}
}

func TestApprovalNamesPodman(t *testing.T) {
	t.Parallel()
	a := &answering{answer: answer("decline", nil)}
	ix := confirmIndex(t, "executor: {type: docker, runtime: podman, image: alpine/git}\ndefault: enabled\nconfirm: all\n")
	cs := connectAt(t, server.New(ix, executor.New()), a.options(), oldProtocol)
	call(t, cs, "climax_call", map[string]any{"tool_name": "fake_echo", "args": map[string]any{"message": "hi"}})
	asked := a.asked()
	if len(asked) != 1 || !strings.Contains(asked[0].Message, "\n\npodman run --rm ") ||
		!strings.HasSuffix(asked[0].Message, "\nExecutor: podman, image alpine/git") {
		t.Fatalf("question: %q", asked[0].Message)
	}
}

// TestApprovalWriteRule: under --confirm write a tool annotated read_only
// runs without a question; the others ask.
func TestApprovalWriteRule(t *testing.T) {
	t.Parallel()
	c, err := config.Parse([]byte(fakeConfig(t)), "fake.yaml")
	if err != nil {
		t.Fatal(err)
	}
	yes := true
	for i := range c.Tools {
		if c.Tools[i].Name == "fake_echo" {
			c.Tools[i].ReadOnly = &yes
		}
	}
	ix, _, err := index.New([]*config.Config{c}, config.WithConfirm(nil, config.ConfirmWrite))
	if err != nil {
		t.Fatal(err)
	}
	for _, version := range protocols {
		t.Run(version, func(t *testing.T) {
			a := &answering{answer: answer("decline", nil)}
			cs := connectAt(t, server.New(ix, executor.New()), a.options(), version)
			if got := echoCall(t, cs, "read only"); got != "read only" || len(a.asked()) != 0 {
				t.Fatalf("read-only tool: %q, asked %d", got, len(a.asked()))
			}
			marker := filepath.Join(t.TempDir(), "ran")
			if res := sleepCall(t, cs, marker); !res.IsError || exists(marker) || len(a.asked()) != 1 {
				t.Fatalf("tool without read_only: %q, ran %v, asked %d", text(t, res), exists(marker), len(a.asked()))
			}
		})
	}
}

// A call approved after the tool set was replaced (a reload under
// --watch while the user was asked) runs only when the current set still
// has its tool and builds the same command from its arguments.
func TestApprovalRecheckedAfterReload(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		next   func(t *testing.T) *index.Index
		ran    bool
		reason string
	}{
		{"gone", func(t *testing.T) *index.Index { return parseIndex(t, gitConfig) }, false, "it is no longer among them"},
		{"disabled", func(t *testing.T) *index.Index {
			return confirmIndex(t, "default: disabled\ntools:\n  fake_echo: {}\n")
		}, false, "it is no longer among them"},
		{"refused", func(t *testing.T) *index.Index {
			return confirmIndex(t, "default: enabled\ntools:\n  fake_sleep:\n    confirm: true\n    args:\n      seconds: {pattern: \"[1-9]\"}\n")
		}, false, "they refuse this call now"},
		{"same", func(t *testing.T) *index.Index { return confirmIndex(t, sleepNeedsApproval) }, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var audit syncBuffer
			srv := server.New(confirmIndex(t, sleepNeedsApproval), executor.New(), server.WithAuditLog(&audit))
			next := tc.next(t)
			a := &answering{answer: func(context.Context, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
				srv.Replace(next) // while the user is asked
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, nil
			}}
			cs := connectAt(t, srv, a.options(), oldProtocol)
			marker := filepath.Join(t.TempDir(), "ran")
			res := sleepCall(t, cs, marker)
			if exists(marker) != tc.ran {
				t.Fatalf("ran = %v, want %v; result %q", exists(marker), tc.ran, text(t, res))
			}
			if tc.ran {
				if res.IsError {
					t.Errorf("result %q", text(t, res))
				}
				return
			}
			want := "fake_sleep was approved, but the served tools were reloaded while the user was asked, and " + tc.reason
			if !res.IsError || !strings.HasPrefix(text(t, res), want) || !strings.HasSuffix(text(t, res), "Nothing ran.") {
				t.Errorf("result %q, want it to start %q", text(t, res), want)
			}
			if rec := auditRecord(t, flushed(t, srv, &audit)); rec["approval"] != "confirmed" || rec["outcome"] != "refused" {
				t.Errorf("audit record %v", rec)
			}
		})
	}
}
