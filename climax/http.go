package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/climax-mcp/climax/server"
)

// Transports of the run command besides http (alias streamable-http).
const (
	transportStdio = "stdio"
	transportSSE   = "sse"
)

// httpFlags are the run command's flags for the HTTP transports.
type httpFlags struct {
	Transport      string        `help:"Transport: stdio, http (streamable HTTP at /mcp; alias streamable-http) or sse (the older HTTP+SSE transport at /sse)." enum:"stdio,http,streamable-http,sse" default:"stdio" env:"CLIMAX_TRANSPORT"`
	Addr           string        `help:"HTTP listen address. Anything but a loopback address (127.0.0.1, ::1, localhost) requires --auth-token; ':8080' and '0.0.0.0:8080' are public." default:"127.0.0.1:8080" placeholder:"HOST:PORT" env:"CLIMAX_ADDR" group:"HTTP transport (--transport http or sse)"`
	AuthToken      string        `help:"Bearer token HTTP clients must send (Authorization: Bearer TOKEN). Prefer the environment variable: flags show in ps." placeholder:"TOKEN" env:"CLIMAX_AUTH_TOKEN" group:"HTTP transport (--transport http or sse)"`
	AllowOrigin    []string      `help:"Browser origin allowed besides loopback ones, e.g. https://app.example.com, or * for any (repeatable). Requests with another Origin header get 403." placeholder:"ORIGIN" env:"CLIMAX_ALLOW_ORIGINS" group:"HTTP transport (--transport http or sse)"`
	AllowHost      []string      `help:"Host name accepted in the Host header of requests arriving on loopback, besides localhost and loopback IPs: the public name a reverse proxy on this machine forwards (repeatable)." placeholder:"HOST" env:"CLIMAX_ALLOW_HOSTS" group:"HTTP transport (--transport http or sse)"`
	Stateless      bool          `help:"Serve streamable HTTP without sessions, so that replicas behind a load balancer need no session affinity." env:"CLIMAX_STATELESS" group:"HTTP transport (--transport http or sse)"`
	SessionTimeout time.Duration `help:"Close a session after this long without a request (0: never)." default:"30m" placeholder:"DURATION" env:"CLIMAX_SESSION_TIMEOUT" group:"HTTP transport (--transport http or sse)"`
	MaxSessions    int           `help:"Maximum number of live sessions (stateful streamable HTTP sessions, or SSE streams); requests that would open more get 503 (0: no limit)." default:"1000" placeholder:"N" env:"CLIMAX_MAX_SESSIONS" group:"HTTP transport (--transport http or sse)"`
}

// Defaults of the HTTP flags, as their tags give them.
const (
	defaultAddr           = "127.0.0.1:8080"
	defaultSessionTimeout = 30 * time.Minute
	defaultMaxSessions    = 1000
)

// minTokenLen is the token length below which run warns.
const minTokenLen = 16

// isHTTP reports whether an HTTP transport was chosen.
func (f *httpFlags) isHTTP() bool { return f.Transport != transportStdio }

// check validates the HTTP flags before anything is loaded: a usage
// error for a malformed address, a public address without a token, or
// --stateless with sse.
func (f *httpFlags) check() error {
	if !f.isHTTP() {
		return nil
	}
	if f.Stateless && f.Transport == transportSSE {
		return usagef("--stateless works with --transport http only (the sse transport needs sessions)")
	}
	if f.SessionTimeout < 0 {
		return usagef("--session-timeout must not be negative")
	}
	if f.MaxSessions < 0 {
		return usagef("--max-sessions must not be negative")
	}
	if f.AuthToken != "" && strings.TrimSpace(f.AuthToken) == "" {
		return usagef("the auth token is blank (--auth-token or CLIMAX_AUTH_TOKEN): no client could send it; set a long random one, e.g. from: openssl rand -hex 32")
	}
	if err := server.CheckAddr(f.Addr, f.AuthToken); err != nil {
		if errors.Is(err, server.ErrNoToken) {
			err = fmt.Errorf("%w\nset a token with --auth-token or, better (flags show in ps), the environment variable CLIMAX_AUTH_TOKEN", err)
		}
		return &usageError{err}
	}
	return nil
}

// ignoredOnStdio returns the HTTP flags set to something else than their
// default, which the stdio transport ignores. The token is left out: it
// is often exported for every run, and has no default to differ from.
func (f *httpFlags) ignoredOnStdio() []string {
	if f.isHTTP() {
		return nil
	}
	var set []string
	for _, fl := range []struct {
		name    string
		changed bool
	}{
		{"--addr", f.Addr != defaultAddr},
		{"--allow-origin", len(f.AllowOrigin) > 0},
		{"--allow-host", len(f.AllowHost) > 0},
		{"--stateless", f.Stateless},
		{"--session-timeout", f.SessionTimeout != defaultSessionTimeout},
		{"--max-sessions", f.MaxSessions != defaultMaxSessions},
	} {
		if fl.changed {
			set = append(set, fl.name)
		}
	}
	return set
}

// options returns the server's HTTP options. The flags' 0 (never, no
// limit) is the options' negative value.
func (f *httpFlags) options() server.HTTPOptions {
	o := server.HTTPOptions{
		SSE:            f.Transport == transportSSE,
		Stateless:      f.Stateless,
		AuthToken:      f.AuthToken,
		AllowedOrigins: f.AllowOrigin,
		AllowedHosts:   f.AllowHost,
		SessionTimeout: f.SessionTimeout,
		MaxSessions:    f.MaxSessions,
	}
	if o.SessionTimeout == 0 {
		o.SessionTimeout = -1
	}
	if o.MaxSessions == 0 {
		o.MaxSessions = -1
	}
	return o
}

// serveHTTP listens on --addr and serves srv until ctx is done. It prints
// the endpoint's URL on stderr once listening.
func (f *httpFlags) serveHTTP(ctx context.Context, e *env, srv *server.Server, logger *slog.Logger) error {
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", f.Addr)
	if err != nil {
		return err
	}
	opts := f.options()
	if opts.AuthToken != "" && len(opts.AuthToken) < minTokenLen {
		logger.Warn("the auth token is short; use a long random one, e.g. from: openssl rand -hex 32")
	}
	kind := "streamable HTTP"
	if opts.SSE {
		kind = "HTTP+SSE"
	} else if opts.Stateless {
		kind = "streamable HTTP, stateless"
	}
	fmt.Fprintf(e.stderr, "climax: serving MCP (%s) at %s\n", kind, opts.URL(ln.Addr()))
	return srv.Serve(ctx, ln, opts)
}
