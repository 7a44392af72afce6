package server_test

import (
	"context"
	"net"
	"os/exec"
	"testing"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkHTTPCall measures climax_call of `echo hello` over streamable
// HTTP in one process, client included, four calls at once; with
// -benchmem it shows what a call allocates (README, Performance):
//
//	go test -run XXX -bench HTTPCall -benchmem ./server/
//
// go run ./benchmark -perf measures the built binary against exec.
func BenchmarkHTTPCall(b *testing.B) {
	if _, err := exec.LookPath("echo"); err != nil {
		b.Skip("no echo on PATH")
	}
	ix := parseIndex(b, "name: bench\ncommand: echo\ntools:\n  - name: echo_hello\n    description: Print hello\n    command: hello\n")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- server.New(ix, executor.New()).Serve(ctx, ln, server.HTTPOptions{}) }()
	b.Cleanup(func() { cancel(); <-done })
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: server.HTTPOptions{}.URL(ln.Addr())}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	b.ReportAllocs()
	b.SetParallelism(2) // 2 × GOMAXPROCS calls at once
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "climax_call", Arguments: map[string]any{"tool_name": "echo_hello"}})
			if err != nil || res.IsError {
				b.Errorf("climax_call: %v %+v", err, res)
				return
			}
		}
	})
}
