// Package server serves a CLImax tool set over MCP (go-sdk): discovery or
// classic mode, over stdio or streamable HTTP.
package server

import (
	"context"
	"io"
	"log/slog"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index"
)

// Server serves one tool index over MCP.
type Server struct {
	ix     *index.Index
	runner *executor.Runner
	cfg    config
}

type config struct {
	classic       bool
	maxConcurrent int
	logger        *slog.Logger
	name, version string
}

// An Option configures a [Server].
type Option func(*config)

// WithClassic lists every tool directly instead of the two meta-tools.
func WithClassic(classic bool) Option { return func(c *config) { c.classic = classic } }

// WithMaxConcurrent bounds the number of commands running at once; calls
// beyond it wait. n <= 0 keeps the default.
func WithMaxConcurrent(n int) Option { return func(c *config) { c.maxConcurrent = n } }

// WithLogger sets the logger (default: discard).
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// WithVersion sets the server version reported at initialize.
func WithVersion(v string) Option { return func(c *config) { c.version = v } }

// New returns a server for ix that runs commands with runner.
//
// STUB: to be replaced by the server issue.
func New(ix *index.Index, runner *executor.Runner, opts ...Option) *Server {
	s := &Server{ix: ix, runner: runner}
	for _, o := range opts {
		o(&s.cfg)
	}
	return s
}

// ServeStdio serves MCP over in and out until in reaches EOF (after every
// pending request has been answered) or ctx is done.
//
// STUB: to be replaced by the server issue.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	return nil
}
