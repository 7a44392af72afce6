package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index/config"
	"github.com/climax-mcp/climax/server"
)

// runCmd serves MCP over stdin/stdout, or over HTTP (see httpFlags).
type runCmd struct {
	httpFlags `embed:""`

	Classic       bool     `help:"List every tool directly in tools/list instead of the two meta-tools climax_search and climax_call." env:"CLIMAX_CLASSIC"`
	Policy        string   `help:"Policy file: which tools exist, argument constraints, executor." placeholder:"FILE" env:"CLIMAX_POLICY"`
	LogLevel      logLevel `help:"Log level of the stderr log: DEBUG, INFO, WARNING or ERROR (case-insensitive)." default:"WARNING" placeholder:"LEVEL" env:"CLIMAX_LOG_LEVEL"`
	LogFile       string   `help:"Also log everything from DEBUG up to this file (appended)." placeholder:"PATH" env:"CLIMAX_LOG_FILE"`
	ConfigFiles   []string `name:"config" short:"c" help:"Config file to load (repeatable); the same as a positional path." placeholder:"PATH"`
	MaxConcurrent int      `help:"Maximum number of commands running at once; further calls wait (0: the default, twice the number of CPUs and at least 8)." default:"0" placeholder:"N" env:"CLIMAX_MAX_CONCURRENT"`
	MaxOutput     int      `help:"Per-stream output limit in bytes for every tool, overriding each tool's max_output (0: per-tool limits)." default:"0" placeholder:"BYTES" env:"CLIMAX_MAX_OUTPUT"`

	Configs []string `arg:"" optional:"" name:"CONFIG" help:"Bundled config name (e.g. git) or path to a YAML config."`
}

// refs returns every config reference: --config paths first, then the
// positional ones. A --config value is always a path.
func (c *runCmd) refs() []string {
	var refs []string
	for _, p := range c.ConfigFiles {
		if !config.IsPath(p) {
			p = "./" + p
		}
		refs = append(refs, p)
	}
	return append(refs, c.Configs...)
}

// Run loads the configs and the policy, builds the index and serves MCP on
// stdin/stdout until stdin ends, or over HTTP, until SIGINT/SIGTERM
// arrives.
func (c *runCmd) Run(e *env) error {
	refs := c.refs()
	if len(refs) == 0 {
		return noConfigError("run")
	}
	logger, closeLog, err := newLogger(slog.Level(c.LogLevel), e.stderr, c.LogFile)
	if err != nil {
		return err
	}
	defer closeLog()
	if c.MaxOutput < 0 || c.MaxConcurrent < 0 {
		return usagef("--max-output and --max-concurrent must not be negative")
	}
	if err := c.httpFlags.check(); err != nil {
		return err
	}

	ix, warnings, err := buildIndex(refs, c.Policy)
	if err != nil {
		return err
	}
	for _, w := range warnings {
		logger.Warn(w.String())
	}
	logger.Info("tools loaded", "configs", strings.Join(refs, " "), "tools", ix.Len(), "classic", c.Classic)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	runner := executor.New(executor.WithMaxOutput(c.MaxOutput), executor.WithMaxConcurrent(c.MaxConcurrent))
	srv := server.New(ix, runner,
		server.WithClassic(c.Classic),
		server.WithLogger(logger),
		server.WithVersion(versionString()),
	)
	if c.isHTTP() {
		err = c.serveHTTP(ctx, e, srv, logger)
	} else {
		err = srv.ServeStdio(ctx, e.stdin, e.stdout)
	}
	if ctx.Err() != nil && (err == nil || errors.Is(err, context.Canceled)) {
		// Interrupted or terminated: a normal way to stop a server.
		logger.Info("stopped by signal")
		return nil
	}
	if err != nil {
		return fmt.Errorf("server: %w", err)
	}
	return nil
}

// logLevel is a --log-level value: DEBUG, INFO, WARNING (or WARN) or
// ERROR, in any case.
type logLevel slog.Level

// UnmarshalText parses a level name with parseLevel.
func (l *logLevel) UnmarshalText(b []byte) error {
	lvl, err := parseLevel(string(b))
	if err != nil {
		return fmt.Errorf("invalid log level %q: want DEBUG, INFO, WARNING or ERROR", string(b))
	}
	*l = logLevel(lvl)
	return nil
}
