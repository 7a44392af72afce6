package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/climax-mcp/climax/configs"
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
	"github.com/climax-mcp/climax/metatools"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Targets of the performance table.
const (
	// coldStartTarget bounds climax's cold start with every bundled
	// config against the minimal server's.
	coldStartTarget = 2.0
	// httpTarget is the least share of the minimal server's calls per
	// second that climax reaches over streamable HTTP, 8 at once, both
	// running `echo hello` per call.
	httpTarget = 0.95
)

// minimalName describes the baseline server in the table.
const minimalName = "minimal go-sdk server, 2 tools"

// echoConfig is the config of the call-overhead measurement.
const echoConfig = `name: bench
description: "Benchmark config: one tool that prints hello"
command: echo
tools:
  - name: echo_hello
    description: "Print hello"
    command: hello
`

// A perfRow is one line of the performance table.
type perfRow struct {
	what     string
	value    string
	baseline string
	ratio    string
	target   string
}

// A perfReport holds the performance table.
type perfReport struct {
	cpus      int
	goVersion string
	rows      []perfRow
	notes     []string
}

func (rep *perfReport) write(w io.Writer) error {
	t := table{
		header: []string{"Measurement", "CLImax", "Baseline", "Ratio", "Target"},
		aligns: []align{left, right, left, right, left},
	}
	for _, r := range rep.rows {
		t.addRow(r.what, r.value, r.baseline, r.ratio, r.target)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Performance on %d cores (runtime.NumCPU), %s.\n\n", rep.cpus, rep.goVersion)
	if err := t.write(&b); err != nil {
		return err
	}
	if len(rep.notes) > 0 {
		b.WriteString("\n")
		for _, n := range rep.notes {
			b.WriteString(n + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ratioRow compares value with baseline.
func ratioRow(what string, value, baseline time.Duration, baselineName string) perfRow {
	return perfRow{
		what:     what,
		value:    formatDuration(value),
		baseline: formatDuration(baseline) + " " + baselineName,
		ratio:    formatRatio(float64(value), float64(baseline)),
	}
}

// verdict says whether a target is met.
func verdict(met bool) string {
	if met {
		return "met"
	}
	return "missed"
}

// A perfRun is one run of -perf: the binaries built, the configs
// measured and the report its steps fill in.
type perfRun struct {
	o                     options
	ctx                   context.Context
	logf                  func(format string, args ...any)
	dir                   string // temporary files
	climaxBin, minimalBin string
	refs                  []string         // the configs measured, as climax takes them
	cfgs                  []*config.Config // and loaded
	tools                 int              // their tools
	rep                   *perfReport
	echoPath              string      // the echo config of the call measurements
	gen10k                []genConfig // the 10,000 generated tools
}

// runPerf builds the binaries, measures and prints the performance table.
// Progress goes to stderr.
func runPerf(o options, stdout, stderr io.Writer) error {
	p := &perfRun{o: o, ctx: context.Background()}
	p.logf = func(format string, args ...any) { fmt.Fprintf(stderr, format+"\n", args...) }
	dir, err := os.MkdirTemp("", "climax-benchmark-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	p.dir = dir
	if p.climaxBin, p.minimalBin, err = buildBinaries(dir, o.climax, p.logf); err != nil {
		return err
	}
	p.refs = []string(o.configs)
	if len(p.refs) == 0 {
		if p.refs, err = config.BundledNames(configs.FS); err != nil {
			return err
		}
	}
	if p.cfgs, err = loadConfigs(p.refs); err != nil {
		return err
	}
	for _, c := range p.cfgs {
		p.tools += len(c.Tools)
	}
	p.rep = &perfReport{cpus: runtime.NumCPU(), goVersion: runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH}
	for _, step := range []func() error{p.coldStart, p.callOverhead, p.httpThroughput, p.indexSizes, p.memory, p.wire} {
		if err := step(); err != nil {
			return err
		}
	}
	return p.rep.write(stdout)
}

// coldStart measures the cold start, interleaved with the minimal server
// and with climax on its smallest config alone (the fixed cost of climax).
func (p *perfRun) coldStart() error {
	small := 0
	for i, c := range p.cfgs {
		if len(c.Tools) < len(p.cfgs[small].Tools) {
			small = i
		}
	}
	p.logf("cold start: %d runs each of climax (%d configs), the minimal server, climax %s and climax --version", p.o.runs, len(p.refs), p.refs[small])
	starts, err := interleave(p.o.runs, 1,
		func() (time.Duration, error) { return coldStart(p.ctx, command{p.climaxBin, p.refs}) },
		func() (time.Duration, error) { return coldStart(p.ctx, command{p.minimalBin, nil}) },
		func() (time.Duration, error) { return coldStart(p.ctx, command{p.climaxBin, p.refs[small : small+1]}) },
		func() (time.Duration, error) { return runToExit(command{p.climaxBin, []string{"--version"}}) })
	if err != nil {
		return err
	}
	all := ratioRow(fmt.Sprintf("cold start: spawn, initialize, tools/list, close; %d configs, %d tools (median of %d)", len(p.refs), p.tools, p.o.runs),
		starts[0], starts[1], minimalName)
	if len(p.o.configs) == 0 { // the target is set for the bundled configs
		ratio := float64(starts[0]) / float64(starts[1])
		all.target = fmt.Sprintf("≤ %.1f× (%s)", coldStartTarget, verdict(ratio <= coldStartTarget))
	}
	one := ratioRow(fmt.Sprintf("cold start, 1 config (%s, %s) (median of %d)", p.cfgs[small].Name, plural(len(p.cfgs[small].Tools), "tool"), p.o.runs),
		starts[2], starts[1], minimalName)
	version := ratioRow(fmt.Sprintf("for reference: `climax --version`, spawn to exit: runtime start, package init, CLI parser; no config, no MCP (median of %d)", p.o.runs),
		starts[3], starts[1], minimalName)
	p.rep.rows = append(p.rep.rows, all, one, version)

	return nil
}

// callOverhead measures a climax_call round trip against exec.
func (p *perfRun) callOverhead() error {
	p.echoPath = filepath.Join(p.dir, "echo.yaml")
	if err := os.WriteFile(p.echoPath, []byte(echoConfig), 0o644); err != nil {
		return err
	}
	p.logf("call overhead: %d rounds of climax_call echo_hello, exec echo hello and a minimal-server call", p.o.calls)
	call, direct, protocol, err := compareCalls(p.ctx, p.o.calls, command{p.climaxBin, []string{p.echoPath}}, command{p.minimalBin, nil})
	if err != nil {
		return err
	}
	p.rep.rows = append(p.rep.rows, ratioRow(
		fmt.Sprintf("climax_call of `echo hello`, round trip on an open stdio session (median of %d)", p.o.calls),
		call, direct, "exec `echo hello`"))
	p.rep.rows = append(p.rep.rows, perfRow{
		what:  fmt.Sprintf("for reference: tools/call round trip of the minimal server, protocol only (median of %d)", p.o.calls),
		value: formatDuration(protocol),
	})

	return nil
}

// httpThroughput measures climax_call of echo over streamable HTTP
// against the minimal go-sdk server's echo tool, in the same rounds, with
// running echo directly as a reference.
func (p *perfRun) httpThroughput() error {
	httpCalls := p.o.calls * 4
	for _, conc := range []int{1, 8} {
		p.logf("HTTP throughput: %d calls each of the minimal server's echo_hello, climax_call echo_hello and exec echo hello, %d at once, in %d rotating rounds", httpCalls, conc, httpRounds)
		cmp, err := compareHTTP(p.ctx, httpCalls, conc, minimalHTTP(p.minimalBin), climaxHTTP(p.climaxBin, p.echoPath))
		if err != nil {
			return err
		}
		minimal, climax, direct := cmp.sides[0], cmp.sides[1], cmp.sides[2]
		perSecond := func(t throughput) string {
			cpu := ""
			if t.cpuPerCall > 0 {
				cpu = fmt.Sprintf("; server CPU %s per call", formatDuration(t.cpuPerCall))
			}
			return fmt.Sprintf("%s calls/s (%s / %s%s)", formatInt(int(t.perSecond)), formatDuration(t.p50), formatDuration(t.p99), cpu)
		}
		row := perfRow{
			what:     fmt.Sprintf("climax_call of `echo hello` over streamable HTTP, %d at once (%d calls in %d rounds; median calls/s, p50 / p99 per call, the server's CPU per call; median of the rounds' ratios)", conc, httpCalls, httpRounds),
			value:    perSecond(climax),
			baseline: perSecond(minimal) + " minimal go-sdk server, its tool running `echo hello`",
			ratio:    fmt.Sprintf("%.2f×", cmp.ratios[1]),
		}
		if conc == 8 {
			row.target = fmt.Sprintf("≥ %.2f× (%s)", httpTarget, verdict(cmp.ratios[1] >= httpTarget))
		}
		p.rep.rows = append(p.rep.rows, row, perfRow{
			what:  fmt.Sprintf("for reference: exec `echo hello` directly, %d at once, in the same rounds (against the minimal server)", conc),
			value: perSecond(direct),
			ratio: fmt.Sprintf("%.2f×", cmp.ratios[2]),
		})
	}
	return nil
}

// indexSizes measures the index build and search at generated sizes.
func (p *perfRun) indexSizes() error {
	for _, n := range []int{1_000, 10_000} {
		p.logf("index build and search: %s generated tools", formatInt(n))
		gcs := generateConfigs(n)
		if n == 10_000 {
			p.gen10k = gcs
		}
		build, p50, p99, samples, err := measureIndex(gcs)
		if err != nil {
			return err
		}
		p.rep.rows = append(p.rep.rows,
			perfRow{what: fmt.Sprintf("index build, ready to search (index.New + first Search), %s tools (median of %d)", formatInt(n), buildRuns), value: formatDuration(build)},
			perfRow{what: fmt.Sprintf("search latency p50 / p99, %s tools (Index.Search, limit %d; %d searches)", formatInt(n), metatools.DefaultLimit, samples),
				value: formatDuration(p50) + " / " + formatDuration(p99)})
	}

	return nil
}

// memory measures the resident memory, and the cold start at 10,000
// generated tools.
func (p *perfRun) memory() error {
	p.logf("resident memory")
	rssClimax, err := residentMemory(p.ctx, command{p.climaxBin, p.refs})
	if err != nil {
		return err
	}
	rssMinimal, err := residentMemory(p.ctx, command{p.minimalBin, nil})
	if err != nil {
		return err
	}
	p.rep.rows = append(p.rep.rows, perfRow{
		what:     fmt.Sprintf("resident memory (VmRSS) after initialize and tools/list, %d configs", len(p.refs)),
		value:    formatRSS(rssClimax),
		baseline: formatRSS(rssMinimal) + " " + minimalName,
		ratio:    formatRatio(float64(rssClimax), float64(rssMinimal)),
	})
	var paths []string
	for _, g := range p.gen10k {
		path := filepath.Join(p.dir, g.name+".yaml")
		if err := os.WriteFile(path, g.yaml, 0o644); err != nil {
			return err
		}
		paths = append(paths, path)
	}
	rss10k, err := residentMemory(p.ctx, command{p.climaxBin, paths})
	if err != nil {
		return err
	}
	p.rep.rows = append(p.rep.rows, perfRow{
		what:  "resident memory (VmRSS) after initialize and tools/list, 10,000 generated tools",
		value: formatRSS(rss10k),
	})
	const bigRuns = 5
	p.logf("cold start: %d runs at 10,000 tools", bigRuns)
	big, err := medianColdStart(p.ctx, bigRuns, command{p.climaxBin, paths})
	if err != nil {
		return err
	}
	p.rep.rows = append(p.rep.rows, perfRow{
		what:  fmt.Sprintf("cold start, 10,000 generated tools (median of %d)", bigRuns),
		value: formatDuration(big),
	})

	return nil
}

// wire checks the token table's serialisation against the real wire.
func (p *perfRun) wire() error {
	p.logf("tools/list bytes against the token table")
	for _, classic := range []bool{false, true} {
		note, err := checkWire(p.ctx, p.climaxBin, p.refs, p.cfgs, classic)
		if err != nil {
			return err
		}
		p.rep.notes = append(p.rep.notes, note)
	}
	return nil
}

// A command is a program and its arguments.
type command struct {
	bin  string
	args []string
}

func (c command) cmd() *exec.Cmd { return exec.Command(c.bin, c.args...) }

// buildBinaries builds climax (unless prebuilt is set) and the minimal
// server into dir, both with CGO_ENABLED=0 as releases are built.
func buildBinaries(dir, prebuilt string, logf func(string, ...any)) (climaxBin, minimalBin string, err error) {
	root, err := workspaceRoot()
	if err != nil {
		return "", "", err
	}
	build := func(pkgDir, out string) error {
		logf("CGO_ENABLED=0 go build %s", pkgDir)
		cmd := exec.Command("go", "build", "-o", out, ".")
		cmd.Dir = pkgDir
		// Static binaries, as the release binaries are built
		// (.goreleaser.yaml): no dynamic loader at start.
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if msg, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go build in %s: %v\n%s", pkgDir, err, msg)
		}
		return nil
	}
	climaxBin = prebuilt
	if climaxBin == "" {
		climaxBin = filepath.Join(dir, "climax")
		if err := build(filepath.Join(root, "climax"), climaxBin); err != nil {
			return "", "", err
		}
	}
	minimalBin = filepath.Join(dir, "minimal")
	if err := build(filepath.Join(root, "benchmark", "internal", "minimal"), minimalBin); err != nil {
		return "", "", err
	}
	return climaxBin, minimalBin, nil
}

// workspaceRoot returns the first directory at or above the working
// directory that holds both the climax and the benchmark module.
func workspaceRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		_, err1 := os.Stat(filepath.Join(dir, "climax", "go.mod"))
		_, err2 := os.Stat(filepath.Join(dir, "benchmark", "go.mod"))
		if err1 == nil && err2 == nil {
			return dir, nil
		}
		if filepath.Dir(dir) == dir {
			return "", fmt.Errorf("no CLImax workspace (climax/go.mod and benchmark/go.mod) at or above %s", wd)
		}
	}
}

// connect spawns c and initializes an MCP session with it.
func connect(ctx context.Context, c *exec.Cmd) (*mcp.ClientSession, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "climax-benchmark", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: c}, nil)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", c.Path, err)
	}
	return cs, nil
}

