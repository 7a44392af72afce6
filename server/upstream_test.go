package server_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tests here check that go-sdk still has the bugs the server works
// around, on a plain go-sdk server without the workaround. Each fails
// once go-sdk fixes its bug: the test's message says which workaround can
// then go.

// plainServer is a go-sdk server, without climax's workarounds, with one
// tool, "slow", that answers "done" after d.
func plainServer(d time.Duration) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "plain", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "slow", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			time.Sleep(d)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil
		})
	return srv
}

// plainStdio serves plainServer(d) over go-sdk's own stdio transport. It
// writes input, waits until the output holds lines lines (0: no wait),
// ends the input, and returns what the server wrote once its session
// ended and d has passed twice.
func plainStdio(t *testing.T, d time.Duration, lines int, input ...string) string {
	t.Helper()
	srv := plainServer(d)
	out := &syncBuffer{}
	pr, pw := io.Pipe()
	ctx, cancel := context.WithTimeout(context.Background(), stdioTimeout)
	defer cancel()
	ss, err := srv.Connect(ctx, &mcp.IOTransport{Reader: pr, Writer: nopWriteCloser{out}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		io.WriteString(pw, strings.Join(input, "\n")+"\n")
		for deadline := time.Now().Add(stdioTimeout); strings.Count(out.String(), "\n") < lines && time.Now().Before(deadline); {
			time.Sleep(5 * time.Millisecond)
		}
		pw.Close()
	}()
	ss.Wait()
	time.Sleep(2 * d)
	return out.String()
}

type nopWriteCloser struct{ *syncBuffer }

func (nopWriteCloser) Close() error { return nil }

// go-sdk issue 1061: a reply to a request still running when stdin
// reaches EOF is lost. When this fails, go-sdk answers it: stdioConn's
// withholding of EOF (its pending requests) can go.
func TestUpstreamStdioEOFLosesReplies(t *testing.T) {
	out := plainStdio(t, 300*time.Millisecond, 0, initialize, initialized, callLine(2, "slow", nil))
	if strings.Contains(out, `"id":2`) {
		t.Fatalf("go-sdk answered the call that ran past EOF (issue 1061 is fixed): remove ServeStdio's EOF withholding\n%s", out)
	}
}

// go-sdk pull request 1178 (open): a request id 7.5 is answered as 7.
// When this fails, go-sdk echoes or refuses such ids itself: the id
// checks of stdio lines and HTTP bodies (checkID in wire.go) can go.
func TestUpstreamFractionalIDTruncated(t *testing.T) {
	out := plainStdio(t, 0, 2, initialize, initialized, `{"jsonrpc":"2.0","id":7.5,"method":"ping"}`)
	if strings.Contains(out, `"id":7.5`) || !strings.Contains(out, `"id":7,"result":{}`) {
		t.Fatalf("go-sdk no longer answers id 7.5 as 7: remove the id checks (checkID)\n%s", out)
	}
}

// plainSession serves the go-sdk server of plainStdio over an input the
// test writes to with write (one message a line), without ending it. out
// is what the server writes; ended is closed when the session ends.
func plainSession(t *testing.T, d time.Duration) (write func(lines ...string), out *syncBuffer, ended <-chan struct{}) {
	t.Helper()
	srv := plainServer(d)
	out = &syncBuffer{}
	pr, pw := io.Pipe()
	t.Cleanup(func() { pw.Close() })
	ss, err := srv.Connect(context.Background(), &mcp.IOTransport{Reader: pr, Writer: nopWriteCloser{out}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { ss.Wait(); close(done) }()
	write = func(lines ...string) {
		go io.WriteString(pw, strings.Join(lines, "\n")+"\n")
	}
	return write, out, done
}

// go-sdk issue 1209 (open): one line that is not JSON ends the stdio
// session. When this fails, go-sdk answers such lines and goes on: the
// parse-error and invalid-request replies of stdioConn (decodeLine) can
// go, once go-sdk's replies say what climax's say (docs/security.md,
// "stdio robustness").
func TestUpstreamStdioMalformedLineEndsSession(t *testing.T) {
	write, out, ended := plainSession(t, 0)
	write(initialize, initialized, `{bad json`, `{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatalf("go-sdk's session outlived a malformed line (issue 1209 is fixed): stdioConn need not answer it\n%s", out)
	}
}

// go-sdk issue 1235 (open): a request the client cancelled is answered
// anyway, where MCP says it should not be. When this fails, go-sdk drops
// the response itself: stdioConn's dropping of it (its cancelled
// requests) can go.
func TestUpstreamCancelledRequestAnswered(t *testing.T) {
	write, out, _ := plainSession(t, 300*time.Millisecond)
	write(initialize, initialized, callLine(2, "slow", nil),
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`)
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(out.String(), `"id":2`); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("go-sdk no longer answers a cancelled request (issue 1235 is fixed): stdioConn need not drop the response\n%s", out)
		}
	}
}

// go-sdk gives the tool handler of a stateful streamable HTTP session a
// context of the session, not of the POST that carried the call: a client
// that goes away mid-call leaves the handler running (go-sdk's
// PropagateRequestCancellation, issue 1093, covers stateless requests of
// protocol 2026-07-28 only). The guard therefore names each POST in a
// header (requestKeyHeader) that handlers read from the request's Extra,
// to find the POST's context. When this fails, go-sdk cancels the handler
// itself: the header and lifetime's request map can go.
func TestUpstreamHandlerOutlivesItsRequest(t *testing.T) {
	started, cancelled := make(chan struct{}), make(chan bool, 1)
	srv := mcp.NewServer(&mcp.Implementation{Name: "plain", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "slow", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			close(started)
			select {
			case <-ctx.Done():
				cancelled <- true
			case <-time.After(2 * time.Second):
				cancelled <- false
			}
			return &mcp.CallToolResult{}, nil
		})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer hs.Close()
	resp, err := postJSON(context.Background(), hs.URL, "", initialize)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	session := resp.Header.Get("Mcp-Session-Id")
	if session == "" {
		t.Fatalf("initialize gave no session: %s", resp.Status)
	}
	if resp, err := postJSON(context.Background(), hs.URL, session, initialized); err == nil {
		resp.Body.Close()
	}
	ctx, abort := context.WithCancel(context.Background())
	go func() {
		if resp, err := postJSON(ctx, hs.URL, session, callLine(2, "slow", nil)); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	select {
	case <-started:
	case <-time.After(waitTimeout):
		t.Fatal("the call never reached its handler")
	}
	abort()
	if <-cancelled {
		t.Fatal("go-sdk cancelled the handler of a call whose POST went away: remove requestKeyHeader and lifetime.requests")
	}
}
