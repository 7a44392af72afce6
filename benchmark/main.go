// Command benchmark measures what progressive discovery saves and what
// CLImax costs.
//
// From the workspace root:
//
//	go run ./benchmark                        # token table, every bundled config
//	go run ./benchmark -config git -config ./my.yaml
//	go run ./benchmark -encoding o200k_base
//	go run ./benchmark -perf                  # performance table
//	go run ./benchmark -scaffold              # climax scaffold: drafts, acceptance, recall
//
// # Token table
//
// For each config, and for all of them together, the tools/list result of
// classic mode (every tool) and of discovery mode (climax_search and
// climax_call) is serialised exactly as the server puts it on the wire —
// definitions from metatools, schemas from index, the result object of
// go-sdk — and its tokens counted with tiktoken's cl100k_base (or
// o200k_base). A "find and call" row adds the average climax_search
// response (limit 5) over a fixed list of queries to the discovery side.
// The output is deterministic Markdown, fit for the README.
//
// # Performance table
//
// -perf builds climax and a minimal go-sdk server into a temporary
// directory and measures, interleaving the two: cold start (spawn,
// initialize, tools/list, close), the round trip of a climax_call of echo
// against running echo directly, calls per second over streamable HTTP
// against the minimal server's echo tool, search latency and index build
// time at 1,000 and 10,000 generated tools, and the resident memory of
// climax serving 10,000 tools. Figures are medians; the table names the
// core count and Go version, and checks two targets: a cold start with
// every bundled config at most 2× the minimal server's, and over HTTP, 8
// calls at once, at least 0.95× its calls per second.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// Exit codes.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

// options are the command-line settings.
type options struct {
	configs  stringList
	encoding string
	perf     bool
	scaffold bool
	only     string
	runs     int
	calls    int
	climax   string
}

// run is the whole command: it parses args, prints the token table (or,
// with -perf, the performance table) to stdout and problems to stderr, and
// returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	var o options
	fs := flag.NewFlagSet("benchmark", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Var(&o.configs, "config", "config to measure: a bundled name (git) or a YAML file; repeatable (default: every bundled config)")
	fs.StringVar(&o.encoding, "encoding", cl100kBase, "tokenizer encoding: "+cl100kBase+" or "+o200kBase)
	fs.BoolVar(&o.perf, "perf", false, "print the performance table instead of the token table (builds climax, spawns processes; under a minute)")
	fs.BoolVar(&o.scaffold, "scaffold", false, "print the scaffold table instead: drafts configs for installed programs with climax scaffold, validates and verifies them, and compares drafts of bundled programs with their configs (builds climax; a few minutes)")
	fs.StringVar(&o.only, "program", "", "with -scaffold: measure only this program")
	fs.IntVar(&o.runs, "runs", 21, "with -perf: cold starts per server (at least 20 makes a stable median)")
	fs.IntVar(&o.calls, "calls", 201, "with -perf: calls per side for the call overhead")
	fs.StringVar(&o.climax, "climax", "", "with -perf or -scaffold: the climax binary to measure (default: build it from the workspace)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: benchmark [-config NAME|PATH]... [-encoding %s|%s] [-perf [-runs N] [-calls N] [-climax BIN]] [-scaffold [-climax BIN]]\n\n", cl100kBase, o200kBase)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "benchmark: unexpected argument %q (configs are given with -config)\n", fs.Arg(0))
		return exitUsage
	}
	if _, err := newCounter(o.encoding); err != nil {
		fmt.Fprintf(stderr, "benchmark: %v\n", err)
		return exitUsage
	}
	if o.runs < 1 || o.calls < 1 {
		fmt.Fprintln(stderr, "benchmark: -runs and -calls must be positive")
		return exitUsage
	}

	var err error
	switch {
	case o.perf && o.scaffold:
		fmt.Fprintln(stderr, "benchmark: -perf and -scaffold print different tables: give one")
		return exitUsage
	case o.scaffold:
		err = runScaffold(o, stdout, stderr)
	case o.perf:
		err = runPerf(o, stdout, stderr)
	default:
		err = runTokens(o, stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "benchmark: %v\n", err)
		return exitError
	}
	return exitOK
}

// runTokens prints the token table.
func runTokens(o options, stdout io.Writer) error {
	cfgs, err := loadConfigs(o.configs)
	if err != nil {
		return err
	}
	rep, err := measureTokens(cfgs, o.encoding)
	if err != nil {
		return err
	}
	return rep.write(stdout)
}
