package index_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
)

// Search results carry a tool's annotations flat, and only those its
// config sets.
func TestEntryAnnotations(t *testing.T) {
	cfg, err := config.Parse([]byte(`command: x
tools:
  - {name: x_show, description: d, read_only: true}
  - {name: x_drop, description: d, destructive: true, idempotent: false, open_world: false}
  - {name: x_plain, description: d}
`), "x.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ix, _, err := index.New([]*config.Config{cfg}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`"cli_name":"climax","read_only":true,"input_schema"`,
		`"cli_name":"climax","destructive":true,"idempotent":false,"open_world":false,"input_schema"`,
		`"cli_name":"climax","input_schema"`,
	}
	for i, e := range ix.Entries() {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), want[i]) {
			t.Errorf("%s: %s\nwant it to contain %s", e.ToolName, b, want[i])
		}
	}
}
