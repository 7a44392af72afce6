package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Paths served over HTTP.
const (
	// MCPPath is the streamable HTTP endpoint (MCP 2025-03-26 and later).
	MCPPath = "/mcp"
	// SSEPath is the HTTP+SSE endpoint of MCP 2024-11-05, for older
	// clients ([HTTPOptions.SSE]): a GET opens the event stream, POSTs to
	// the endpoint it names carry the client's messages.
	SSEPath = "/sse"
	// HealthPath answers GET with 200 "ok", without authentication, for
	// load balancer and orchestrator probes.
	HealthPath = "/healthz"
)

// DefaultHTTPAddr is the address served when none is given: loopback only.
const DefaultHTTPAddr = "127.0.0.1:8080"

// DefaultMaxBodyBytes bounds the size of a request body (4 MiB); larger
// requests get 413.
const DefaultMaxBodyBytes = 4 << 20

// DefaultBodyTimeout bounds the time a request body takes to arrive.
const DefaultBodyTimeout = 30 * time.Second

// DefaultMaxSessions bounds the number of live sessions (stateful
// streamable HTTP, or open SSE streams); requests that would open more get
// 503.
const DefaultMaxSessions = 1000

// DefaultSessionTimeout is how long a stateful session may stay idle (no
// request) before it is closed.
const DefaultSessionTimeout = 30 * time.Minute

// Limits of the HTTP server. There is deliberately no ReadTimeout or
// WriteTimeout: a tools/call answer is streamed (server-sent events with
// progress notifications) for as long as the command runs — up to the
// tool's own timeout, minutes for some — and a standalone GET stream stays
// open for the whole session. An http.Server WriteTimeout would cut such
// responses off mid-stream, and a ReadTimeout cancels a request's context
// when it expires. Slow clients are bounded by ReadHeaderTimeout (headers),
// a read deadline on each request body ([HTTPOptions.BodyTimeout]), lifted
// once the body has arrived, the body size limit and IdleTimeout
// (keep-alive connections).
const (
	readHeaderTimeout = 10 * time.Second
	idleTimeout       = 2 * time.Minute
	maxHeaderBytes    = 64 << 10

	// callDrainTimeout bounds how long shutdown waits for cancelled calls
	// to return (the executor needs its grace period to kill a process
	// group that ignores SIGTERM).
	callDrainTimeout = 10 * time.Second
	// shutdownGrace is how long shutdown waits for the handlers of
	// cancelled requests to return before closing every connection.
	shutdownGrace = time.Second
)

// HTTPOptions configure [Server.HTTPHandler] and [Server.Serve]. The
// zero value serves streamable HTTP at [MCPPath], stateful, without a
// token, to loopback and allowed origins only.
type HTTPOptions struct {
	// SSE serves the older HTTP+SSE transport at [SSEPath] instead of
	// streamable HTTP at [MCPPath].
	SSE bool

	// Stateless serves streamable HTTP without sessions: no Mcp-Session-Id,
	// every POST stands alone, so that replicas behind a load balancer need
	// no session affinity. Server-to-client requests are impossible in this
	// mode: a call that needs the user's approval cannot ask a client on
	// an older protocol than 2026-07-28 (see [WithConfirmFallback]);
	// progress notifications still reach the client on the POST's own
	// stream. Ignored with SSE.
	Stateless bool

	// AuthToken, when not empty, is the bearer token every request to the
	// MCP endpoint must carry ("Authorization: Bearer TOKEN"); others get
	// 401. [HealthPath] stays open.
	AuthToken string

	// AllowedOrigins are the browser origins ("https://app.example.com",
	// scheme://host[:port]) accepted besides loopback ones; "*" accepts
	// any. A request with any other Origin header gets 403.
	AllowedOrigins []string

	// AllowedHosts are the host names (any port) accepted in the Host
	// header of a request that arrives on a loopback address, besides
	// localhost, 127.0.0.1 and [::1] — for a reverse proxy on the same
	// machine that forwards the public name. Others get 403.
	AllowedHosts []string

	// MaxBodyBytes bounds a request body; 0 means [DefaultMaxBodyBytes].
	MaxBodyBytes int64

	// BodyTimeout bounds the time a request body takes to arrive, from
	// the end of its headers; 0 means [DefaultBodyTimeout]. A body that
	// has not arrived by then fails the request and closes its
	// connection.
	BodyTimeout time.Duration

	// MaxSessions bounds the number of live sessions: stateful streamable
	// HTTP sessions, or open SSE streams. A request that would open one
	// more gets 503. 0 means [DefaultMaxSessions]; a negative value, no
	// limit.
	MaxSessions int

	// SessionTimeout closes a stateful session that has seen no request
	// for that long; 0 means [DefaultSessionTimeout], a negative value
	// keeps sessions until the client ends them.
	SessionTimeout time.Duration
}

// ErrNoToken is returned (wrapped) when a server would listen on an
// address other than loopback without an auth token.
var ErrNoToken = errors.New("an auth token is required to listen beyond loopback")

