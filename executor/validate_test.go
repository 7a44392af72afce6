package executor_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index"
)

func tool(args ...index.Arg) *index.ResolvedTool {
	return &index.ResolvedTool{
		Tool: &index.Tool{Name: "t", Args: args, Timeout: 5},
		CLI:  &index.Config{Name: "cli", Command: "prog"},
	}
}

// withPolicy resolves a one-tool config through index.New so that the
// constraints are compiled as in production.
func withPolicy(t *testing.T, cons map[string]index.Constraint, args ...index.Arg) *index.ResolvedTool {
	t.Helper()
	cfg := &index.Config{Name: "cli", Command: "prog", Tools: []index.Tool{{Name: "t", Args: args, Timeout: 5}}}
	ix, _, err := index.New([]*index.Config{cfg}, &index.Policy{
		Default: index.PolicyDisabled,
		Tools:   map[string]index.ToolPolicy{"t": {Args: cons}},
	})
	if err != nil {
		t.Fatal(err)
	}
	rt, ok := ix.Get("t")
	if !ok {
		t.Fatal("tool not enabled")
	}
	return rt
}

func ptr(f float64) *float64 { return &f }

func TestCoerce(t *testing.T) {
	t.Parallel()
	tests := []struct {
		typ  index.ArgType
		in   any
		want any // nil: error expected
		err  string
	}{
		{index.TypeInteger, "42", int64(42), ""},
		{index.TypeInteger, " -7 ", int64(-7), ""},
		{index.TypeInteger, "42.0", int64(42), ""},
		{index.TypeInteger, 42.0, int64(42), ""},
		{index.TypeInteger, json.Number("42"), int64(42), ""},
		{index.TypeInteger, json.Number("4.2e1"), int64(42), ""},
		{index.TypeInteger, 7, int64(7), ""},
		{index.TypeInteger, "hello", nil, "cannot convert 'hello' to integer"},
		{index.TypeInteger, 3.5, nil, "cannot convert 3.5 to integer"},
		{index.TypeInteger, "3.5", nil, "cannot convert '3.5' to integer"},
		{index.TypeInteger, 1e30, nil, "cannot convert 1000000000000000000000000000000 to integer"},
		{index.TypeInteger, "0x10", nil, "cannot convert '0x10' to integer"},
		{index.TypeInteger, true, nil, "cannot convert true to integer"},
		{index.TypeInteger, "", nil, "cannot convert '' to integer"},
		{index.TypeNumber, "3.14", 3.14, ""},
		{index.TypeNumber, "1e3", 1000.0, ""},
		{index.TypeNumber, 2.5, 2.5, ""},
		{index.TypeNumber, json.Number("2"), 2.0, ""},
		{index.TypeNumber, 3, 3.0, ""},
		{index.TypeNumber, "NaN", nil, "cannot convert 'NaN' to number"},
		{index.TypeNumber, "inf", nil, "cannot convert 'inf' to number"},
		{index.TypeNumber, "1e999", nil, "cannot convert '1e999' to number"},
		{index.TypeNumber, "pi", nil, "cannot convert 'pi' to number"},
		{index.TypeBoolean, true, true, ""},
		{index.TypeBoolean, "true", true, ""},
		{index.TypeBoolean, "False", false, ""},
		{index.TypeBoolean, "1", nil, "cannot convert '1' to boolean"},
		{index.TypeBoolean, "yes", nil, "cannot convert 'yes' to boolean"},
		{index.TypeBoolean, 1.0, nil, "cannot convert 1 to boolean"},
		{index.TypeString, "hi", "hi", ""},
		{index.TypeString, 42.0, "42", ""},
		{index.TypeString, 3.5, "3.5", ""},
		{index.TypeString, 1e21, "1000000000000000000000", ""},
		{index.TypeString, 1e-7, "0.0000001", ""},
		{index.TypeString, json.Number("1e3"), "1000", ""},
		{index.TypeString, 12, "12", ""},
		{index.TypeString, true, "true", ""},
		{"", "plain", "plain", ""},
		{index.TypeString, nil, nil, "cannot convert null to string"},
		{index.TypeString, []any{1.0, "a"}, nil, `cannot convert array [1,"a"] to string`},
		{index.TypeInteger, map[string]any{"a": 1.0}, nil, `cannot convert object {"a":1} to integer`},
		{index.TypeString, []any{strings.Repeat("x", 100)}, nil, `cannot convert array ["` + strings.Repeat("x", 38) + `... to string`},
		{"date", "x", nil, "cannot convert 'x' to date"},
	}
	for _, tt := range tests {
		got, err := executor.Coerce(tt.typ, tt.in)
		if tt.want == nil {
			if err == nil || err.Error() != tt.err {
				t.Errorf("Coerce(%s, %#v) = %#v, %v; want error %q", tt.typ, tt.in, got, err, tt.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Coerce(%s, %#v) = %#v, %v; want %#v", tt.typ, tt.in, got, err, tt.want)
		}
	}
}

func TestValidateErrors(t *testing.T) {
	t.Parallel()
	rt := tool(
		index.Arg{Name: "message", Required: true},
		index.Arg{Name: "count", Type: index.TypeInteger},
		index.Arg{Name: "format", Enum: []string{"json", "text", "csv"}},
		index.Arg{Name: "path", Positional: true},
		index.Arg{Name: "ref", Positional: true, AllowLeadingDash: true},
		index.Arg{Name: "n", Type: index.TypeInteger, Positional: true},
		index.Arg{Name: "input", Stdin: true},
	)
	tests := []struct {
		name string
		args map[string]any
		want string // "" means valid
	}{
		{"contract example", map[string]any{"count": "hello", "format": "xml"}, `Argument validation failed:
  - Missing required argument 'message'
  - Argument 'count': cannot convert 'hello' to integer
  - Argument 'format' must be one of: json, text, csv`},
		{"nil args", nil, "Argument validation failed:\n  - Missing required argument 'message'"},
		{"extra keys ignored", map[string]any{"message": "m", "unknown": []any{}}, ""},
		{"enum ok", map[string]any{"message": "m", "format": "csv"}, ""},
		{"null", map[string]any{"message": nil}, "Argument validation failed:\n  - Argument 'message': cannot convert null to string"},
		{"leading dash", map[string]any{"message": "m", "path": "--output=/etc/passwd"},
			"Argument validation failed:\n  - Argument 'path': value '--output=/etc/passwd' starts with '-' and would be read as an option; a config that means to accept such values sets allow_leading_dash: true on the argument"},
		{"negative number positional", map[string]any{"message": "m", "n": -5.0}, "Argument validation failed:\n  - Argument 'n': value '-5' starts with '-' and would be read as an option; a config that means to accept such values sets allow_leading_dash: true on the argument"},
		{"leading dash allowed", map[string]any{"message": "m", "ref": "-1"}, ""},
		{"leading dash in a flag value", map[string]any{"message": "-m"}, ""},
		{"nul", map[string]any{"message": "a\x00b"}, "Argument validation failed:\n  - Argument 'message': value contains a NUL byte, which cannot be passed to a command"},
		{"nul in stdin", map[string]any{"message": "m", "input": "a\x00b"}, ""},
	}
	for _, tt := range tests {
		_, err := executor.Validate(rt, tt.args)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

func TestValidateValues(t *testing.T) {
	t.Parallel()
	rt := tool(
		index.Arg{Name: "count", Type: index.TypeInteger, Default: 10},
		index.Arg{Name: "label", Default: 50},
		index.Arg{Name: "ratio", Type: index.TypeNumber},
		index.Arg{Name: "all", Type: index.TypeBoolean},
		index.Arg{Name: "format", Enum: []string{"1", "2"}, Default: "x"},
	)
	got, err := executor.Validate(rt, map[string]any{"ratio": "0.5", "all": "true", "ignored": 1})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"count": int64(10), "label": "50", "ratio": 0.5, "all": true, "format": "x"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v, want %#v", got, want)
	}
	// Enum values compare with the value's string form.
	rt = tool(index.Arg{Name: "level", Type: index.TypeInteger, Enum: []string{"1", "2"}})
	if _, err := executor.Validate(rt, map[string]any{"level": 2.0}); err != nil {
		t.Fatal(err)
	}
	// A default the config got wrong is reported, not run.
	rt = tool(index.Arg{Name: "count", Type: index.TypeInteger, Default: "many"})
	_, err = executor.Validate(rt, nil)
	if want := "Argument validation failed:\n  - Argument 'count': default 'many' in the config cannot be converted to integer"; err == nil || err.Error() != want {
		t.Fatalf("got %v", err)
	}
}

func TestValidatePolicy(t *testing.T) {
	t.Parallel()
	rt := withPolicy(t, map[string]index.Constraint{
		"name":      {Pattern: "^[a-z]+$"},
		"max_count": {Min: ptr(1), Max: ptr(100)},
		"ratio":     {Min: ptr(0.5)},
		"label":     {Max: ptr(10)},
		"path":      {Pattern: "src/.*"},
	},
		index.Arg{Name: "name"},
		index.Arg{Name: "max_count", Type: index.TypeInteger, Default: 10},
		index.Arg{Name: "ratio", Type: index.TypeNumber},
		index.Arg{Name: "label"},
		index.Arg{Name: "path"},
		index.Arg{Name: "required", Required: true},
	)
	tests := []struct {
		name string
		args map[string]any
		want string
	}{
		{"valid", map[string]any{"required": "r", "name": "abc", "max_count": 100.0, "ratio": 0.5, "label": "7", "path": "src/a"}, ""},
		{"pattern", map[string]any{"required": "r", "name": "INVALID123"},
			"Policy validation failed:\n  - Argument 'name': value 'INVALID123' does not match pattern '^[a-z]+$'"},
		{"whole value", map[string]any{"required": "r", "path": "x/src/a"},
			"Policy validation failed:\n  - Argument 'path': value 'x/src/a' does not match pattern 'src/.*'"},
		{"bounds", map[string]any{"required": "r", "max_count": "500", "ratio": 0.25, "label": "abc"}, `Policy validation failed:
  - Argument 'max_count': value 500 is above maximum 100
  - Argument 'ratio': value 0.25 is below minimum 0.5
  - Argument 'label': value 'abc' is not a number, but the policy sets numeric bounds`},
		{"below", map[string]any{"required": "r", "max_count": 0.0}, "Policy validation failed:\n  - Argument 'max_count': value 0 is below minimum 1"},
		{"argument errors first", map[string]any{"name": "INVALID123"}, "Argument validation failed:\n  - Missing required argument 'required'"},
	}
	for _, tt := range tests {
		_, err := executor.Validate(rt, tt.args)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

func ExampleValidate() {
	rt := &index.ResolvedTool{
		Tool: &index.Tool{Name: "log", Args: []index.Arg{
			{Name: "count", Type: index.TypeInteger},
			{Name: "all", Type: index.TypeBoolean},
			{Name: "format", Enum: []string{"json", "text"}, Default: "text"},
		}},
		CLI: &index.Config{Command: "prog"},
	}
	values, err := executor.Validate(rt, map[string]any{"count": "42", "all": "true"})
	fmt.Println(values["count"], values["all"], values["format"], err)

	_, err = executor.Validate(rt, map[string]any{"count": "hello", "format": "xml"})
	fmt.Println(err)
	// Output:
	// 42 true text <nil>
	// Argument validation failed:
	//   - Argument 'count': cannot convert 'hello' to integer
	//   - Argument 'format' must be one of: json, text
}

func FuzzCoerce(f *testing.F) {
	for _, s := range []string{"42", "3.14", "true", "-0", "1e308", "0x1p3", "NaN", "", "\xff", "9223372036854775808"} {
		f.Add(s, 0.0, uint8(0))
	}
	f.Add("", 4.2e1, uint8(1))
	types := []index.ArgType{index.TypeString, index.TypeInteger, index.TypeNumber, index.TypeBoolean}
	f.Fuzz(func(t *testing.T, s string, x float64, kind uint8) {
		var in any = s
		switch kind % 3 {
		case 1:
			in = x
		case 2:
			in = json.Number(s)
		}
		for _, typ := range types {
			v, err := executor.Coerce(typ, in)
			if err != nil {
				continue
			}
			var ok bool
			switch typ {
			case index.TypeString:
				_, ok = v.(string)
			case index.TypeInteger:
				_, ok = v.(int64)
			case index.TypeNumber:
				_, ok = v.(float64)
			case index.TypeBoolean:
				_, ok = v.(bool)
			}
			if !ok {
				t.Fatalf("Coerce(%s, %#v) = %#v", typ, in, v)
			}
			if r := executor.Render(v); (typ == index.TypeInteger || typ == index.TypeNumber) && strings.ContainsAny(r, "eE+") {
				t.Fatalf("Render(%#v) = %q has exponent notation", v, r)
			}
		}
	})
}
