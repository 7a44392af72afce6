package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/server"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// longConfirmTimeout is a confirm timeout no test waits for: a question
// that is not given up at once fails the test (receive gives up sooner).
const longConfirmTimeout = 10 * time.Minute

// pipeSession is a stdio session served over pipes, spoken to line by
// line.
type pipeSession struct {
	in    *io.PipeWriter
	lines chan string
	done  chan error
}

func startPipe(t *testing.T, srv *server.Server) *pipeSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &pipeSession{in: inW, lines: make(chan string, 100), done: make(chan error, 1)}
	go func() {
		err := srv.ServeStdio(context.Background(), inR, outW)
		outW.Close()
		p.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	t.Cleanup(func() { inW.Close() })
	return p
}

func (p *pipeSession) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

// next returns the next output line, decoded, and the line itself.
func (p *pipeSession) next(t *testing.T) (response, string) {
	t.Helper()
	line := receive(t, p.lines)
	var r response
	if json.Unmarshal([]byte(line), &r) != nil {
		t.Fatalf("output line %q is not a JSON-RPC message (empty: the output ended)", line)
	}
	return r, line
}

// initializeAt is an initialize request for protocol version, with the
// elicitation capability or none.
func initializeAt(version string, elicitation bool) string {
	caps := `{}`
	if elicitation {
		caps = `{"elicitation":{}}`
	}
	return `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":` + caps + `,"clientInfo":{"name":"pipe","version":"1"}}}`
}

// sleepLine is a tools/call of fake_sleep (which needs approval under
// sleepNeedsApproval) whose command would write its pid to marker.
func sleepLine(id any, marker string) string {
	return callLine(id, "climax_call", map[string]any{"tool_name": "fake_sleep", "args": map[string]any{"seconds": "0", "pidfile": marker}})
}

// A client that asks for 2026-07-28 in initialize over stdio is answered
// with an older version, and is then spoken to in that version: asked
// with elicitation/create, or refused for want of the capability, never
// answered with an input_required result it cannot read.
func TestApprovalInitializeAskingForNewProtocol(t *testing.T) {
	t.Parallel()
	for _, elicitation := range []bool{true, false} {
		t.Run(map[bool]string{true: "elicitation", false: "no capability"}[elicitation], func(t *testing.T) {
			t.Parallel()
			p := startPipe(t, server.New(confirmIndex(t, sleepNeedsApproval), executor.New()))
			p.send(t, initializeAt(newProtocol, elicitation))
			var init struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			if r, line := p.next(t); json.Unmarshal(r.Result, &init) != nil || init.ProtocolVersion != oldProtocol {
				t.Fatalf("initialize: %s", line)
			}
			p.send(t, initialized)
			marker := filepath.Join(t.TempDir(), "ran")
			p.send(t, sleepLine(2, marker))
			want := "slept 0"
			if elicitation {
				q, line := p.next(t)
				if q.Method != "elicitation/create" || !strings.Contains(line, "Allow fake_sleep to run this command?") {
					t.Fatalf("want elicitation/create, got %s", line)
				}
				p.send(t, `{"jsonrpc":"2.0","id":`+string(q.ID)+`,"result":{"action":"accept","content":{"approve":true}}}`)
			} else {
				want = "could not ask for it: the client did not declare the elicitation capability"
			}
			r, line := p.next(t)
			if string(r.ID) != "2" || strings.Contains(line, `"content":null`) || strings.Contains(line, "resultType") ||
				strings.Contains(line, "inputRequests") || !strings.Contains(line, want) {
				t.Fatalf("call result %s, want one with %q", line, want)
			}
			if exists(marker) != elicitation {
				t.Errorf("ran %v", exists(marker))
			}
		})
	}
}

// askingFor is a client transport that asks for protocol version in
// initialize, whatever version its client asks for.
type askingFor struct {
	mcp.Transport
	version string
}

func (t askingFor) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	return askingConn{c, t.version}, err
}

type askingConn struct {
	mcp.Connection
	version string
}

func (c askingConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if r, ok := msg.(*jsonrpc.Request); ok && r.Method == "initialize" {
		var p map[string]any
		if err := json.Unmarshal(r.Params, &p); err != nil {
			return err
		}
		p["protocolVersion"] = c.version
		r.Params, _ = json.Marshal(p)
	}
	return c.Connection.Write(ctx, msg)
}

