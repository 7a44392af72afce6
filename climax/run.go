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
	"time"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
	"github.com/climax-mcp/climax/metatools"
	"github.com/climax-mcp/climax/server"
)

// runCmd serves MCP over stdin/stdout, or over HTTP (see httpFlags).
type runCmd struct {
	httpFlags `embed:""`

	Classic       bool     `help:"List every tool directly in tools/list instead of the two meta-tools climax_search and climax_call (the same as --mode classic)." env:"CLIMAX_CLASSIC"`
	Mode          string   `help:"discovery: list climax_search and climax_call; classic: list every tool; auto: classic when the tools' list costs at most --auto-budget tokens, discovery beyond (default: discovery)." placeholder:"MODE" env:"CLIMAX_MODE"`
	AutoBudget    int      `help:"Token budget of --mode auto: the tools are listed directly when their tools/list is estimated at no more tokens than this." default:"${autoBudget}" placeholder:"TOKENS" env:"CLIMAX_AUTO_BUDGET"`
	Policy        string   `help:"Policy file: which tools exist, argument constraints, executor." placeholder:"FILE" env:"CLIMAX_POLICY"`
	LogLevel      logLevel `help:"Log level of the stderr log: DEBUG, INFO, WARNING or ERROR (case-insensitive)." default:"WARNING" placeholder:"LEVEL" env:"CLIMAX_LOG_LEVEL"`
	LogFile       string   `help:"Also log everything from DEBUG up to this file (appended)." placeholder:"PATH" env:"CLIMAX_LOG_FILE"`
	ConfigFiles   []string `name:"config" short:"c" sep:"none" help:"Config file to load (repeatable); the same as a positional path." placeholder:"PATH"`
	MaxConcurrent int      `help:"Maximum number of commands running at once; further calls wait (0: the default, twice the number of CPUs and at least 8)." default:"0" placeholder:"N" env:"CLIMAX_MAX_CONCURRENT"`
	MaxOutput     int      `help:"Per-stream output limit in bytes for every tool, overriding each tool's max_output (0: per-tool limits)." default:"0" placeholder:"BYTES" env:"CLIMAX_MAX_OUTPUT"`
	AuditLog      string   `help:"Append one JSON line per tool call to this file (arguments marked secret are redacted)." placeholder:"PATH" env:"CLIMAX_AUDIT_LOG"`
	Watch         bool     `help:"Reload the config files given by path and the policy file when they change (a set with problems is logged and the old one kept). Write them by rename: a file written in place is reloaded once unchanged for 2s." env:"CLIMAX_WATCH"`
	ReadOnly      bool     `help:"${read_only_help}" env:"CLIMAX_READ_ONLY"`
	StrictArgs    bool     `help:"Refuse calls that give argument names the tool does not have (by default they are ignored and listed in structuredContent.ignored_args)." env:"CLIMAX_STRICT_ARGS"`

	Confirm         string        `help:"Which calls ask the user to approve the command before it runs: none, destructive (tools annotated destructive), write (tools not annotated read_only) or all. Unset, tools whose config declares risk: (CLImax 0.5 configs) use write and others none. A policy's confirm: adds to it; a tool's confirm: true|false in the policy wins." placeholder:"RULE" env:"CLIMAX_CONFIRM" group:"Approving calls"`
	ConfirmVia      string        `help:"How a call that needs approval is asked when the client cannot be asked by MCP elicitation: client (nobody else), dialog (a native dialog), tty (the terminal climax runs in), or auto (a dialog when a display is present, then the terminal). Default: auto over stdio, client over HTTP (the user of a remote client is not at this machine)." placeholder:"WAY" env:"CLIMAX_CONFIRM_VIA" group:"Approving calls"`
	ConfirmTimeout  time.Duration `help:"How long a call waits for the user's approval before it is refused as unanswered." default:"5m" placeholder:"DURATION" env:"CLIMAX_CONFIRM_TIMEOUT" group:"Approving calls"`
	ConfirmFallback string        `help:"What a call that needs approval does when nobody can be asked (see --confirm-via): deny refuses it; allow runs it unapproved and logs a warning. Unset, the policy's approval.headless decides (deny when it says nothing)." placeholder:"deny|allow" env:"CLIMAX_CONFIRM_FALLBACK" group:"Approving calls"`
	HeadlessApprove bool          `help:"The same as --confirm-fallback allow (CLImax 0.5's flag)." env:"CLIMAX_HEADLESS_APPROVE" group:"Approving calls"`
	ApprovalKeyFile string        `help:"File of the keys that sign approval request states (clients on MCP 2026-07-28 retry a call with the user's answer and that state), one per line: the first signs, the others are still accepted (the previous key during a rotation). Replicas sharing the keys accept each other's states, so a user is asked once whichever replica a retry reaches. Default: a random key per process." placeholder:"FILE" env:"CLIMAX_APPROVAL_KEY_FILE" group:"Approving calls"`
	ApprovalKey     string        `help:"The keys of --approval-key-file, comma-separated, the first signing. Prefer the environment variable: flags show in ps." placeholder:"KEYS" env:"CLIMAX_APPROVAL_KEY" group:"Approving calls"`

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
// arrives. SIGINT and SIGTERM stop a stdio server too, and so does the
// client closing the reading end of stdout (see watchStdout): the running
// calls are cancelled, and Run returns nil.
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
	// Libraries that write with the log package (the metrics library) log
	// through climax's logger.
	slog.SetDefault(logger)
	if subreaperErr != nil {
		logger.Warn("descendants of a command that leave its process group may outlive their call", "error", subreaperErr)
	}
	if err := hideFromCommands(); err != nil {
		logger.Warn("commands run as climax's user may read its environment and open files through /proc", "error", err)
	}
	if err := c.check(); err != nil {
		return err
	}
	c.warnIneffective(logger)

	load, read, rec := c.loader(refs)
	ix, warnings, err := load(read)
	if err != nil {
		return err
	}
	for _, w := range warnings {
		logger.Warn(w.String())
	}
	if c.ReadOnly && ix.Len() == 0 {
		logger.Warn("--read-only leaves no tools: none is annotated read_only: true")
	}
	classic := c.classic(ix, logger)
	tuneGC()
	logger.Info("tools loaded", "configs", strings.Join(refs, " "), "tools", ix.Len(), "classic", classic, "read_only", c.ReadOnly)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// A write to a closed pipe or socket fails with EPIPE instead of
	// killing the process: Go's runtime raises SIGPIPE for writes to fd 1
	// and 2 unless the program has asked to be notified of it.
	sigpipe := make(chan os.Signal, 1)
	signal.Notify(sigpipe, syscall.SIGPIPE)
	defer signal.Stop(sigpipe)

	var w *watcher
	if c.Watch {
		if w, err = newWatcher(rec, load, logger); err != nil {
			return fmt.Errorf("watch config files: %w", err)
		}
	}
	opts, closeAudit, err := c.serverOptions(classic, w != nil, logger)
	if err != nil {
		return err
	}
	defer closeAudit()
	runner := executor.New(executor.WithMaxOutput(c.MaxOutput), executor.WithMaxConcurrent(c.MaxConcurrent), executor.WithStrictArgs(c.StrictArgs))
	srv := server.New(ix, runner, opts...)
	defer func() {
		// Before closeAudit: the records of the last calls are written,
		// unless the log stalls.
		if !srv.FlushAudit(auditFlushTimeout) {
			logger.Warn("audit log: records of the last calls not written at shutdown: the log did not take writes", "waited", auditFlushTimeout)
		}
	}()
	if w != nil {
		w.run(ctx, srv.Replace)
	}
	if !c.isHTTP() {
		mode := "discovery"
		if classic {
			mode = "classic"
		}
		stdioNotice(e, ix.Len(), mode)
	}
	return c.serve(ctx, e, srv, logger)
}

