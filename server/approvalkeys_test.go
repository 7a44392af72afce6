package server_test

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// roundRobin sends each HTTP request to the next of backends, as a load
// balancer without session affinity does, and records where each went.
type roundRobin struct {
	backends []*url.URL

	mu   sync.Mutex
	next int
	sent []int // backend index of each POST
}

func (rr *roundRobin) RoundTrip(req *http.Request) (*http.Response, error) {
	rr.mu.Lock()
	i := rr.next % len(rr.backends)
	rr.next++
	if req.Method == http.MethodPost {
		rr.sent = append(rr.sent, i)
	}
	rr.mu.Unlock()
	req = req.Clone(req.Context())
	req.URL.Scheme, req.URL.Host, req.Host = rr.backends[i].Scheme, rr.backends[i].Host, rr.backends[i].Host
	return http.DefaultTransport.RoundTrip(req)
}

// replicas serves the approval test tools from n stateless HTTP servers
// made with sopts, and returns a client session on MCP 2026-07-28 (which
// retries a call with the user's answer) whose requests go to them in
// turn, and the record of its answers.
func replicas(t *testing.T, n int, sopts ...server.Option) (*mcp.ClientSession, *answering, *roundRobin) {
	t.Helper()
	rr := &roundRobin{}
	for range n {
		hs := serveHTTPIndex(t, confirmIndex(t, sleepNeedsApproval), server.HTTPOptions{Stateless: true}, sopts...)
		u, err := url.Parse(hs.url)
		if err != nil {
			t.Fatal(err)
		}
		rr.backends = append(rr.backends, u)
	}
	a := &answering{answer: answer("accept", map[string]any{"approve": true})}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, a.options())
	transport := &mcp.StreamableClientTransport{Endpoint: rr.backends[0].String(), MaxRetries: -1, HTTPClient: &http.Client{Transport: rr}}
	cs, err := client.Connect(context.Background(), transport, &mcp.ClientSessionOptions{ProtocolVersion: newProtocol})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, a, rr
}

// TestApprovalSharedKeyAcrossReplicas: three stateless replicas that share
// an approval key, behind a round-robin balancer: the retry that carries
// the user's answer reaches another replica than the one that asked, which
// accepts the state, so the user is asked once and the command runs.
// Without the shared key the other replica does not know the state and
// asks again.
func TestApprovalSharedKeyAcrossReplicas(t *testing.T) {
	t.Parallel()
	key := []byte(strings.Repeat("k", server.MinApprovalKeyLen))
	cs, a, rr := replicas(t, 3, server.WithApprovalKeys(key))
	marker := filepath.Join(t.TempDir(), "ran")
	rr.mu.Lock()
	before := len(rr.sent)
	rr.mu.Unlock()
	res := sleepCall(t, cs, marker)
	if res.IsError || !exists(marker) || len(a.asked()) != 1 {
		t.Fatalf("shared key: error %v %q, ran %v, asked %d times (want once)", res.IsError, text(t, res), exists(marker), len(a.asked()))
	}
	rr.mu.Lock()
	calls := rr.sent[before:]
	rr.mu.Unlock()
	if len(calls) != 2 || calls[0] == calls[1] {
		t.Fatalf("the call and its retry went to replicas %v: want two different ones", calls)
	}

	// Each replica with a key of its own: the retry is asked again, by
	// every replica it reaches, until the client gives up.
	cs, a, _ = replicas(t, 3)
	marker = filepath.Join(t.TempDir(), "ran")
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "climax_call", Arguments: map[string]any{"tool_name": "fake_sleep", "args": map[string]any{"seconds": "0", "pidfile": marker}}})
	if exists(marker) || len(a.asked()) < 2 {
		t.Fatalf("keys of their own: %+v %v, ran %v, asked %d times (want again and again)", res, err, exists(marker), len(a.asked()))
	}
}

