//go:build linux

package server_test

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/server"
)

// The hostile-message benchmarks measure what one message may make the
// server hold: the peak resident memory of the process (VmHWM, reset
// before each measure through /proc/self/clear_refs) above what it held
// before, against the bytes sent (docs/security.md, "Memory per
// message"). Each reports peak-MB (the growth) and peak/sent:
//
//	go test -run '^$' -bench Hostile -benchtime 5x ./server/
//
// Before the message caps, one stdio message of 4 million empty arrays
// (11 MiB) and four HTTP bodies of 3.7 MiB at once grew the server by
// tens of times what was sent.

// hostileArgs returns the climax_call arguments of a message of about
// size bytes: an ignored argument holding an array of empty arrays.
func hostileArgs(size int) string {
	items := strings.Repeat("[],", size/3)
	return `{"tool_name":"echo_hello","args":{"x":[` + items + `[]]}}`
}

// resetPeak collects garbage, returns memory to the system and resets
// the process's peak resident size, and returns its resident size now.
func resetPeak(b *testing.B) int64 {
	b.Helper()
	runtime.GC()
	debug.FreeOSMemory()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Skip("cannot reset the peak resident size:", err)
	}
	return procStatus(b, "VmRSS:")
}

// procStatus returns a size field of /proc/self/status in bytes.
func procStatus(b *testing.B, field string) int64 {
	b.Helper()
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, field); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb << 10
		}
	}
	b.Fatalf("no %s in /proc/self/status", field)
	return 0
}

// reportPeak reports the peak growth since base against sent bytes: the
// largest of the benchmark's iterations so far (the garbage collector's
// timing makes them differ).
func reportPeak(b *testing.B, base, sent int64, worst *int64) {
	*worst = max(*worst, procStatus(b, "VmHWM:")-base)
	b.ReportMetric(float64(*worst)/(1<<20), "peak-MB")
	b.ReportMetric(float64(sent)/(1<<20), "sent-MB")
	b.ReportMetric(float64(*worst)/float64(sent), "peak/sent")
}

func benchIndexServer(b *testing.B) *server.Server {
	if _, err := exec.LookPath("echo"); err != nil {
		b.Skip("no echo on PATH")
	}
	if _, err := exec.LookPath("wc"); err != nil {
		b.Skip("no wc on PATH")
	}
	ix := parseIndex(b, "name: bench\ncommand: echo\ntools:\n  - name: echo_hello\n    description: Print hello\n    command: hello\n",
		"name: wc\ncommand: wc\ntools:\n  - name: wc_bytes\n    description: Count the bytes of the input\n    args:\n      - name: bytes\n        type: boolean\n        flag: -c\n        default: true\n      - name: input\n        type: string\n        stdin: true\n"+
			"  - name: wc_json\n    description: Count the bytes of a JSON document\n    args:\n      - name: bytes\n        type: boolean\n        flag: -c\n        default: true\n      - name: doc\n        type: json\n        stdin: true\n")
	return server.New(ix, executor.New())
}

// BenchmarkHostileStdio sends one 11 MiB message over stdio and waits
// for its answer: 4 million empty arrays (refused), one string, ignored
// (served) or the standard input of wc -c (run), a json argument that is
// the standard input of wc -c, sent as a string, as a string holding a
// JSON array or as an array (run), and 99,000 strings of 100 bytes, just
// within the item limit (served).
func BenchmarkHostileStdio(b *testing.B) {
	for _, tc := range []struct {
		name string
		args func() string
	}{
		{"empty_arrays", func() string { return hostileArgs(11 << 20) }},
		{"one_string", func() string { return stringArgs("echo_hello", "x", 11<<20) }},
		{"stdin_string", func() string { return stringArgs("wc_bytes", "input", 11<<20) }},
		{"json_string", func() string { return stringArgs("wc_json", "doc", 11<<20) }},
		{"json_text", func() string {
			return `{"tool_name":"wc_json","args":{"doc":"[\"` + strings.Repeat("x", 11<<20) + `\"]"}}`
		}},
		{"json_array", func() string {
			return `{"tool_name":"wc_json","args":{"doc":["` + strings.Repeat("x", 11<<20) + `"]}}`
		}},
		{"items_at_limit", func() string {
			return `{"tool_name":"echo_hello","args":{"x":[` + strings.Repeat(`"`+strings.Repeat("x", 108)+`",`, 99_000) + `""]}}`
		}},
	} {
		b.Run(tc.name, func(b *testing.B) { benchStdio(b, tc.args) })
	}
}

