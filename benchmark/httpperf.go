package main

import (
	"bufio"
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// throughput is what one load run measured: calls per second over the
// whole run, and the latency of single calls.
type throughput struct {
	perSecond float64
	p50, p99  time.Duration
}

// servingURL matches the line climax prints on stderr once it listens.
var servingURL = regexp.MustCompile(`at (http://127\.0\.0\.1:[0-9]+/mcp)$`)

// startHTTP starts c with --transport http on a free loopback port and
// returns the MCP endpoint's URL and a function that stops the server.
func startHTTP(ctx context.Context, c command) (url string, stop func(), err error) {
	args := append([]string{"run", "--transport", "http", "--addr", "127.0.0.1:0"}, c.args...)
	cmd := exec.CommandContext(ctx, c.bin, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop = func() { cmd.Process.Kill(); cmd.Wait() }
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if m := servingURL.FindStringSubmatch(sc.Text()); m != nil {
			go func() {
				for sc.Scan() { // keep draining stderr
				}
			}()
			return m[1], stop, nil
		}
	}
	stop()
	return "", nil, fmt.Errorf("%s did not print the URL it serves", c.bin)
}

// runLoad makes calls calls of do, from conc goroutines at once, and
// measures them.
func runLoad(calls, conc int, do func(worker int) error) (throughput, error) {
	lat := make([]time.Duration, calls)
	var next sync.Mutex
	n := 0
	var firstErr error
	var wg sync.WaitGroup
	start := time.Now()
	for w := range conc {
		wg.Go(func() {
			for {
				next.Lock()
				i := n
				n++
				next.Unlock()
				if i >= calls {
					return
				}
				t := time.Now()
				if err := do(w); err != nil {
					next.Lock()
					if firstErr == nil {
						firstErr = err
					}
					next.Unlock()
					return
				}
				lat[i] = time.Since(t)
			}
		})
	}
	wg.Wait()
	total := time.Since(start)
	if firstErr != nil {
		return throughput{}, firstErr
	}
	slices.Sort(lat)
	return throughput{
		perSecond: float64(calls) / total.Seconds(),
		p50:       percentile(lat, 50),
		p99:       percentile(lat, 99),
	}, nil
}

// compareHTTP measures climax_call of echo_hello over streamable HTTP with
// conc client sessions calling at once, and, in the same run, conc
// goroutines running `echo hello` directly.
func compareHTTP(ctx context.Context, calls, conc int, c command) (viaHTTP, direct throughput, err error) {
	url, stop, err := startHTTP(ctx, c)
	if err != nil {
		return throughput{}, throughput{}, err
	}
	defer stop()
	sessions := make([]*mcp.ClientSession, conc)
	for i := range sessions {
		client := mcp.NewClient(&mcp.Implementation{Name: "climax-benchmark", Version: "1"}, nil)
		if sessions[i], err = client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil); err != nil {
			return throughput{}, throughput{}, fmt.Errorf("connect to %s: %w", url, err)
		}
		defer sessions[i].Close()
	}
	call := func(w int) error {
		res, err := sessions[w].CallTool(ctx, &mcp.CallToolParams{Name: "climax_call", Arguments: map[string]any{"tool_name": "echo_hello"}})
		if err != nil {
			return err
		}
		if res.IsError || contentText(res) != "hello" {
			return fmt.Errorf("climax_call echo_hello over HTTP: %q", contentText(res))
		}
		return nil
	}
	exe := func(int) error { return exec.Command("echo", "hello").Run() }
	// Warm up both, then measure them one after the other.
	if _, err := runLoad(conc*5, conc, call); err != nil {
		return throughput{}, throughput{}, err
	}
	if viaHTTP, err = runLoad(calls, conc, call); err != nil {
		return throughput{}, throughput{}, err
	}
	if direct, err = runLoad(calls, conc, exe); err != nil {
		return throughput{}, throughput{}, err
	}
	return viaHTTP, direct, nil
}
