// Package server serves a CLImax tool set over MCP (go-sdk): discovery or
// classic mode, over stdio or streamable HTTP.
package server