// TestApprovalKeyRotation: a server accepts states signed with any of its
// keys and signs with the first, so keys rotate in three steps without a
// user asked twice: add the new key second (it is accepted everywhere),
// then first (it signs), then drop the old one once the states it signed
// have expired.
func TestApprovalKeyRotation(t *testing.T) {
	t.Parallel()
	oldKey := bytes.Repeat([]byte("o"), server.MinApprovalKeyLen)
	newKey := bytes.Repeat([]byte("n"), server.MinApprovalKeyLen)
	opts := &mcp.ClientOptions{
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return nil, nil // declares the capability; the retries carry the answers
		},
	}
	ix := confirmIndex(t, sleepNeedsApproval)
	steps := map[string]*mcp.ClientSession{
		"old":       connectAt(t, server.New(ix, executor.New(), server.WithApprovalKeys(oldKey)), opts, newProtocol),
		"old+new":   connectAt(t, server.New(ix, executor.New(), server.WithApprovalKeys(oldKey, newKey)), opts, newProtocol),
		"new+old":   connectAt(t, server.New(ix, executor.New(), server.WithApprovalKeys(newKey, oldKey)), opts, newProtocol),
		"new":       connectAt(t, server.New(ix, executor.New(), server.WithApprovalKeys(newKey)), opts, newProtocol),
		"empty key": connectAt(t, server.New(ix, executor.New(), server.WithApprovalKeys(nil, oldKey)), opts, newProtocol),
	}
	yes := mcp.InputResponseMap{"climax_approval": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}}
	for _, tt := range []struct {
		asks, answers string
		accepted      bool
	}{
		{"old", "old+new", true},     // step 1 rolling out
		{"old+new", "old", true},     // the state is signed with the old key
		{"old+new", "new+old", true}, // step 2 rolling out
		{"new+old", "old+new", true},
		{"new+old", "new", true}, // step 3 rolling out
		{"old", "new+old", true},
		{"empty key", "old", true}, // empty keys are left out
		{"old", "new", false},      // a jump from one key to the other asks again
		{"new", "old", false},
	} {
		marker := filepath.Join(t.TempDir(), "ran")
		args := map[string]any{"tool_name": "fake_sleep", "args": map[string]any{"seconds": "0", "pidfile": marker}}
		first, err := steps[tt.asks].CallTool(context.Background(), &mcp.CallToolParams{Name: "climax_call", Arguments: args})
		if err != nil || !first.NeedsInput() {
			t.Fatalf("%s: first round %+v %v", tt.asks, first, err)
		}
		res, err := steps[tt.answers].CallTool(context.Background(), &mcp.CallToolParams{Name: "climax_call", Arguments: args, InputResponses: yes, RequestState: first.RequestState})
		if err != nil {
			t.Fatal(err)
		}
		if ran := exists(marker) && !res.NeedsInput(); ran != tt.accepted {
			t.Errorf("asked by %q, answered at %q: ran %v, want %v (%+v)", tt.asks, tt.answers, ran, tt.accepted, res)
		}
	}
}

func TestParseApprovalKeys(t *testing.T) {
	k1, k2 := strings.Repeat("a", 64), strings.Repeat("b", 32)
	keys, err := server.ParseApprovalKeys([]byte("# current, then previous\n\n  " + k1 + "  \r\n" + k2 + "\n"))
	if err != nil || len(keys) != 2 || string(keys[0]) != k1 || string(keys[1]) != k2 {
		t.Fatalf("keys %q, %v", keys, err)
	}
	for _, tt := range []struct{ data, want string }{
		{"", "no key in it"},
		{"# only a comment\n\n", "no key in it"},
		{k1 + "\nshort\n", "line 2: the key has 5 characters, fewer than 32"},
	} {
		if _, err := server.ParseApprovalKeys([]byte(tt.data)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseApprovalKeys(%q): %v, want %q", tt.data, err, tt.want)
		}
	}
}
