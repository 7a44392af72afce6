package server

import (
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sessionIDHeader is the header of streamable HTTP that carries a
// session's id.
const sessionIDHeader = "Mcp-Session-Id"

// sessionCap counts the live sessions of one HTTP handler against its
// limit.
type sessionCap struct {
	max int // <= 0: no limit

	mu sync.Mutex
	n  int // reserved slots: sessions live or being opened
}

// newSessionCap returns a cap of max sessions (0: DefaultMaxSessions,
// negative: none).
func newSessionCap(max int) *sessionCap {
	if max == 0 {
		max = DefaultMaxSessions
	}
	return &sessionCap{max: max}
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
// there is no such session (the request failed, or opened none).
func (c *sessionCap) track(srv *mcp.Server, id string) {
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
		c.release()
		return
	}
	go func() {
		ss.Wait() // closed by the client (DELETE), the idle timeout or the server
		c.release()
	}()
}
