// Command minimal is the baseline of the benchmark's cold start: the
// smallest useful go-sdk server, two raw tools over stdio.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	s := mcp.NewServer(&mcp.Implementation{Name: "minimal", Version: "1"}, nil)
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
