package server

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A lifetime tracks the MCP requests (tool calls above all) served through
// one HTTP handler, or one stdio session, so that shutdown can cancel them
// and wait for them.
type lifetime struct {
	ctx   context.Context // done when the handler is shutting down
	stop  context.CancelFunc
	calls inflight

	// requests maps the key the guard gives each streamable HTTP request
	// (requestKeyHeader) to that request's context, while it is served.
	requests sync.Map
	lastKey  atomic.Uint64
}

func newLifetime(parent context.Context) *lifetime {
	ctx, stop := context.WithCancel(parent)
	return &lifetime{ctx: ctx, stop: stop}
}

// end cancels the calls running under l, and those to come.
func (l *lifetime) end() { l.stop() }

// requestKeyHeader is the header by which the guard names each streamable
// HTTP request it passes on (replacing any value a client sent), so that
// the MCP requests it carries can find its context: go-sdk gives handlers
// the HTTP request's header, not its context (its PropagateRequestCancellation,
// issue 1093, covers stateless requests of protocol 2026-07-28 only).
// TestUpstreamHandlerOutlivesItsRequest fails once go-sdk cancels a
// handler whose POST went away; then this header can go.
const requestKeyHeader = "Climax-Request-Key"

// addRequest registers the context of an HTTP request being served and
// returns its key.
func (l *lifetime) addRequest(ctx context.Context) string {
	key := strconv.FormatUint(l.lastKey.Add(1), 10)
	l.requests.Store(key, ctx)
	return key
}

// removeRequest forgets a request that has been served.
func (l *lifetime) removeRequest(key string) { l.requests.Delete(key) }

// requestContext returns the context of the HTTP request that carried
// req, and whether req came over streamable HTTP. A nil context means
// that request is over: its client can no longer receive the result.
func (l *lifetime) requestContext(req mcp.Request) (context.Context, bool) {
	extra := req.GetExtra()
	if extra == nil || extra.Header == nil {
		return nil, false
	}
	key := extra.Header.Get(requestKeyHeader)
	if key == "" {
		return nil, false
	}
	if ctx, ok := l.requests.Load(key); ok {
		return ctx.(context.Context), true
	}
	return nil, true
}

// inflight counts things in progress. The zero value is ready.
type inflight struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n drops to 0; nil: not created yet
}

func (f *inflight) enter() {
	f.mu.Lock()
	if f.n == 0 {
		f.idle = make(chan struct{})
	}
	f.n++
	f.mu.Unlock()
}

func (f *inflight) leave() {
	f.mu.Lock()
	f.n--
	if f.n == 0 {
		close(f.idle)
	}
	f.mu.Unlock()
}

// wait reports whether the count was or dropped to zero within d.
func (f *inflight) wait(d time.Duration) bool {
	f.mu.Lock()
	n, idle := f.n, f.idle
	f.mu.Unlock()
	if n == 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-idle:
		return true
	case <-t.C:
		return false
	}
}

// lifetimeMiddleware ties each MCP request to the lifetime of the HTTP
// handler or stdio session that serves it: the request's context is
// cancelled when the server shuts down, and shutdown waits for the request
// to return. go-sdk detaches request handlers from the HTTP request's
// cancellation, but keeps its values. A tool call that came in a
// streamable HTTP POST is also cancelled when that POST ends before the
// call does: its client is gone. Requests without a lifetime pass through.
func lifetimeMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		lt := infoFrom(ctx).lt
		if lt == nil {
			return next(ctx, method, req)
		}
		lt.calls.enter()
		defer lt.calls.leave()
		ctx, cancel := context.WithCancelCause(ctx)
		defer cancel(nil)
		stop := context.AfterFunc(lt.ctx, func() { cancel(errShuttingDown) })
		defer stop()
		if method == "tools/call" {
			if rctx, overHTTP := lt.requestContext(req); overHTTP {
				if rctx == nil {
					cancel(errClientGone)
				} else {
					stop := context.AfterFunc(rctx, func() { cancel(errClientGone) })
					defer stop()
				}
			}
		}
		return next(ctx, method, req)
	}
}

var (
	// errShuttingDown is the cause of the cancellation of calls at
	// shutdown.
	errShuttingDown = errors.New("server shutting down")
	// errClientGone is the cause of the cancellation of a call whose HTTP
	// request ended before it did.
	errClientGone = errors.New("the client went away: its HTTP request was closed")
)