// loader returns how the tools of refs are loaded, the reader of their
// files, and under --watch the recorder of the files read (else nil).
func (c *runCmd) loader(refs []string) (load func(readFunc) (*index.Index, []config.Problem, error), read readFunc, rec *fileRecorder) {
	load = func(read readFunc) (*index.Index, []config.Problem, error) {
		rule, _ := config.ParseConfirmRule(c.Confirm) // checked by check
		return buildIndexWith(read, refs, c.Policy, c.ReadOnly, rule)
	}
	read = readFile
	if c.Watch {
		rec = newFileRecorder()
		read = rec.read
	}
	return load, read, rec
}

// warnIneffective logs the options given that have no effect with the
// others: HTTP options over stdio, --auto-budget without --mode auto.
func (c *runCmd) warnIneffective(logger *slog.Logger) {
	if ignored := c.ignoredOnStdio(); len(ignored) > 0 {
		logger.Warn("HTTP options have no effect over stdio: add --transport http to use them", "options", strings.Join(ignored, " "))
	}
	if c.AutoBudget != defaultAutoBudget && c.Mode != "auto" {
		logger.Warn("--auto-budget has no effect without --mode auto")
	}
}

// check refuses flag values that make no sense together or alone.
func (c *runCmd) check() error {
	if c.MaxOutput < 0 || c.MaxConcurrent < 0 {
		return usagef("--max-output and --max-concurrent must not be negative")
	}
	if err := c.httpFlags.check(); err != nil {
		return err
	}
	if _, err := config.ParseConfirmRule(c.Confirm); err != nil {
		return usagef("--confirm: %v", err)
	}
	switch c.ConfirmVia {
	case "", server.ViaClient, server.ViaDialog, server.ViaTTY, server.ViaAuto:
	default:
		return usagef("--confirm-via must be one of client, dialog, tty, auto (got %q)", c.ConfirmVia)
	}
	switch c.ConfirmFallback {
	case "", "deny", "allow":
	default:
		return usagef("--confirm-fallback must be deny or allow (got %q)", c.ConfirmFallback)
	}
	if c.HeadlessApprove && c.ConfirmFallback == "deny" {
		return usagef("--headless-approve and --confirm-fallback deny contradict each other: give one")
	}
	if c.ConfirmTimeout <= 0 {
		return usagef("--confirm-timeout must be positive, e.g. 5m (got %s)", c.ConfirmTimeout)
	}
	if c.AutoBudget < 0 {
		return usagef("--auto-budget must not be negative")
	}
	switch c.Mode {
	case "", "discovery", "classic", "auto":
	default:
		return usagef("--mode must be one of discovery, classic, auto (got %q)", c.Mode)
	}
	if c.Classic && c.Mode != "" && c.Mode != "classic" {
		return usagef("--classic and --mode %s contradict each other: give one", c.Mode)
	}
	return nil
}

