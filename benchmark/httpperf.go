package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// throughput is what one load run measured: calls per second over the
// whole run, and the latency of single calls.
type throughput struct {
	perSecond float64
	p50, p99  time.Duration
	// cpuPerCall is the CPU time the server process used per call (user
	// and system, from /proc); zero where it cannot be read, and for
	// running the command directly.
	cpuPerCall time.Duration
}

// servingURL matches the line climax prints on stderr once it listens.
var servingURL = regexp.MustCompile(`at (http://127\.0\.0\.1:[0-9]+/mcp)$`)

// startHTTP starts c, a server that listens on a free loopback port, and
// returns the MCP endpoint's URL, its process and a function that stops
// the server.
func startHTTP(ctx context.Context, c command) (url string, proc *os.Process, stop func(), err error) {
	cmd := exec.CommandContext(ctx, c.bin, c.args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return "", nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, nil, err
	}
	stop = func() { cmd.Process.Kill(); cmd.Wait() }
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if m := servingURL.FindStringSubmatch(sc.Text()); m != nil {
			go func() {
				for sc.Scan() { // keep draining stderr
				}
			}()
			return m[1], cmd.Process, stop, nil
		}
	}
	stop()
	return "", nil, nil, fmt.Errorf("%s did not print the URL it serves", c.bin)
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
// machine's speed drifts over seconds, and rotating the sides in short
// rounds exposes all of them to the same drift.
const httpRounds = 8

// A throughputComparison is what compareHTTP measured: each side's
// throughput (the median of its rounds' calls per second, and the
// latency percentiles of all its calls) and, for each side, the median of
// the rounds' ratios of its calls per second to the first side's.
type throughputComparison struct {
	sides  []throughput
	ratios []float64 // ratios[0] is 1
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

// caller starts srv and connects conc client sessions to it; the returned
// function makes one echo call from session w. stop stops the server and
// closes the sessions.
func caller(ctx context.Context, srv httpServer, conc int) (call func(w int) error, proc *os.Process, stop func(), err error) {
	url, proc, stopServer, err := startHTTP(ctx, srv.command)
	if err != nil {
		return nil, nil, nil, err
	}
	sessions := make([]*mcp.ClientSession, 0, conc)
	stop = func() {
		for _, s := range sessions {
			s.Close()
		}
		stopServer()
	}
	for range conc {
		client := mcp.NewClient(&mcp.Implementation{Name: "climax-benchmark", Version: "1"}, nil)
		s, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
		if err != nil {
			stop()
			return nil, nil, nil, fmt.Errorf("connect to %s: %w", url, err)
		}
		sessions = append(sessions, s)
	}
	call = func(w int) error {
		res, err := sessions[w].CallTool(ctx, &mcp.CallToolParams{Name: srv.tool, Arguments: srv.args})
		if err != nil {
			return err
		}
		if res.IsError || contentText(res) != "hello" {
			return fmt.Errorf("%s over HTTP: %q", srv.tool, contentText(res))
		}
		return nil
	}
	return call, proc, stop, nil
}

// execEcho runs `echo hello` directly: the work each call does, without
// a server.
func execEcho(int) error { return exec.Command("echo", "hello").Run() }

// compareHTTP measures the echo call of each server over streamable HTTP,
// with conc client sessions calling each at once, and conc goroutines
// running `echo hello` directly as the last side: calls calls of each, in
// httpRounds rounds that rotate which side goes first. The first server
// is the one the ratios are taken against.
func compareHTTP(ctx context.Context, calls, conc int, servers ...httpServer) (throughputComparison, error) {
	var cmp throughputComparison
	var sides []func(int) error
	var procs []*os.Process // of the servers, parallel to sides
	for _, srv := range servers {
		call, proc, stop, err := caller(ctx, srv, conc)
		if err != nil {
			return cmp, err
		}
		defer stop()
		sides = append(sides, call)
		procs = append(procs, proc)
	}
	sides = append(sides, execEcho)
	procs = append(procs, nil)
	// Warm up every side, then measure them in rotating rounds.
	for _, do := range sides {
		if _, _, err := runLoad(conc*5, conc, do); err != nil {
			return cmp, err
		}
	}
	perRound := max(calls/httpRounds, conc)
	rates := make([][]float64, len(sides))
	lats := make([][]time.Duration, len(sides))
	ratios := make([][]float64, len(sides))
	cpu := make([]time.Duration, len(sides))
	for round := range httpRounds {
		rate := make([]float64, len(sides))
		for k := range sides {
			i := (k + round) % len(sides)
			before := processCPU(procs[i])
			r, lat, err := runLoad(perRound, conc, sides[i])
			if err != nil {
				return cmp, err
			}
			cpu[i] += processCPU(procs[i]) - before
			rate[i] = r
			rates[i] = append(rates[i], r)
			lats[i] = append(lats[i], lat...)
		}
		for i := range sides {
			ratios[i] = append(ratios[i], rate[i]/rate[0])
		}
	}
	for i := range sides {
		slices.Sort(lats[i])
		cmp.sides = append(cmp.sides, throughput{perSecond: medianFloat(rates[i]), p50: percentile(lats[i], 50), p99: percentile(lats[i], 99),
			cpuPerCall: cpu[i] / time.Duration(perRound*httpRounds)})
		cmp.ratios = append(cmp.ratios, medianFloat(ratios[i]))
	}
	return cmp, nil
}

// processCPU returns the user and system CPU time p has used, from
// /proc/PID/stat; zero for nil or where /proc is missing.
func processCPU(p *os.Process) time.Duration {
	if p == nil {
		return 0
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.Pid))
	if err != nil {
		return 0
	}
	return statCPU(string(data))
}

// statCPU returns the utime and stime of a /proc/PID/stat line (fields
// 14 and 15, in clock ticks of 1/100 s; the command name in field 2 may
// hold spaces and parentheses, hence the last ")").
func statCPU(stat string) time.Duration {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(stat[i+1:]) // f[0] is field 3
	if len(f) < 13 {
		return 0
	}
	utime, err1 := strconv.ParseUint(f[11], 10, 64)
	stime, err2 := strconv.ParseUint(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0
	}
	return time.Duration(utime+stime) * (time.Second / 100)
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