// The same over stateful streamable HTTP: the client asked for
// 2026-07-28, was answered 2025-11-25 and sends that version's header.
func TestApprovalHTTPInitializeAskingForNewProtocol(t *testing.T) {
	t.Parallel()
	hs := serveHTTPIndex(t, confirmIndex(t, sleepNeedsApproval), server.HTTPOptions{})
	a := &answering{answer: answer("accept", map[string]any{"approve": true})}
	opts := a.options()
	// Input requests in the answer would come back to the test as such.
	opts.MultiRoundTrip = &mcp.MultiRoundTripOptions{Disabled: true}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts)
	tr := askingFor{&mcp.StreamableClientTransport{Endpoint: hs.url, MaxRetries: -1}, newProtocol}
	cs, err := client.Connect(context.Background(), tr, &mcp.ClientSessionOptions{ProtocolVersion: oldProtocol})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if got := cs.InitializeResult().ProtocolVersion; got != oldProtocol {
		t.Fatalf("agreed %s, want %s", got, oldProtocol)
	}
	marker := filepath.Join(t.TempDir(), "ran")
	res := sleepCall(t, cs, marker)
	if res.NeedsInput() || res.IsError || text(t, res) != "slept 0" || !exists(marker) || len(a.asked()) != 1 {
		t.Fatalf("call: input required %v, %v %+v, ran %v, asked %d", res.NeedsInput(), res.IsError, res.Content, exists(marker), len(a.asked()))
	}
}

// A question still pending when stdin ends can never be answered: the call
// is refused at once and the session ends, without waiting for the confirm
// timeout.
func TestApprovalGivenUpAtEndOfInput(t *testing.T) {
	t.Parallel()
	var logs, audit syncBuffer
	srv := server.New(confirmIndex(t, sleepNeedsApproval), executor.New(), server.WithConfirmTimeout(longConfirmTimeout),
		server.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))), server.WithAuditLog(&audit))
	p := startPipe(t, srv)
	p.send(t, initializeAt(oldProtocol, true))
	p.next(t)
	p.send(t, initialized)
	marker := filepath.Join(t.TempDir(), "ran")
	p.send(t, sleepLine(2, marker))
	if q, line := p.next(t); q.Method != "elicitation/create" {
		t.Fatalf("want elicitation/create, got %s", line)
	}
	p.in.Close()
	const want = "The session ended before the user answered the approval request for fake_sleep (the client's input ended): nothing ran."
	for {
		r, line := p.next(t)
		if r.Method == "" {
			if string(r.ID) != "2" || !strings.Contains(line, want) {
				t.Fatalf("call result %s, want %q", line, want)
			}
			break
		}
	}
	if err := receive(t, p.done); err != nil {
		t.Errorf("ServeStdio: %v", err)
	}
	if exists(marker) {
		t.Error("the command ran")
	}
	if rec := auditRecord(t, flushed(t, srv, &audit)); rec["approval"] != "unanswered" || rec["outcome"] != "refused" {
		t.Errorf("audit record %v", rec)
	}
	if !strings.Contains(logs.String(), `msg="approval request given up: the session ended" tool=fake_sleep reason="the client's input ended"`) {
		t.Errorf("log:\n%s", logs.String())
	}
}

// A call read just before the end of input, whose question would only
// come after it, is refused at once too.
func TestApprovalNotAskedAfterEndOfInput(t *testing.T) {
	t.Parallel()
	srv := server.New(confirmIndex(t, sleepNeedsApproval), executor.New(), server.WithConfirmTimeout(longConfirmTimeout))
	marker := filepath.Join(t.TempDir(), "ran")
	got := serveLines(t, srv, initializeAt(oldProtocol, true), initialized, sleepLine(2, marker))
	if r := got["2"]; !strings.Contains(string(r.Result), "The session ended before the user answered the approval request for fake_sleep") || exists(marker) {
		t.Errorf("call result %s, ran %v", r.Result, exists(marker))
	}
}

