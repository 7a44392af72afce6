package server

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sessionIDHeader is the header of streamable HTTP that carries a
// session's id.
const sessionIDHeader = "Mcp-Session-Id"

// sessionCap counts the live sessions of one HTTP handler against its
// limit, and knows how to end the pending approval questions of each live
// stateful session (see sessionEndKey).
type sessionCap struct {
	max int // <= 0: no limit

	mu   sync.Mutex
	n    int                                // reserved slots: sessions live or being opened
	ends map[string]context.CancelCauseFunc // session id -> ends its questions
}

// newSessionCap returns a cap of max sessions (0: DefaultMaxSessions,
// negative: none).
func newSessionCap(max int) *sessionCap {
	if max == 0 {
		max = DefaultMaxSessions
	}
	return &sessionCap{max: max, ends: map[string]context.CancelCauseFunc{}}
}

// reserve takes a slot for a session about to be opened, and reports
// whether one was free.
func (c *sessionCap) reserve() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.max > 0 && c.n >= c.max {
		return false
	}
	c.n++
	return true
}

// release frees a slot.
func (c *sessionCap) release() {
	c.mu.Lock()
	c.n--
	c.mu.Unlock()
}

// track keeps the slot reserved for the request that may have opened
// session id on srv for as long as that session lives, or frees it when
// there is no such session (the request failed, or opened none). end ends
// the session's pending approval questions: [sessionCap.closing] calls it,
// and so does the end of the session.
func (c *sessionCap) track(srv *mcp.Server, id string, end context.CancelCauseFunc) {
	var ss *mcp.ServerSession
	if id != "" {
		for s := range srv.Sessions() {
			if s.ID() == id {
				ss = s
				break
			}
		}
	}
	if ss == nil {
		end(errSessionClosed)
		c.release()
		return
	}
	c.mu.Lock()
	c.ends[id] = end
	c.mu.Unlock()
	go func() {
		ss.Wait() // closed by the client (DELETE), the idle timeout or the server
		c.mu.Lock()
		delete(c.ends, id)
		c.mu.Unlock()
		end(errSessionClosed)
		c.release()
	}()
}

// closing ends the pending approval questions of session id, which the
// client is closing: go-sdk waits for the session's calls to return before
// it closes a session, and a call waiting for an answer that cannot come
// would hold it open until the question times out.
func (c *sessionCap) closing(id string) {
	c.mu.Lock()
	end := c.ends[id]
	c.mu.Unlock()
	if end != nil {
		end(errSessionClosed)
	}
}