// IsLoopbackAddr reports whether a listen address (host:port) reaches this
// machine only: its host is "localhost" or a loopback IP (127.0.0.0/8,
// ::1). An empty host (":8080"), 0.0.0.0, :: and any other name or address
// are public.
func IsLoopbackAddr(addr string) (bool, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return false, fmt.Errorf("address %q: want HOST:PORT, e.g. %s", addr, DefaultHTTPAddr)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return false, fmt.Errorf("address %q: bad port %q", addr, port)
	}
	return isLoopbackHost(host), nil
}

// CheckAddr returns an error wrapping [ErrNoToken] when addr is not a
// loopback address (see [IsLoopbackAddr]) and token is empty, and an
// error when addr is malformed.
func CheckAddr(addr, token string) error {
	loopback, err := IsLoopbackAddr(addr)
	if err != nil {
		return err
	}
	if !loopback && token == "" {
		return fmt.Errorf("refusing to listen on %s: %w (clients then send \"Authorization: Bearer TOKEN\"), or listen on a loopback address such as %s", addr, ErrNoToken, DefaultHTTPAddr)
	}
	return nil
}

// isLoopbackHost reports whether a host (no port; IPv6 with or without
// brackets) is "localhost" or a loopback IP.
func isLoopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// URL returns the URL of the MCP endpoint served on addr (a listener's
// address): http://HOST:PORT/mcp, or /sse with opts.SSE.
func (o HTTPOptions) URL(addr net.Addr) string {
	path := MCPPath
	if o.SSE {
		path = SSEPath
	}
	return (&url.URL{Scheme: "http", Host: addr.String(), Path: path}).String()
}

// Serve serves MCP over HTTP on ln (see [Server.HTTPHandler]) until
// ctx is done, then shuts down: it stops accepting connections, cancels
// the running tool calls (killing their commands' process groups), waits
// for them to return, ends the open streams and returns nil. It refuses,
// with an error wrapping [ErrNoToken], to serve on a listener whose
// address is not loopback without opts.AuthToken. ln is closed on return.
func (s *Server) Serve(ctx context.Context, ln net.Listener, opts HTTPOptions) error {
	if err := CheckAddr(ln.Addr().String(), opts.AuthToken); err != nil {
		ln.Close()
		return err
	}
	// conns is the base of every request's context: cancelling it ends the
	// requests still open (long-lived GET streams) at shutdown.
	conns, endConns := context.WithCancel(context.WithoutCancel(ctx))
	defer endConns()
	lt := newLifetime(context.WithoutCancel(ctx))
	defer lt.end()
	var reqs inflight // HTTP requests being handled
	h := s.httpHandler(lt, opts)
	hs := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			reqs.enter()
			defer reqs.leave()
			h.ServeHTTP(w, r)
		}),
		ReadHeaderTimeout: readHeaderTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		BaseContext:       func(net.Listener) context.Context { return conns },
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelDebug),
	}
	s.log.Info("serving MCP over HTTP", "url", opts.URL(ln.Addr()), "stateless", opts.Stateless && !opts.SSE, "auth", opts.AuthToken != "")
	s.checkReady() // warns of a config whose program is missing before the first probe

	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("serve http: %w", err)
	case <-ctx.Done():
	}

	s.log.Info("shutting down", "reason", context.Cause(ctx))
	shut := make(chan error, 1)
	go func() { shut <- hs.Shutdown(context.Background()) }() // closes the listener at once
	lt.end()                                                  // cancel running calls
	if !lt.calls.wait(callDrainTimeout) {
		s.log.Warn("tool calls still running after the shutdown timeout", "timeout", callDrainTimeout)
	}
	// End the requests still open (streams), give their handlers a moment
	// to return, then close every connection: Shutdown alone would wait up
	// to 5 s for connections that never sent a request (a client's spare
	// keep-alive connections).
	endConns()
	reqs.wait(shutdownGrace)
	hs.Close()
	<-shut
	<-served
	return nil
}

