// Command minimal is the baseline of the benchmark: the smallest useful
// go-sdk server. Over stdio (the default) it has two raw tools, for the
// cold start and the protocol's round trip; with -http ADDR it serves
// streamable HTTP at /mcp with one tool that runs `echo hello`, for the
// throughput of a server that runs a command per call and does nothing
// else.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	addr := flag.String("http", "", "serve streamable HTTP on this address instead of stdio")
	flag.Parse()
	s := mcp.NewServer(&mcp.Implementation{Name: "minimal", Version: "1"}, nil)
	if *addr != "" {
		s.AddTool(&mcp.Tool{Name: "echo_hello", Description: "Run echo hello", InputSchema: json.RawMessage(`{"type":"object"}`)}, echoHello)
		if err := serveHTTP(s, *addr); err != nil {
			fmt.Fprintln(os.Stderr, "minimal:", err)
			os.Exit(1)
		}
		return
	}
	schema := json.RawMessage(`{"type":"object","properties":{"text":{"type":"string","description":"Text to return"}}}`)
	for _, name := range []string{"echo", "reverse"} {
		s.AddTool(&mcp.Tool{Name: name, Description: "Return the text (" + name + ")", InputSchema: schema}, handle)
	}
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "minimal:", err)
		os.Exit(1)
	}
}

func handle(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var args struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(req.Params.Arguments, &args)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: args.Text}}}, nil
}

// echoHello runs echo hello and returns what it printed.
func echoHello(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	out, err := exec.CommandContext(ctx, "echo", "hello").Output()
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(out[:len(out)-1])}}}, nil
}

// serveHTTP serves s over streamable HTTP at /mcp on addr, and prints the
// endpoint's URL on stderr once listening, as climax does.
func serveHTTP(s *mcp.Server, addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	fmt.Fprintf(os.Stderr, "minimal: serving MCP at http://%s/mcp\n", ln.Addr())
	return http.Serve(ln, mux)
}
