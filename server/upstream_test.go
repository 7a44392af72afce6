package server_test

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tests here check that go-sdk still has the bugs the server works
// around, on a plain go-sdk server without the workaround. Each fails
// once go-sdk fixes its bug: the test's message says which workaround can
// then go.

// plainStdio serves a go-sdk server with one tool, "slow", that answers
// after d, over go-sdk's own stdio transport. It writes input, waits until
// the output holds lines lines (0: no wait), ends the input, and returns
// what the server wrote once its session ended and d has passed twice.
func plainStdio(t *testing.T, d time.Duration, lines int, input ...string) string {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "plain", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "slow", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			time.Sleep(d)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil
		})
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
// reaches EOF is lost. When this fails, go-sdk answers it: ServeStdio's
// withholding of EOF (eofGuard's pending requests) can go.
func TestUpstreamStdioEOFLosesReplies(t *testing.T) {
	out := plainStdio(t, 300*time.Millisecond, 0, initialize, initialized, callLine(2, "slow", nil))
	if strings.Contains(out, `"id":2`) {
		t.Fatalf("go-sdk answered the call that ran past EOF (issue 1061 is fixed): remove ServeStdio's EOF withholding\n%s", out)
	}
}

// go-sdk pull request 1178 (open): a request id 7.5 is answered as 7.
// When this fails, go-sdk echoes or refuses such ids itself: the id
// checks of stdio lines and HTTP bodies (checkID) can go.
func TestUpstreamFractionalIDTruncated(t *testing.T) {
	out := plainStdio(t, 0, 2, initialize, initialized, `{"jsonrpc":"2.0","id":7.5,"method":"ping"}`)
	if strings.Contains(out, `"id":7.5`) || !strings.Contains(out, `"id":7,"result":{}`) {
		t.Fatalf("go-sdk no longer answers id 7.5 as 7: remove the id checks (checkID)\n%s", out)
	}
}
