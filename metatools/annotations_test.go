package metatools_test

import (
	"encoding/json"
	"testing"

	"github.com/climax-mcp/climax/metatools"
)

// DefinitionsFor only adds annotations: names, descriptions and input
// schemas stay those of Definitions.
func TestDefinitionsForKeepsTheContract(t *testing.T) {
	ix := build(t, `command: x
tools:
  - {name: x_show, description: d, read_only: true}
`)
	defs, plain := metatools.DefinitionsFor(ix), metatools.Definitions()
	for i := range plain {
		if defs[i].Name != plain[i].Name || defs[i].Description != plain[i].Description || string(defs[i].InputSchema) != string(plain[i].InputSchema) {
			t.Errorf("definition %d changed: %+v", i, defs[i])
		}
	}
	got, _ := json.Marshal([]*metatools.Annotations{defs[0].Annotations, defs[1].Annotations})
	if want := `[{"readOnlyHint":true,"openWorldHint":false},{"readOnlyHint":true}]`; string(got) != want {
		t.Errorf("annotations = %s, want %s", got, want)
	}
	if plain[0].Annotations != nil || plain[1].Annotations != nil {
		t.Error("Definitions has annotations")
	}
}

func TestClassicDefinitionAnnotations(t *testing.T) {
	ix := build(t, `command: x
tools:
  - {name: x_drop, description: d, destructive: true, idempotent: true, open_world: false}
  - {name: x_plain, description: d}
`)
	defs := metatools.ClassicDefinitions(ix)
	got, _ := json.Marshal(defs[0].Annotations)
	if want := `{"destructiveHint":true,"idempotentHint":true,"openWorldHint":false}`; string(got) != want {
		t.Errorf("x_drop annotations = %s, want %s", got, want)
	}
	if defs[1].Annotations != nil {
		t.Errorf("x_plain annotations = %+v, want none", defs[1].Annotations)
	}
}