// serverOptions returns the server's options, opening the audit log when
// one is asked for; closeAudit closes it. watching declares the
// tools.listChanged capability: only when a file is watched can the
// tools change.
func (c *runCmd) serverOptions(classic, watching bool, logger *slog.Logger) (opts []server.Option, closeAudit func(), err error) {
	keys, err := c.approvalKeys()
	if err != nil {
		return nil, nil, err
	}
	opts = []server.Option{
		server.WithApprovalKeys(keys...),
		server.WithClassic(classic),
		server.WithLogger(logger),
		server.WithVersion(versionString()),
		server.WithListChanged(watching),
		server.WithConfirmTimeout(c.ConfirmTimeout),
		server.WithConfirmVia(c.confirmVia()),
		server.WithUnservedConfigs(unservedBundled(c.refs())),
	}
	if c.ConfirmFallback != "" || c.HeadlessApprove {
		opts = append(opts, server.WithConfirmFallback(c.ConfirmFallback == "allow" || c.HeadlessApprove))
	}
	if c.AuditLog == "" {
		return opts, func() {}, nil
	}
	audit, err := openAuditLog(c.AuditLog)
	if err != nil {
		return nil, nil, err
	}
	return append(opts, server.WithAuditLog(audit)), func() { audit.Close() }, nil
}

// confirmVia is --confirm-via, or its default: auto over stdio, where the
// user who started the client is at this machine, client over HTTP, where
// the user of a remote client is not.
func (c *runCmd) confirmVia() string {
	switch {
	case c.ConfirmVia != "":
		return c.ConfirmVia
	case c.isHTTP():
		return server.ViaClient
	}
	return server.ViaAuto
}

// serve serves srv over HTTP or stdio until the transport ends or ctx is
// done; a stop by signal, or by the client closing stdout, is a normal
// end.
func (c *runCmd) serve(ctx context.Context, e *env, srv *server.Server, logger *slog.Logger) error {
	var err error
	if c.isHTTP() {
		err = c.serveHTTP(ctx, e, srv, logger)
	} else {
		var cancel context.CancelCauseFunc
		ctx, cancel = context.WithCancelCause(ctx)
		defer cancel(nil)
		if f, ok := e.stdout.(*os.File); ok {
			stopWatch, werr := watchStdout(f, func() { cancel(errStdoutClosed) })
			if werr != nil {
				logger.Warn("cannot watch stdout for the client going away", "error", werr)
			} else {
				defer stopWatch()
			}
		}
		err = srv.ServeStdio(ctx, e.stdin, e.stdout)
	}
	if ctx.Err() != nil && (err == nil || errors.Is(err, context.Canceled)) {
		// Interrupted, terminated or left by the client: a normal way to
		// stop a server.
		logger.Info("stopped", "reason", context.Cause(ctx))
		return nil
	}
	if err != nil {
		return fmt.Errorf("server: %w", err)
	}
	return nil
}

// defaultAutoBudget is the default of --auto-budget: what discovery mode
// costs an agent that searches once — the two meta-tools' tools/list (332
// tokens) plus an average 5-result climax_search response (519 tokens),
// both as `go run ./benchmark` counts them for the bundled configs. Below
// it, listing the tools directly is cheaper than discovering them.
const defaultAutoBudget = 851

// classic decides the mode: --classic or --mode classic; with --mode
// auto, classic when the estimated tokens of the classic tools/list are
// within the budget. The decision is made once, at start.
func (c *runCmd) classic(ix *index.Index, logger *slog.Logger) bool {
	switch {
	case c.Classic || c.Mode == "classic":
		return true
	case c.Mode == "auto":
		tokens := metatools.EstimateTokens(metatools.ClassicDefinitions(ix))
		classic := tokens <= c.AutoBudget
		logger.Info("auto mode", "classic_tokens_estimate", tokens, "budget", c.AutoBudget, "classic", classic)
		return classic
	}
	return false
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
