package config_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/index/config"
)

func TestInputSchema(t *testing.T) {
	tests := []struct {
		name string
		tool config.Tool
		want string
	}{
		{
			name: "no args",
			tool: config.Tool{Name: "t"},
			want: `{"type":"object","properties":{}}`,
		},
		{
			name: "properties keep definition order",
			tool: config.Tool{Args: []config.Arg{{Name: "zeta"}, {Name: "alpha"}, {Name: "mid"}}},
			want: `{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"string"},"mid":{"type":"string"}}}`,
		},
		{
			name: "type, description, default, enum, required",
			tool: config.Tool{Args: []config.Arg{
				{Name: "format", Type: config.TypeString, Description: "Output format", Default: "json", Enum: []string{"json", "text"}},
				{Name: "count", Type: config.TypeInteger, Default: 10, Required: true},
				{Name: "ratio", Type: config.TypeNumber, Default: 0.5},
				{Name: "all", Type: config.TypeBoolean, Default: false},
				{Name: "zero", Type: config.TypeInteger, Default: 0},
				{Name: "path", Required: true, Positional: true, Flag: "ignored-in-schema"},
			}},
			want: `{"type":"object","properties":{` +
				`"format":{"type":"string","description":"Output format","default":"json","enum":["json","text"]},` +
				`"count":{"type":"integer","default":10},` +
				`"ratio":{"type":"number","default":0.5},` +
				`"all":{"type":"boolean","default":false},` +
				`"zero":{"type":"integer","default":0},` +
				`"path":{"type":"string"}},` +
				`"required":["count","path"]}`,
		},
		{
			name: "arrays: items type, enum on the items, list default",
			tool: config.Tool{Args: []config.Arg{
				{Name: "paths", Type: config.TypeArray, Required: true},
				{Name: "lines", Type: config.TypeArray, Items: config.TypeInteger, Default: []any{1, 2}},
				{Name: "modes", Type: config.TypeArray, Enum: []string{"a", "b"}, Description: "Modes"},
			}},
			want: `{"type":"object","properties":{` +
				`"paths":{"type":"array","items":{"type":"string"}},` +
				`"lines":{"type":"array","items":{"type":"integer"},"default":[1,2]},` +
				`"modes":{"type":"array","items":{"type":"string","enum":["a","b"]},"description":"Modes"}},` +
				`"required":["paths"]}`,
		},
		{
			name: "names are escaped",
			tool: config.Tool{Args: []config.Arg{{Name: `a"b<c>`}}},
			want: `{"type":"object","properties":{"a\"b<c>":{"type":"string"}}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.tool.InputSchema().JSON()
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("schema\n got %s\nwant %s", got, tt.want)
			}
			if !json.Valid(got) {
				t.Errorf("invalid JSON %s", got)
			}
		})
	}
}

// Schemas of loaded configs: defaults as typed values, global args left
// out (callers do not set them).
func TestInputSchemaFromYAML(t *testing.T) {
	c, err := config.Parse([]byte(`command: git
global_args:
  - {name: vault, flag: "vault=", default: "$V"}
tools:
  - name: git_log
    description: Show log
    args:
      - {name: max_count, type: integer, default: "10", description: Limit}
      - {name: oneline, type: boolean, default: true}
      - {name: tail, default: 50}
`), "git.yaml")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(c.Tools[0].InputSchema())
	want := `{"type":"object","properties":{"max_count":{"type":"integer","description":"Limit","default":10},"oneline":{"type":"boolean","default":true},"tail":{"type":"string","default":"50"}}}`
	if string(got) != want {
		t.Errorf("schema\n got %s\nwant %s", got, want)
	}
}

// FuzzSchemaJSON checks that Schema.JSON, which writes the JSON directly,
// gives what encoding/json gives without HTML escaping, for any text in
// names, descriptions, enums and defaults.
func FuzzSchemaJSON(f *testing.F) {
	f.Add("name", "A <b> & \"c\"\n\t\\", "x", "json", uint8(0), int64(0), 0.0)
	f.Add("\u2028", "\x00\x1f\x7f\xff\xfe", "\u2029é", "", uint8(1), int64(-7), 1.5)
	f.Add("", "", "", "bad \xc3", uint8(3), int64(1<<40), 1e21)
	f.Fuzz(func(t *testing.T, name, desc, enum, def string, kind uint8, n int64, x float64) {
		var d any
		switch kind % 6 {
		case 1:
			d = def
		case 2:
			d = kind%2 == 0
		case 3:
			d = int(n)
		case 4:
			d = x
		case 5:
			d = n
		}
		if x != x || x > 1e308 || x < -1e308 { // NaN and infinities are no JSON
			d = nil
		}
		s := config.Schema{Type: "object", Properties: config.Properties{
			{Name: name, Type: config.TypeString, Description: desc, Default: d, Enum: []string{enum, def}},
			{Name: def, Type: config.ArgType(enum)},
			{Name: "list", Type: config.TypeArray, Items: &config.Items{Type: config.ArgType(desc), Enum: []string{name}}},
			{Name: "list2", Type: config.TypeArray, Items: &config.Items{Type: config.TypeString}, Default: []any{def, n, kind%2 == 0}},
		}}
		if kind%2 == 1 {
			s.Required = []string{name, desc}
		}
		got, err := s.JSON()
		if err != nil {
			t.Fatal(err)
		}
		if want := referenceSchemaJSON(t, s); string(got) != want {
			t.Errorf("JSON\n got %s\nwant %s", got, want)
		}
	})
}

// referenceSchemaJSON encodes s with encoding/json, HTML escaping off.
func referenceSchemaJSON(t *testing.T, s config.Schema) string {
	type property struct {
		Type        config.ArgType `json:"type"`
		Items       *config.Items  `json:"items,omitempty"`
		Description string         `json:"description,omitempty"`
		Default     any            `json:"default,omitempty"`
		Enum        []string       `json:"enum,omitempty"`
	}
	enc := func(v any) string {
		var b strings.Builder
		e := json.NewEncoder(&b)
		e.SetEscapeHTML(false)
		if err := e.Encode(v); err != nil {
			t.Fatal(err)
		}
		return strings.TrimSuffix(b.String(), "\n")
	}
	var b strings.Builder
	b.WriteString(`{"type":` + enc(s.Type) + `,"properties":{`)
	for i, p := range s.Properties {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(enc(p.Name) + ":" + enc(property{p.Type, p.Items, p.Description, p.Default, p.Enum}))
	}
	b.WriteByte('}')
	if len(s.Required) > 0 {
		b.WriteString(`,"required":` + enc(s.Required))
	}
	b.WriteByte('}')
	return b.String()
}