// coldStart spawns c, initializes, lists the tools and closes the session
// (which waits for the process to exit), and returns how long that took.
func coldStart(ctx context.Context, c command) (time.Duration, error) {
	start := time.Now()
	cs, err := connect(ctx, c.cmd())
	if err != nil {
		return 0, err
	}
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		cs.Close()
		return 0, fmt.Errorf("tools/list of %s: %w", c.bin, err)
	}
	if len(res.Tools) == 0 {
		cs.Close()
		return 0, fmt.Errorf("tools/list of %s: no tools", c.bin)
	}
	if err := cs.Close(); err != nil {
		return 0, fmt.Errorf("close %s: %w", c.bin, err)
	}
	return time.Since(start), nil
}

// runToExit runs c to its end and returns how long that took.
func runToExit(c command) (time.Duration, error) {
	start := time.Now()
	if out, err := c.cmd().CombinedOutput(); err != nil {
		return 0, fmt.Errorf("%s %s: %v\n%s", c.bin, strings.Join(c.args, " "), err, out)
	}
	return time.Since(start), nil
}

// interleave runs every measurement once per round, rotating which goes
// first, for warmup unmeasured rounds and then n measured ones, and returns
// the median of each.
func interleave(n, warmup int, measures ...func() (time.Duration, error)) ([]time.Duration, error) {
	samples := make([][]time.Duration, len(measures))
	for round := -warmup; round < n; round++ {
		for k := range measures {
			i := (k + max(round, 0)) % len(measures)
			d, err := measures[i]()
			if err != nil {
				return nil, err
			}
			if round >= 0 {
				samples[i] = append(samples[i], d)
			}
		}
	}
	medians := make([]time.Duration, len(measures))
	for i, s := range samples {
		medians[i] = median(s)
	}
	return medians, nil
}

