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

// startHTTP starts c, a server that listens on a free loopback port, and
// returns the MCP endpoint's URL and a function that stops the server.
func startHTTP(ctx context.Context, c command) (url string, stop func(), err error) {
	cmd := exec.CommandContext(ctx, c.bin, c.args...)
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
// returns the calls per second of the whole run and each call's latency.
func runLoad(calls, conc int, do func(worker int) error) (perSecond float64, lat []time.Duration, err error) {
	lat = make([]time.Duration, calls)
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
		return 0, nil, firstErr
	}
	return float64(calls) / total.Seconds(), lat, nil
}

// httpRounds is how many rounds compareHTTP splits its calls into: the
// machine's speed drifts over seconds, and alternating the two sides in
// short rounds exposes both to the same drift.
const httpRounds = 6

// A throughputComparison is what compareHTTP measured: each side's
// throughput (the median of its rounds' calls per second, and the
// latency percentiles of all its calls) and the median of the rounds'
// ratios of the two.
type throughputComparison struct {
	viaHTTP, direct throughput
	ratio           float64
}

// An httpServer is a server to measure over streamable HTTP: its command
// line (which makes it listen on a free loopback port and print its URL)
// and the tool call that runs `echo hello`.
type httpServer struct {
	command
	tool string
	args map[string]any
}

// climaxHTTP is climax serving configs over streamable HTTP, called
// through climax_call of echo_hello.
func climaxHTTP(bin string, configs ...string) httpServer {
	args := append([]string{"run", "--transport", "http", "--addr", "127.0.0.1:0"}, configs...)
	return httpServer{command{bin, args}, "climax_call", map[string]any{"tool_name": "echo_hello"}}
}

// minimalHTTP is the minimal go-sdk server over streamable HTTP, whose
// echo_hello tool runs `echo hello` with os/exec and nothing else.
func minimalHTTP(bin string) httpServer {
	return httpServer{command{bin, []string{"-http", "127.0.0.1:0"}}, "echo_hello", nil}
}

// compareHTTP measures the echo call of srv over streamable HTTP with conc
// client sessions calling at once against conc goroutines running `echo
// hello` directly: calls of each, in httpRounds rounds that alternate
// which side goes first.
func compareHTTP(ctx context.Context, calls, conc int, srv httpServer) (throughputComparison, error) {
	c := srv.command
	var cmp throughputComparison
	url, stop, err := startHTTP(ctx, c)
	if err != nil {
		return cmp, err
	}
	defer stop()
	sessions := make([]*mcp.ClientSession, conc)
	for i := range sessions {
		client := mcp.NewClient(&mcp.Implementation{Name: "climax-benchmark", Version: "1"}, nil)
		if sessions[i], err = client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil); err != nil {
			return cmp, fmt.Errorf("connect to %s: %w", url, err)
		}
		defer sessions[i].Close()
	}
	call := func(w int) error {
		res, err := sessions[w].CallTool(ctx, &mcp.CallToolParams{Name: srv.tool, Arguments: srv.args})
		if err != nil {
			return err
		}
		if res.IsError || contentText(res) != "hello" {
			return fmt.Errorf("%s over HTTP: %q", srv.tool, contentText(res))
		}
		return nil
	}
	exe := func(int) error { return exec.Command("echo", "hello").Run() }
	// Warm up both, then measure them in alternating rounds.
	for _, do := range []func(int) error{call, exe} {
		if _, _, err := runLoad(conc*5, conc, do); err != nil {
			return cmp, err
		}
	}
	perRound := max(calls/httpRounds, conc)
	var rates [2][]float64
	var lats [2][]time.Duration
	var ratios []float64
	for round := range httpRounds {
		var rate [2]float64
		for k := range 2 {
			side := (k + round) % 2 // 0: HTTP, 1: direct
			do := call
			if side == 1 {
				do = exe
			}
			r, lat, err := runLoad(perRound, conc, do)
			if err != nil {
				return cmp, err
			}
			rate[side] = r
			rates[side] = append(rates[side], r)
			lats[side] = append(lats[side], lat...)
		}
		ratios = append(ratios, rate[0]/rate[1])
	}
	side := func(k int) throughput {
		slices.Sort(lats[k])
		return throughput{perSecond: medianFloat(rates[k]), p50: percentile(lats[k], 50), p99: percentile(lats[k], 99)}
	}
	return throughputComparison{viaHTTP: side(0), direct: side(1), ratio: medianFloat(ratios)}, nil
}

// medianFloat returns the median of xs (which it sorts).
func medianFloat(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}
