package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// newGuard returns the guard of the MCP endpoint h under lt, with the
// access rules of opts.
func (s *Server) newGuard(h http.Handler, lt *lifetime, opts HTTPOptions, limit int64) *guard {
	g := &guard{
		next:      h,
		mcp:       s.mcp,
		log:       s.log,
		lt:        lt,
		limit:     limit,
		origins:   map[string]bool{},
		hosts:     map[string]bool{},
		sse:       opts.SSE,
		stateless: opts.Stateless && !opts.SSE,
		sessions:  newSessionCap(opts.MaxSessions),
	}
	if opts.AuthToken != "" {
		sum := sha256.Sum256([]byte(opts.AuthToken))
		g.token = sum[:]
	}
	for _, o := range opts.AllowedOrigins {
		if strings.TrimSpace(o) == "*" {
			g.anyOrigin = true
		}
		g.origins[normalizeOrigin(o)] = true
	}
	for _, h := range opts.AllowedHosts {
		g.hosts[strings.ToLower(stripPort(strings.TrimSpace(h)))] = true // "a, b" in the environment
	}
	return g
}

// guard applies the access rules of [Server.HTTPHandler] before the MCP
// handler.
type guard struct {
	next      http.Handler
	mcp       *mcp.Server
	log       *slog.Logger
	lt        *lifetime
	limit     int64
	token     []byte // SHA-256 of the token; nil: no token required
	anyOrigin bool
	origins   map[string]bool // normalised allowed origins
	hosts     map[string]bool // lower-case allowed host names
	sse       bool            // the endpoint is HTTP+SSE
	stateless bool            // streamable HTTP without sessions: calls cannot send the client requests
	sessions  *sessionCap     // nil: not an MCP endpoint (no sessions, no calls)
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !g.hostAllowed(r) {
		g.reject(w, r, http.StatusForbidden, "Forbidden: Host header not allowed", "host", r.Host)
		return
	}
	if origin := r.Header.Get("Origin"); origin != "" && !g.originAllowed(origin) {
		g.reject(w, r, http.StatusForbidden, "Forbidden: Origin not allowed", "origin", origin)
		return
	}
	if g.token != nil && !g.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="climax"`)
		g.reject(w, r, http.StatusUnauthorized, "Unauthorized: send Authorization: Bearer TOKEN", "auth", "missing or wrong bearer token")
		return
	}
	if r.ContentLength > g.limit {
		g.reject(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("Request body exceeds %d bytes", g.limit), "content_length", r.ContentLength)
		return
	}
	opensSession := false
	switch {
	case g.sessions == nil:
	case g.sse:
		opensSession = r.Method == http.MethodGet
	case !g.stateless:
		opensSession = r.Method == http.MethodPost && r.Header.Get(sessionIDHeader) == ""
	}
	// A GET that opens an SSE session has no body: its slot is taken at
	// once. A POST without a session id is read first, since only an
	// initialize opens a session: any other message is the client's error
	// (400) whether or not a slot is free, and only an initialize at the
	// limit is refused for capacity (503).
	if opensSession && g.sse && !g.reserveSession(w, r) {
		return
	}
	if r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, g.limit)
	}
	if g.sessions != nil && r.Method == http.MethodPost && !g.checkIDs(w, r, opensSession && !g.sse) {
		return
	}
	if opensSession && !g.sse && !g.reserveSession(w, r) {
		return
	}
	// Sessions, and the tool calls they run, keep the values of the
	// request that opened them: this is how calls learn of shutdown, that
	// they cannot ask the client anything over stateless HTTP, and when
	// their session ends.
	ri := &reqInfo{transport: "http", lt: g.lt, stateless: g.stateless}
	var endSession context.CancelCauseFunc
	if opensSession {
		ri.ended, endSession = newSessionEnd()
		if g.sse {
			// The session lasts as long as this stream; go-sdk closes it
			// when the stream ends, after its calls have returned.
			stop := context.AfterFunc(r.Context(), func() { endSession(errStreamClosed) })
			defer stop()
		}
	}
	if r.Method == http.MethodDelete && g.sessions != nil && !g.sse {
		g.sessions.closing(r.Header.Get(sessionIDHeader))
	}
	r = r.WithContext(withInfo(r.Context(), ri))
	if g.sessions != nil && !g.sse {
		// Name the request, so that a tool call it carries can be
		// cancelled when it goes away (see lifetimeMiddleware).
		key := g.lt.addRequest(r.Context())
		defer g.lt.removeRequest(key)
		r.Header = r.Header.Clone()
		r.Header.Set(requestKeyHeader, key)
	}
	g.next.ServeHTTP(w, r)
	if opensSession {
		if g.sse {
			endSession(errStreamClosed)
			g.sessions.release() // the stream, and its session, ended
		} else {
			g.sessions.track(g.mcp, w.Header().Get(sessionIDHeader), endSession)
		}
	}
}

// reserveSession takes a slot for the session that r opens, or refuses r
// with 503 when --max-sessions are live, and reports whether it took one.
func (g *guard) reserveSession(w http.ResponseWriter, r *http.Request) bool {
	if g.sessions.reserve() {
		return true
	}
	end := fmt.Sprintf("DELETE with their %s header", sessionIDHeader)
	if g.sse {
		end = "close their event streams"
	}
	g.reject(w, r, http.StatusServiceUnavailable, fmt.Sprintf("Service Unavailable: %d %s open, the server's limit; end the sessions you no longer use (%s) or raise the limit", g.sessions.max, plural(g.sessions.max, "session is", "sessions are"), end), "sessions", g.sessions.max)
	return false
}

// checkIDs reads the body of a POST and refuses it, before go-sdk sees it,
// when it holds more array items and object members, or deeper nesting,
// than one message may (see checkShape), or when one of its messages has
// an id that go-sdk would not echo exactly: the rule of stdio (see
// checkBodyIDs), for one message or a batch. go-sdk would run a request
// with id 1.5 and answer it as 1. The refusal is a 400
// whose body is the JSON-RPC error stdio would send, about the first such
// message; nothing in the body runs. A body that is not JSON is left to
// go-sdk. With sessionless set (a POST without a session id, which opens a
// session), a message other than initialize is refused the same way: go-sdk
// would answer it with a 200 whose error has code 0. It reports whether the
// request may go on, with its body restored.
func (g *guard) checkIDs(w http.ResponseWriter, r *http.Request, sessionless bool) bool {
	if r.Body == nil || r.Body == http.NoBody {
		return true
	}
	body, err := readBody(r.Body, r.ContentLength)
	r.Body.Close()
	if err != nil {
		if _, tooLarge := errors.AsType[*http.MaxBytesError](err); tooLarge {
			g.reject(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("Request body exceeds %d bytes", g.limit), "body", "too large")
		} else {
			g.reject(w, r, http.StatusBadRequest, "Bad Request: could not read the body", "error", err)
		}
		return false
	}
	reply, ok := []byte(nil), true
	if json.Valid(body) || tooDeep(body) { // else go-sdk refuses it
		// The shape first, before anything decodes the body: see maxItems.
		reply, ok = checkShape(body)
		if ok {
			reply, ok = checkBodyIDs(body)
		}
		if ok && sessionless {
			reply, ok = checkOpensSession(body)
		}
	}
	if !ok {
		g.log.Info("http message rejected", "reply", shorten(string(bytes.TrimSpace(reply))), "method", r.Method, "path", r.URL.Path, "remote", r.RemoteAddr)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		w.Write(reply)
		return false
	}
	r.Body = &readOnce{b: body}
	return true
}

// readOnce is a request body read from a slice that it lets go as it is
// read: go-sdk reads a body into a copy of its own and keeps the request
// until the response is sent, which would keep this slice too.
type readOnce struct{ b []byte }

func (r *readOnce) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		r.b = nil
		return 0, io.EOF
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	if len(r.b) == 0 {
		r.b = nil
	}
	return n, nil
}

func (r *readOnce) Close() error { return nil }

// readBody reads a request body of size bytes (-1: unknown) whole: into
// one slice of that size when it is known, where io.ReadAll would gather
// it in pieces and copy them into another.
func readBody(body io.Reader, size int64) ([]byte, error) {
	if size <= 0 {
		return io.ReadAll(body)
	}
	b := make([]byte, size)
	_, err := io.ReadFull(body, b)
	return b, err
}

// reject answers a request with an error at once and closes its
// connection. net/http would otherwise read what remains of the body,
// before answering and again after the handler returns, for as long as
// the client takes to send it: the read deadline set in the past makes
// those reads fail at once (the answer is sent before them).
func (g *guard) reject(w http.ResponseWriter, r *http.Request, code int, msg string, attrs ...any) {
	attrs = append(attrs, "status", code, "method", r.Method, "path", r.URL.Path, "remote", r.RemoteAddr)
	g.log.Info("http request rejected", attrs...)
	w.Header().Set("Connection", "close")
	http.Error(w, msg, code)
	http.NewResponseController(w).SetReadDeadline(time.Unix(1, 0))
}

// hostAllowed applies the Host rule: only requests that arrive on a
// loopback address are checked.
func (g *guard) hostAllowed(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || local == nil {
		return true
	}
	ap, err := netip.ParseAddrPort(local.String())
	if err != nil || !ap.Addr().Unmap().IsLoopback() {
		return true
	}
	host := stripPort(r.Host)
	return isLoopbackHost(host) || g.hosts[strings.ToLower(host)]
}

// originAllowed applies the Origin rule to a non-empty Origin header. An
// origin with userinfo ("http://evil.example@localhost") is never
// allowed: browsers do not send one.
//
// The rule is not http.CrossOriginProtection's, which lets through what
// it holds: GET requests (a GET opens an SSE session, an event stream,
// or reads the metrics), a Sec-Fetch-Site of same-origin, and an Origin
// whose host is the request's Host; and its trusted origins are exact,
// where every port of a loopback origin is allowed here
// (TestHTTPOriginBeyondCrossOriginProtection).
func (g *guard) originAllowed(origin string) bool {
	if strings.Contains(origin, "@") {
		return false
	}
	if g.anyOrigin || g.origins[normalizeOrigin(origin)] {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false
	}
	return isLoopbackHost(u.Hostname())
}

// authorized reports whether r carries the bearer token.
func (g *guard) authorized(r *http.Request) bool {
	scheme, tok, ok := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	// Hashing first makes the comparison constant-time in the token's
	// length too.
	sum := sha256.Sum256([]byte(strings.TrimSpace(tok)))
	return subtle.ConstantTimeCompare(sum[:], g.token) == 1
}

// normalizeOrigin lower-cases an origin and drops a trailing slash.
func normalizeOrigin(o string) string {
	return strings.TrimSuffix(strings.ToLower(strings.TrimSpace(o)), "/")
}

// stripPort returns the host of "host:port", "[v6]:port", "[v6]" or
// "host".
func stripPort(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.TrimSuffix(strings.TrimPrefix(hostport, "["), "]")
}
