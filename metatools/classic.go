package metatools

import (
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
)

// toolDefinition returns rt as classic mode lists it in tools/list: its
// name, its (policy-overridden) description and its input schema.
func toolDefinition(rt *config.ResolvedTool) Definition {
	return Definition{Name: rt.Tool.Name, Description: rt.Tool.Description, InputSchema: rt.Schema}
}

// ClassicDefinitions returns the classic-mode tools/list of ix: every tool
// in load order.
func ClassicDefinitions(ix *index.Index) []Definition {
	defs := make([]Definition, 0, ix.Len())
	for _, rt := range ix.Tools() {
		defs = append(defs, toolDefinition(rt))
	}
	return defs
}
