package server

import (
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCP gives the tests the go-sdk server, to connect in-memory transports.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// WithProgressTicker replaces the clock of progress notifications: each
// call with a progress token calls start, sends a notification for every
// value received from its channel and calls the returned stop function
// when it ends.
func WithProgressTicker(start func() (<-chan time.Time, func())) Option {
	return func(c *options) { c.ticker = start }
}

// CallOutcome is callOutcome, the outcome label of a call.
var CallOutcome = callOutcome

// LooksSecret is looksSecret.
var LooksSecret = looksSecret

// Limits of the audit log.
const (
	MaxAuditRecord = maxAuditRecord
	MaxAuditQueue  = maxAuditQueue
)

// MaxItems is the limit of array items and object members in one message.
const MaxItems = maxItems

// JSONShape is jsonShape.
var JSONShape = jsonShape
