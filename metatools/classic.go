package metatools

import (
	"encoding/json"
	"math"

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

// bytesPerToken converts the JSON size of tool definitions into an
// estimate of their tokens. Calibrated on the bundled configs against
// cl100k_base counts of the tools/list result climax sends (go run
// ./benchmark prints both): their ratios lie between 4.2 and 4.9 bytes per
// token, so 4.5 overestimates large lists by a few per cent rather than
// underestimating them.
const bytesPerToken = 4.5

// listOverhead is what the tools/list result adds around the definitions
// ({"tools":[...]} and go-sdk's own fields), in bytes.
const listOverhead = 42

// EstimateTokens estimates the tokens a client's model spends on a
// tools/list result holding defs, from their serialised size. It is
// within about 10 % of a cl100k_base count for the bundled configs, and
// costs a marshal instead of a tokenizer.
func EstimateTokens(defs []Definition) int {
	data, err := json.Marshal(defs)
	if err != nil {
		return 0
	}
	return int(math.Ceil(float64(len(data)+listOverhead) / bytesPerToken))
}
