package metatools

import (
	"encoding/json"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
)

// toolDefinition returns rt as classic mode lists it in tools/list: its
// name, its (policy-overridden) description, its input schema, the
// annotations its config sets (read_only as readOnlyHint, destructive as
// destructiveHint, idempotent as idempotentHint, open_world as
// openWorldHint; none set gives no annotations), and, when the tool has
// keywords, _meta {"anthropic/searchHint": "..."} made of them, so that a
// client's own tool search finds it by them too.
func toolDefinition(rt *config.ResolvedTool) Definition {
	d := Definition{Name: rt.Tool.Name, Description: rt.Tool.Description, InputSchema: rt.Schema, Annotations: toolAnnotations(rt.Tool)}
	if hint := SearchHint(rt.Tool.Keywords); hint != "" {
		d.Meta = map[string]any{MetaSearchHint: hint}
	}
	return d
}

// maxHint is the longest search hint made of keywords, in bytes: enough
// for the first two or three, without growing the classic tools/list much.
const maxHint = 48

// SearchHint returns a tool's keywords as a search hint: the first ones,
// whole, separated by ", ", at most maxHint bytes (at least the first
// keyword, cut at a rune boundary when it alone is longer); "" for none.
func SearchHint(keywords []string) string {
	var b strings.Builder
	for _, k := range keywords {
		k = strings.Join(strings.Fields(k), " ")
		if k == "" {
			continue
		}
		if b.Len() > 0 {
			if b.Len()+2+len(k) > maxHint {
				break
			}
			b.WriteString(", ")
		}
		b.WriteString(k)
	}
	s := b.String()
	if len(s) > maxHint {
		s = s[:maxHint]
		for !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
	}
	return s
}

// toolAnnotations returns the MCP annotations a tool's config sets, or nil
// when it sets none.
func toolAnnotations(t *config.Tool) *Annotations {
	a := Annotations{ReadOnlyHint: t.ReadOnly, DestructiveHint: t.Destructive, IdempotentHint: t.Idempotent, OpenWorldHint: t.OpenWorld}
	if a == (Annotations{}) {
		return nil
	}
	return &a
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
