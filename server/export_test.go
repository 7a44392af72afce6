package server

import "github.com/modelcontextprotocol/go-sdk/mcp"

// MCP gives the tests the go-sdk server, to connect in-memory transports.
func (s *Server) MCP() *mcp.Server { return s.mcp }
