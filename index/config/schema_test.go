package config_test

import (
	"encoding/json"
	"slices"
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
			name: "a cwd arg without a description gets the common one",
			tool: config.Tool{Args: []config.Arg{
				{Name: "dir", Cwd: true},
				{Name: "where", Cwd: true, Description: "Directory output is relative to"},
			}},
			want: `{"type":"object","properties":{` +
				`"dir":{"type":"string","description":"` + config.CwdDescription + `"},` +
				`"where":{"type":"string","description":"Directory output is relative to"}}}`,
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

// A json arg takes any JSON value: its schema has no type, and its
// default is the YAML value as JSON.
func TestInputSchemaJSONArg(t *testing.T) {
	c, err := config.Parse([]byte(`command: jq
tools:
  - name: jq_query
    description: Query
    args:
      - {name: vars, type: json, default: {a: [1, "x", true]}, description: Variables}
      - {name: body, type: json, stdin: true}
      - {name: n, type: json, default: 2.5}
      - {name: s, type: json, default: "{}"}
`), "jq.yaml")
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Tools[0].InputSchema().JSON()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"object","properties":{"vars":{"description":"Variables","default":{"a":[1,"x",true]}},"body":{},"n":{"default":2.5},"s":{"default":"{}"}}}`
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
	f.Add("1.5", "number", "integer", "12", uint8(4), int64(3), 0.5)
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
	type items struct {
		Type config.ArgType `json:"type"`
		Enum []any          `json:"enum,omitempty"`
	}
	type property struct {
		Type        config.ArgType `json:"type"`
		Items       *items         `json:"items,omitempty"`
		Description string         `json:"description,omitempty"`
		Default     any            `json:"default,omitempty"`
		Enum        []any          `json:"enum,omitempty"`
	}
	// Enum values of integer and number properties are numbers when in
	// canonical form.
	enum := func(typ config.ArgType, values []string) []any {
		var out []any
		for _, v := range values {
			if (typ == config.TypeInteger || typ == config.TypeNumber) && config.IsCanonicalNumber(v) {
				out = append(out, json.Number(v))
			} else {
				out = append(out, v)
			}
		}
		return out
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
		var it *items
		if p.Items != nil {
			it = &items{p.Items.Type, enum(p.Items.Type, p.Items.Enum)}
		}
		b.WriteString(enc(p.Name) + ":" + enc(property{p.Type, it, p.Description, p.Default, enum(p.Type, p.Enum)}))
	}
	b.WriteByte('}')
	if len(s.Required) > 0 {
		b.WriteString(`,"required":` + enc(s.Required))
	}
	b.WriteByte('}')
	return b.String()
}

// Integer and number enums are kept in the form calls are compared in,
// and listed as numbers in the schema.
func TestNumericEnums(t *testing.T) {
	c, err := config.Parse([]byte(`command: x
tools:
  - name: t
    description: d
    args:
      - {name: i, type: integer, enum: ["+1", "010", 2]}
      - {name: f, type: number, enum: [0.5, 1.0, 1e2], default: 1.0}
      - {name: l, type: array, items: integer, enum: [1, 2]}
      - {name: s, enum: ["1.0", "01"]}
`), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	args := c.Tools[0].Args
	for i, want := range [][]string{{"1", "10", "2"}, {"0.5", "1", "100"}, {"1", "2"}, {"1.0", "01"}} {
		if got := args[i].Enum; !slices.Equal(got, want) {
			t.Errorf("arg %s: enum %q, want %q", args[i].Name, got, want)
		}
	}
	got, _ := json.Marshal(c.Tools[0].InputSchema())
	for _, want := range []string{`"enum":[1,10,2]`, `"enum":[0.5,1,100]`, `"items":{"type":"integer","enum":[1,2]}`, `"enum":["1.0","01"]`} {
		if !strings.Contains(string(got), want) {
			t.Errorf("schema lacks %s:\n%s", want, got)
		}
	}
	if _, err := config.Parse([]byte("command: x\ntools:\n  - name: t\n    description: d\n    args:\n      - {name: f, type: number, enum: [1, 1.0]}\n"), "t.yaml"); err == nil || !strings.Contains(err.Error(), `enum lists "1" twice`) {
		t.Errorf("1 and 1.0 in a number enum: %v", err)
	}
}