// HTTPHandler returns the HTTP handler of the server: the MCP endpoint
// ([MCPPath], or [SSEPath] with opts.SSE) behind the access rules below,
// [MetricsPath] behind the same rules, [HealthPath] and [ReadyPath]. Tool calls made
// through it are cancelled when ctx is done. It is for mounting climax in
// an HTTP server of one's own; [Server.Serve] runs it with the timeouts
// and the shutdown sequence of the climax command.
//
// Access rules, in order, for the MCP endpoint:
//
//   - Host: a request that arrives on a loopback address must name
//     localhost, a loopback IP or one of opts.AllowedHosts in its Host
//     header (any port), else 403. This defeats DNS rebinding, where a web
//     page's own host name is made to resolve to 127.0.0.1.
//   - Origin: a request with an Origin header (sent by browsers) must come
//     from a loopback origin (http or https, localhost, 127.0.0.1 or
//     [::1], any port) or one of opts.AllowedOrigins, else 403.
//   - Token: with opts.AuthToken set, "Authorization: Bearer TOKEN" is
//     required (compared in constant time), else 401 with
//     WWW-Authenticate: Bearer.
//   - Size: a body larger than opts.MaxBodyBytes gets 413.
//   - Sessions: a request that would open a session beyond
//     opts.MaxSessions gets 503.
//
// A rejected request is answered at once, without reading its body, and
// its connection is closed. Every request body must arrive within
// opts.BodyTimeout. Then the id of each message of a POST must be one
// go-sdk echoes exactly, as over stdio (no 1.5, 1e2, -0 or integer beyond
// 2^53-1): else the POST gets 400 with a JSON-RPC error (-32600) and
// nothing in it runs.
//
// A call waiting for the user's approval is refused at once when the
// client closes its session (DELETE), or the stream of its SSE session.
//
// A tool call is cancelled (its command's process group killed) when the
// client goes away: when the connection of the streamable HTTP POST that
// carries it closes before the result is sent. (A stream cut there cannot
// be resumed: no event store is kept.)
//
// go-sdk's own localhost protection is turned off: the Host rule above
// is the same check, with room for allowed hosts.
func (s *Server) HTTPHandler(ctx context.Context, opts HTTPOptions) http.Handler {
	return s.httpHandler(newLifetime(ctx), opts)
}

func (s *Server) httpHandler(lt *lifetime, opts HTTPOptions) http.Handler {
	limit := opts.MaxBodyBytes
	if limit <= 0 {
		limit = DefaultMaxBodyBytes
	}
	sessionTimeout := opts.SessionTimeout
	switch {
	case sessionTimeout == 0:
		sessionTimeout = DefaultSessionTimeout
	case sessionTimeout < 0:
		sessionTimeout = 0 // go-sdk: never
	}
	endpoint, h := s.mcpHandler(opts, sessionTimeout)
	g := s.newGuard(h, lt, opts, limit)

	mux := http.NewServeMux()
	mux.Handle(endpoint, g)
	// The metrics pass the same Host, Origin and token rules.
	mg := *g
	mg.next = s.metrics.handler()
	mg.sessions = nil // not an MCP endpoint
	mux.Handle(MetricsPath, &mg)
	mux.HandleFunc(HealthPath, func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		fmt.Fprintln(w, "ok")
	})
	mux.Handle(ReadyPath, s.readyHandler(g))
	bodyTimeout := opts.BodyTimeout
	if bodyTimeout <= 0 {
		bodyTimeout = DefaultBodyTimeout
	}
	return bodyDeadline(mux, bodyTimeout)
}

// noBodyLimit turns off go-sdk's own body limit: the guard applies the
// one limit, opts.MaxBodyBytes, to every body before go-sdk reads it.
const noBodyLimit = -1

// mcpHandler returns go-sdk's handler of the MCP endpoint opts asks for,
// and the endpoint's path.
func (s *Server) mcpHandler(opts HTTPOptions, sessionTimeout time.Duration) (endpoint string, h http.Handler) {
	getServer := func(*http.Request) *mcp.Server { return s.mcp }
	if opts.SSE {
		endpoint = SSEPath
		h = mcp.NewSSEHandler(getServer, &mcp.SSEOptions{
			DisableLocalhostProtection: true, // the guard checks Host itself
			MaxRequestBodyBytes:        noBodyLimit,
		})
	} else {
		endpoint = MCPPath
		h = mcp.NewStreamableHTTPHandler(getServer, &mcp.StreamableHTTPOptions{
			Stateless:                    opts.Stateless,
			Logger:                       s.log.With("component", "go-sdk"),
			DisableLocalhostProtection:   true, // the guard checks Host itself
			MaxRequestBodyBytes:          noBodyLimit,
			SessionTimeout:               sessionTimeout,
			PropagateRequestCancellation: true, // the guard does it for older protocol versions
		})
	}
	return endpoint, h
}

// bodyDeadline gives the body of each request handled by h a read
// deadline d from now, lifted when the body has been read to its end: a
// deadline left in place would cut off the long responses of tool calls
// (net/http watches the connection once the body is read, and cancels the
// request when that read fails).
func bodyDeadline(h http.Handler, d time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength != 0 && r.Body != nil && r.Body != http.NoBody {
			rc := http.NewResponseController(w)
			if rc.SetReadDeadline(time.Now().Add(d)) == nil {
				r.Body = &deadlineBody{ReadCloser: r.Body, lift: func() { rc.SetReadDeadline(time.Time{}) }}
			}
		}
		h.ServeHTTP(w, r)
	})
}

// deadlineBody is a request body that lifts its connection's read deadline
// at EOF.
type deadlineBody struct {
	io.ReadCloser
	lift   func()
	lifted bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF && !b.lifted {
		b.lifted = true
		b.lift()
	}
	return n, err
}