// stringArgs returns the climax_call arguments of a call of tool whose
// arg is a string of size bytes.
func stringArgs(tool, arg string, size int) string {
	return `{"tool_name":"` + tool + `","args":{"` + arg + `":"` + strings.Repeat("x", size) + `"}}`
}

// The messages are built by each benchmark, from args, not held by its
// table: the test process is the server's, and what else it holds makes
// the garbage collector wait longer, as a server's would not.
func benchStdio(b *testing.B, args func() string) {
	srv := benchIndexServer(b)
	// As bytes: io.WriteString would copy a string into bytes for the
	// pipe, counted against the server.
	msg := []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"climax_call","arguments":` + args() + "}}\n")
	runsWC := bytes.Contains(msg, []byte(`"wc_bytes"`))
	runsJSON := bytes.Contains(msg, []byte(`"wc_json"`))
	var worst int64
	for b.Loop() {
		base := resetPeak(b)
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		done := make(chan error, 1)
		go func() { done <- srv.ServeStdio(context.Background(), inR, outW); outW.Close() }()
		answered := make(chan string, 1)
		go func() {
			sc := bufio.NewScanner(outR)
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				if strings.Contains(sc.Text(), `"id":2`) {
					answered <- sc.Text()
				}
			}
			close(answered)
		}()
		io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}`+"\n")
		io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
		inW.Write(msg)
		reply := <-answered
		inW.Close()
		<-done
		reportPeak(b, base, int64(len(msg)), &worst)
		if reply == "" {
			b.Fatal("no answer")
		}
		if runsWC && !strings.Contains(reply, strconv.Itoa(11<<20)) || runsJSON && !strings.Contains(reply, `"exit_code":0`) {
			b.Fatalf("wc did not count the string: %.300s", reply)
		}
	}
}

// BenchmarkHostileHTTP posts four 3.7 MiB bodies at once over stateless
// streamable HTTP: of empty arrays (refused), and of one string each,
// ignored (served) or the standard input of wc -c (run).
func BenchmarkHostileHTTP(b *testing.B) {
	for _, tc := range []struct {
		name string
		args func() string
	}{
		{"empty_arrays", func() string { return hostileArgs(3700 << 10) }},
		{"one_string", func() string { return stringArgs("echo_hello", "x", 3700<<10) }},
		{"stdin_string", func() string { return stringArgs("wc_bytes", "input", 3700<<10) }},
	} {
		b.Run(tc.name, func(b *testing.B) { benchHTTP(b, tc.args) })
	}
}

func benchHTTP(b *testing.B, args func() string) {
	srv := benchIndexServer(b)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	opts := server.HTTPOptions{Stateless: true}
	go func() { done <- srv.Serve(ctx, ln, opts) }()
	b.Cleanup(func() { cancel(); <-done })
	url := opts.URL(ln.Addr())
	body := []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"climax_call","arguments":` + args() + "}}")
	const bodies = 4
	var worst int64
	for b.Loop() {
		base := resetPeak(b)
		var wg sync.WaitGroup
		for range bodies {
			wg.Go(func() {
				req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					b.Error(err)
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			})
		}
		wg.Wait()
		reportPeak(b, base, int64(bodies*len(body)), &worst)
	}
}