// Deleting an HTTP session with a question pending refuses the call at
// once, and the DELETE is answered without waiting for the confirm
// timeout; so does closing the event stream of an SSE session.
func TestApprovalGivenUpWhenHTTPSessionCloses(t *testing.T) {
	t.Parallel()
	for _, sse := range []bool{false, true} {
		t.Run(map[bool]string{false: "streamable", true: "sse"}[sse], func(t *testing.T) {
			t.Parallel()
			var audit syncBuffer
			hs := serveHTTPIndex(t, confirmIndex(t, sleepNeedsApproval), server.HTTPOptions{SSE: sse},
				server.WithConfirmTimeout(longConfirmTimeout), server.WithAuditLog(&audit))
			asked, quit := make(chan struct{}), make(chan struct{})
			a := &answering{answer: func(ctx context.Context, _ *mcp.ElicitParams) (*mcp.ElicitResult, error) {
				close(asked)
				select { // the user never answers
				case <-ctx.Done():
				case <-quit:
				}
				return nil, context.Canceled
			}}
			client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, a.options())
			var tr mcp.Transport = &mcp.StreamableClientTransport{Endpoint: hs.url, MaxRetries: -1}
			conns := &connRecorder{}
			if sse {
				tr = &mcp.SSEClientTransport{Endpoint: hs.url, HTTPClient: &http.Client{Transport: &http.Transport{DialContext: conns.dial}}}
			}
			cs, err := client.Connect(context.Background(), tr, &mcp.ClientSessionOptions{ProtocolVersion: oldProtocol})
			if err != nil {
				t.Fatal(err)
			}
			marker := filepath.Join(t.TempDir(), "ran")
			params := &mcp.CallToolParams{Name: "climax_call", Arguments: map[string]any{"tool_name": "fake_sleep", "args": map[string]any{"seconds": "0", "pidfile": marker}}}
			done := startCall(context.Background(), cs, params)
			receive(t, asked)
			closed := make(chan error, 1)
			if sse {
				closed <- conns.closeAll() // ends the event stream
			} else {
				go func() {
					req, _ := http.NewRequest(http.MethodDelete, hs.url, nil)
					req.Header.Set("Mcp-Session-Id", cs.ID())
					resp, err := http.DefaultClient.Do(req)
					if err == nil {
						resp.Body.Close()
						if resp.StatusCode != http.StatusNoContent {
							t.Errorf("DELETE: %s", resp.Status)
						}
					}
					closed <- err
				}()
			}
			if err := receive(t, closed); err != nil {
				t.Errorf("closing the session: %v", err)
			}
			// The server records the refusal once the call has returned.
			waitUntil(t, "the call returned after its session closed", func() bool { return strings.Contains(audit.String(), "\n") })
			if rec := auditRecord(t, audit.String()); rec["approval"] != "unanswered" || rec["outcome"] != "refused" {
				t.Errorf("audit record %v", rec)
			}
			if exists(marker) {
				t.Error("the command ran")
			}
			close(quit)
			cs.Close()
			receive(t, done)
		})
	}
}

// connRecorder dials connections and can close them all, as a client that
// goes away does.
type connRecorder struct {
	mu    sync.Mutex
	conns []net.Conn
}

func (r *connRecorder) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
	if err == nil {
		r.mu.Lock()
		r.conns = append(r.conns, c)
		r.mu.Unlock()
	}
	return c, err
}

func (r *connRecorder) closeAll() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.conns {
		c.Close()
	}
	return nil
}

// An approval answer that names a key twice ({"approve":false,
// "approve":true}) is no answer: go-sdk would read the last, a proxy or a
// log of the exchange the first. The command does not run.
func TestApprovalAnswerWithDuplicateKey(t *testing.T) {
	t.Parallel()
	p := startPipe(t, server.New(confirmIndex(t, sleepNeedsApproval), executor.New()))
	p.send(t, initializeAt(oldProtocol, true))
	p.next(t)
	p.send(t, initialized)
	marker := filepath.Join(t.TempDir(), "ran")
	p.send(t, sleepLine(2, marker))
	q, line := p.next(t)
	if q.Method != "elicitation/create" {
		t.Fatalf("want elicitation/create, got %s", line)
	}
	p.send(t, `{"jsonrpc":"2.0","id":`+string(q.ID)+`,"result":{"action":"accept","content":{"approve":false,"approve":true}}}`)
	r, line := p.next(t)
	if string(r.ID) != "2" || !strings.Contains(line, `"isError":true`) || !strings.Contains(line, "'approve' twice") {
		t.Errorf("call result %s, want a refusal naming the key", line)
	}
	if exists(marker) {
		t.Error("the command ran")
	}
}
