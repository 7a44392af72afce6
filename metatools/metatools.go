// Package metatools implements the two progressive-discovery meta-tools,
// climax_search and climax_call, as transport-free Go: their definitions,
// a search that returns the contract's JSON, and a call that looks a tool
// up and runs it through the executor.
package metatools

import (
	"context"
	"encoding/json"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index"
)

// Names of the meta-tools.
const (
	SearchName = "climax_search"
	CallName   = "climax_call"
)

// Definition is a tool as tools/list shows it.
type Definition struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// Definitions returns the definitions of climax_search and climax_call, in
// that order, exactly as the contract gives them.
//
// STUB: to be replaced by the server issue.
func Definitions() []Definition { return nil }

// Tools answers meta-tool calls against one index.
type Tools struct {
	ix     *index.Index
	runner *executor.Runner
}

// New returns the meta-tools for ix, running commands with runner.
func New(ix *index.Index, runner *executor.Runner) *Tools {
	return &Tools{ix: ix, runner: runner}
}

// Search answers climax_search. args holds the JSON-decoded arguments (nil
// means none).
//
// STUB: to be replaced by the server issue.
func (t *Tools) Search(args map[string]any) executor.Outcome {
	return executor.Outcome{Text: "not implemented", IsError: true}
}

// Call answers climax_call: it looks the tool up and runs it through the
// executor.
//
// STUB: to be replaced by the server issue.
func (t *Tools) Call(ctx context.Context, args map[string]any) executor.Outcome {
	return executor.Outcome{Text: "not implemented", IsError: true}
}
