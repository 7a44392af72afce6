package main

import (
	"fmt"
	"os"

	"golang.org/x/term"
)

// stdioNotice prints one line on stderr when a stdio server starts with
// both stdin and stderr on a terminal: a person ran climax by hand, and
// would otherwise see nothing at all while it waits for an MCP client's
// messages. Nothing is printed when an MCP client starts climax (its stdin
// is a pipe), and never anything on stdout, which is the protocol's.
func stdioNotice(e *env, tools int, mode string) {
	if !isTerminal(e.stdin) || !isTerminal(e.stderr) {
		return
	}
	fmt.Fprintf(e.stderr, "climax: serving %d %s (%s mode) over stdio: waiting for an MCP client's JSON-RPC on stdin; Ctrl-D or Ctrl-C stops (MCP clients start climax themselves: README.md, Use it from an MCP client)\n", tools, plural(tools, "tool", "tools"), mode)
}

// isTerminal reports whether v is a file open on a terminal.
func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