// medianColdStart returns the median of runs cold starts of c after one
// warm-up.
func medianColdStart(ctx context.Context, runs int, c command) (time.Duration, error) {
	var ds []time.Duration
	for i := -1; i < runs; i++ {
		d, err := coldStart(ctx, c)
		if err != nil {
			return 0, err
		}
		if i >= 0 {
			ds = append(ds, d)
		}
	}
	return median(ds), nil
}

// compareCalls measures round trips on initialized sessions, interleaved:
// a climax_call of echo_hello to c, running echo hello directly, and a
// tools/call of the minimal server's echo tool (no process: the protocol
// alone). It returns the three medians.
func compareCalls(ctx context.Context, calls int, c, minimal command) (call, direct, protocol time.Duration, err error) {
	cs, err := connect(ctx, c.cmd())
	if err != nil {
		return 0, 0, 0, err
	}
	defer cs.Close()
	ms, err := connect(ctx, minimal.cmd())
	if err != nil {
		return 0, 0, 0, err
	}
	defer ms.Close()
	roundTrip := func(s *mcp.ClientSession, params *mcp.CallToolParams, want string) func() (time.Duration, error) {
		return func() (time.Duration, error) {
			start := time.Now()
			res, err := s.CallTool(ctx, params)
			d := time.Since(start)
			if err != nil {
				return 0, fmt.Errorf("call %s: %w", params.Name, err)
			}
			if text := contentText(res); res.IsError || !strings.Contains(text, want) {
				return 0, fmt.Errorf("call %s: unexpected result %q (isError %v)", params.Name, text, res.IsError)
			}
			return d, nil
		}
	}
	viaExec := func() (time.Duration, error) {
		start := time.Now()
		out, err := exec.Command("echo", "hello").Output()
		d := time.Since(start)
		if err != nil || string(out) != "hello\n" {
			return 0, fmt.Errorf("echo hello: %q, %v", out, err)
		}
		return d, nil
	}
	m, err := interleave(calls, 5,
		roundTrip(cs, &mcp.CallToolParams{Name: metatools.CallName, Arguments: map[string]any{"tool_name": "echo_hello"}}, "hello"),
		viaExec,
		roundTrip(ms, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hello"}}, "hello"))
	if err != nil {
		return 0, 0, 0, err
	}
	return m[0], m[1], m[2], nil
}

func contentText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// buildRuns is how many index builds measureIndex times.
const buildRuns = 5

// searchRounds is how many times measureIndex runs each generated query.
const searchRounds = 5

// measureIndex parses generated configs, then times index builds and
// searches: the median build time and the p50 and p99 search latency.
func measureIndex(gcs []genConfig) (build, p50, p99 time.Duration, samples int, err error) {
	cfgs, err := parseGenerated(gcs)
	if err != nil {
		return 0, 0, 0, 0, err
	}
	var builds []time.Duration
	var ix *index.Index
	for range buildRuns {
		runtime.GC()
		start := time.Now()
		ix, _, err = index.New(cfgs, nil)
		if err != nil {
			return 0, 0, 0, 0, fmt.Errorf("index generated tools: %w", err)
		}
		// New builds the search part in the background; a first search
		// waits for it, so the time is that of an index ready to search.
		ix.Search("build", "", "", 1)
		builds = append(builds, time.Since(start))
	}
	queries := generateQueries(200, len(gcs))
	for _, q := range queries { // warm-up
		ix.Search(q.query, "", q.cli, metatools.DefaultLimit)
	}
	runtime.GC()
	var lat []time.Duration
	for range searchRounds {
		for _, q := range queries {
			start := time.Now()
			ix.Search(q.query, "", q.cli, metatools.DefaultLimit)
			lat = append(lat, time.Since(start))
		}
	}
	slices.Sort(lat)
	return median(builds), percentile(lat, 50), percentile(lat, 99), len(lat), nil
}

// residentMemory starts c, initializes and lists the tools, and returns
// the process's resident set size in bytes; -1 where /proc is missing.
func residentMemory(ctx context.Context, c command) (int64, error) {
	cmd := c.cmd()
	cs, err := connect(ctx, cmd)
	if err != nil {
		return 0, err
	}
	defer cs.Close()
	if _, err := cs.ListTools(ctx, nil); err != nil {
		return 0, fmt.Errorf("tools/list of %s: %w", c.bin, err)
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
	if err != nil {
		return -1, nil
	}
	return vmRSS(data)
}

// vmRSS returns the VmRSS line of a /proc/PID/status file in bytes.
func vmRSS(status []byte) (int64, error) {
	for line := range strings.Lines(string(status)) {
		rest, ok := strings.CutPrefix(line, "VmRSS:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			break
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			break
		}
		return kb * 1024, nil
	}
	return 0, errors.New("no VmRSS line in /proc status")
}

func formatRSS(n int64) string {
	if n < 0 {
		return "n/a"
	}
	return formatBytes(n)
}

// checkWire compares the tools/list result climax sends over stdio with
// the token table's serialisation of the same configs, and says whether
// they are byte-identical.
func checkWire(ctx context.Context, bin string, refs []string, cfgs []*config.Config, classic bool) (string, error) {
	mode, args := "discovery", refs
	if classic {
		mode, args = "classic", append([]string{"--classic"}, refs...)
	}
	ix, _, err := index.New(cfgs, nil)
	if err != nil {
		return "", err
	}
	want, err := serverToolsList(ix, classic)
	if err != nil {
		return "", err
	}
	got, err := rawToolsList(ctx, command{bin, args})
	if err != nil {
		return "", err
	}
	if bytes.Equal(got, want) {
		return fmt.Sprintf("The %s tools/list climax sends (%s bytes) is byte-identical to the token table's.", mode, formatInt(len(got))), nil
	}
	i := 0
	for i < min(len(got), len(want)) && got[i] == want[i] {
		i++
	}
	return fmt.Sprintf("MISMATCH: the %s tools/list climax sends (%d bytes) differs from the token table's (%d bytes) at byte %d: %q",
		mode, len(got), len(want), i, got[max(0, i-40):min(len(got), i+40)]), nil
}

// rawToolsList speaks JSON-RPC to c over stdio by hand and returns the
// bytes of the tools/list result as they arrive.
func rawToolsList(ctx context.Context, c command) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.bin, c.args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer cmd.Wait()
	defer stdin.Close()
	return toolsListDialogue(stdin, stdout, c.bin)
}

// toolsListDialogue initializes a server by writing JSON-RPC lines to w
// and reading its replies from r, asks for tools/list and returns the
// bytes of the result as they arrive. name names the server in errors.
func toolsListDialogue(w io.Writer, r io.Reader, name string) (json.RawMessage, error) {
	send := func(msg string) error { _, err := io.WriteString(w, msg+"\n"); return err }
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 64<<20)
	await := func(id int) (json.RawMessage, error) {
		for sc.Scan() {
			var msg struct {
				ID     *int            `json:"id"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if err := json.Unmarshal(sc.Bytes(), &msg); err != nil {
				return nil, fmt.Errorf("%s: bad JSON-RPC line: %w", name, err)
			}
			if msg.ID == nil || *msg.ID != id {
				continue
			}
			if msg.Error != nil {
				return nil, fmt.Errorf("%s: request %d: %s", name, id, msg.Error)
			}
			return msg.Result, nil
		}
		if err := sc.Err(); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%s: no reply to request %d", name, id)
	}
	if err := send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"climax-benchmark","version":"1"}}}`); err != nil {
		return nil, err
	}
	if _, err := await(1); err != nil {
		return nil, err
	}
	if err := send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil {
		return nil, err
	}
	if err := send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); err != nil {
		return nil, err
	}
	return await(2)
}

// plural returns "1 tool", "2 tools".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return formatInt(n) + " " + noun + "s"
}

// median returns the median of ds (the mean of the middle two for an even
// count); zero for none. ds is not modified.
func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// percentile returns the p-th percentile (nearest rank) of sorted; zero
// for none.
func percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := (p*len(sorted) + 99) / 100 // ceil(p/100 × n)
	return sorted[min(max(rank, 1), len(sorted))-1]
}
