package server_test

import (
	"encoding/json"
	"testing"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
	"github.com/climax-mcp/climax/server"
)

// listAnnotations serves one tools/list over stdio and returns each tool's
// "annotations" as sent ("" when absent), by name.
func listAnnotations(t *testing.T, yaml string, classic bool) map[string]string {
	t.Helper()
	cfg, err := config.Parse([]byte(yaml), "x.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ix, _, err := index.New([]*config.Config{cfg}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := serveLines(t, server.New(ix, executor.New(), server.WithClassic(classic)), initialize, initialized, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	var list struct {
		Tools []struct {
			Name        string          `json:"name"`
			Annotations json.RawMessage `json:"annotations"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(got["2"].Result, &list); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, tool := range list.Tools {
		out[tool.Name] = string(tool.Annotations)
	}
	return out
}

// Classic mode sends each tool's annotations as MCP ToolAnnotations, and
// none for a tool whose config sets none. (go-sdk always writes
// readOnlyHint and idempotentHint once there are annotations.)
func TestClassicAnnotations(t *testing.T) {
	got := listAnnotations(t, `command: x
tools:
  - {name: x_show, description: d, read_only: true, idempotent: true}
  - {name: x_drop, description: d, destructive: true, open_world: false}
  - {name: x_add, description: d, read_only: false, destructive: false}
  - {name: x_plain, description: d}
`, true)
	want := map[string]string{
		"x_show":  `{"idempotentHint":true,"readOnlyHint":true}`,
		"x_drop":  `{"destructiveHint":true,"idempotentHint":false,"openWorldHint":false,"readOnlyHint":false}`,
		"x_add":   `{"destructiveHint":false,"idempotentHint":false,"readOnlyHint":false}`,
		"x_plain": ``,
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s annotations = %s, want %s", name, got[name], w)
		}
	}
}

// climax_search is read-only and closed-world; climax_call is read-only
// exactly when every tool is, not destructive when no tool may destroy,
// and left to MCP's defaults otherwise.
func TestMetaToolAnnotations(t *testing.T) {
	const search = `{"idempotentHint":false,"openWorldHint":false,"readOnlyHint":true}`
	tests := []struct {
		name, tools, call string
	}{
		{"every tool read-only", "  - {name: a, description: d, read_only: true}\n  - {name: b, description: d, read_only: true}\n",
			`{"idempotentHint":false,"readOnlyHint":true}`},
		{"none destructive", "  - {name: a, description: d, read_only: true}\n  - {name: b, description: d, destructive: false}\n",
			`{"destructiveHint":false,"idempotentHint":false,"readOnlyHint":false}`},
		{"one without annotations", "  - {name: a, description: d, read_only: true}\n  - {name: b, description: d}\n", ``},
		{"one destructive", "  - {name: a, description: d, destructive: false}\n  - {name: b, description: d, destructive: true}\n", ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := listAnnotations(t, "command: x\ntools:\n"+tt.tools, false)
			if got["climax_search"] != search {
				t.Errorf("climax_search annotations = %s, want %s", got["climax_search"], search)
			}
			if got["climax_call"] != tt.call {
				t.Errorf("climax_call annotations = %s, want %s", got["climax_call"], tt.call)
			}
		})
	}
}
