package executor_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
)

func tool(args ...config.Arg) *config.ResolvedTool {
	return &config.ResolvedTool{
		Tool: &config.Tool{Name: "t", Args: args, Timeout: 5},
		CLI:  &config.Config{Name: "cli", Command: "prog"},
	}
}

// problems returns the error text of Validate(rt, args), "" when it
// passes.
func problems(rt *config.ResolvedTool, args map[string]any) string {
	if _, err := executor.Validate(rt, args); err != nil {
		return err.Error()
	}
	return ""
}

// withPolicy resolves a one-tool config through index.New so that the
// constraints are compiled as in production.
func withPolicy(t *testing.T, cons map[string]config.Constraint, args ...config.Arg) *config.ResolvedTool {
	t.Helper()
	cfg := &config.Config{Name: "cli", Command: "prog", Tools: []config.Tool{{Name: "t", Args: args, Timeout: 5}}}
	ix, _, err := index.New([]*config.Config{cfg}, &config.Policy{
		Default: config.PolicyDisabled,
		Tools:   map[string]config.ToolPolicy{"t": {Args: cons}},
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
		typ  config.ArgType
		in   any
		want any // nil: error expected
		err  string
	}{
		{config.TypeInteger, "42", int64(42), ""},
		{config.TypeInteger, " -7 ", int64(-7), ""},
		{config.TypeInteger, "42.0", int64(42), ""},
		{config.TypeInteger, 42.0, int64(42), ""},
		{config.TypeInteger, json.Number("42"), int64(42), ""},
		{config.TypeInteger, json.Number("4.2e1"), int64(42), ""},
		{config.TypeInteger, 7, int64(7), ""},
		{config.TypeInteger, "hello", nil, "cannot convert 'hello' to integer"},
		{config.TypeInteger, 3.5, nil, "cannot convert 3.5 to integer"},
		{config.TypeInteger, "3.5", nil, "cannot convert '3.5' to integer"},
		{config.TypeInteger, 1e30, nil, "cannot convert 1000000000000000000000000000000 to integer"},
		{config.TypeInteger, "0x10", nil, "cannot convert '0x10' to integer"},
		{config.TypeInteger, true, nil, "cannot convert true to integer"},
		{config.TypeInteger, "", nil, "cannot convert '' to integer"},
		{config.TypeNumber, "3.14", 3.14, ""},
		{config.TypeNumber, "1e3", 1000.0, ""},
		{config.TypeNumber, 2.5, 2.5, ""},
		{config.TypeNumber, json.Number("2"), 2.0, ""},
		{config.TypeNumber, 3, 3.0, ""},
		{config.TypeNumber, "NaN", nil, "cannot convert 'NaN' to number"},
		{config.TypeNumber, "inf", nil, "cannot convert 'inf' to number"},
		{config.TypeNumber, "1e999", nil, "cannot convert '1e999' to number"},
		{config.TypeNumber, "pi", nil, "cannot convert 'pi' to number"},
		{config.TypeBoolean, true, true, ""},
		{config.TypeBoolean, "true", true, ""},
		{config.TypeBoolean, "False", false, ""},
		{config.TypeBoolean, "1", nil, "cannot convert '1' to boolean"},
		{config.TypeBoolean, "yes", nil, "cannot convert 'yes' to boolean"},
		{config.TypeBoolean, 1.0, nil, "cannot convert 1 to boolean"},
		{config.TypeString, "hi", "hi", ""},
		{config.TypeString, 42.0, "42", ""},
		{config.TypeString, 3.5, "3.5", ""},
		{config.TypeString, 1e21, "1000000000000000000000", ""},
		{config.TypeString, 1e-7, "0.0000001", ""},
		{config.TypeString, json.Number("1e3"), "1000", ""},
		{config.TypeString, 12, "12", ""},
		// A boolean for a string arg is refused ({"create": true} would
		// make a branch named "true"); numbers still convert.
		{config.TypeString, true, nil, "cannot convert true to string"},
		{config.TypeString, false, nil, "cannot convert false to string"},
		{config.TypeString, map[string]any{"a": "b"}, nil, `cannot convert object {"a":"b"} to string`},
		{config.TypeString, json.Number("18446744073709551617"), "18446744073709551617", ""},
		{"", "plain", "plain", ""},
		// json: any JSON value as compact JSON text, numbers exact; a
		// string holding an object or array is that object or array
		// (jq vars and curl json take objects).
		{config.TypeJSON, map[string]any{"b": []any{json.Number("1.50"), true, nil}, "a": "<x>"}, json.RawMessage(`{"a":"<x>","b":[1.50,true,null]}`), ""},
		{config.TypeJSON, []any{}, json.RawMessage(`[]`), ""},
		{config.TypeJSON, "x", json.RawMessage(`"x"`), ""},
		{config.TypeJSON, ` { "a" : [1, 2] } `, json.RawMessage(`{"a":[1,2]}`), ""},
		{config.TypeJSON, "{not json", json.RawMessage(`"{not json"`), ""},
		{config.TypeJSON, json.Number("18446744073709551617"), json.RawMessage("18446744073709551617"), ""},
		{config.TypeJSON, true, json.RawMessage("true"), ""},
		{config.TypeJSON, nil, json.RawMessage("null"), ""},
		{config.TypeJSON, 7, json.RawMessage("7"), ""},
		{config.TypeString, nil, nil, "cannot convert null to string"},
		{config.TypeString, []any{1.0, "a"}, nil, `cannot convert array [1,"a"] to string`},
		{config.TypeInteger, map[string]any{"a": 1.0}, nil, `cannot convert object {"a":1} to integer`},
		{config.TypeString, []any{strings.Repeat("x", 100)}, nil, `cannot convert array ["` + strings.Repeat("x", 38) + `... to string`},
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
		config.Arg{Name: "message", Required: true},
		config.Arg{Name: "count", Type: config.TypeInteger},
		config.Arg{Name: "format", Enum: []string{"json", "text", "csv"}},
		config.Arg{Name: "path", Positional: true},
		config.Arg{Name: "ref", Positional: true, AllowLeadingDash: true},
		config.Arg{Name: "n", Type: config.TypeInteger, Positional: true},
		config.Arg{Name: "input", Stdin: true},
		config.Arg{Name: "filter", Positional: true, Description: "Program;\n wrap one starting with '-' in ( )"},
	)
	tests := []struct {
		name string
		args map[string]any
		want string // "" means valid
	}{
		// The caller learns what the argument's description says about
		// such values (jq's filter: wrap it in parentheses), on one line.
		{"leading dash, described arg", map[string]any{"message": "m", "filter": "-1"},
			"Argument validation failed:\n  - Argument 'filter': value '-1' starts with '-', which this argument refuses (the program would read it as an option): pass a value that does not start with '-'; the argument's description: \"Program; wrap one starting with '-' in ( )\""},
		// A boolean for an enum string lists the allowed values: the
		// caller misread the arg as a switch.
		{"boolean for an enum", map[string]any{"message": "m", "format": true},
			"Argument validation failed:\n  - Argument 'format': cannot convert true to string; it must be one of: json, text, csv"},
		{"documented example", map[string]any{"count": "hello", "format": "xml"}, `Argument validation failed:
  - Missing required argument 'message'
  - Argument 'count': cannot convert 'hello' to integer
  - Argument 'format' must be one of: json, text, csv`},
		{"nil args", nil, "Argument validation failed:\n  - Missing required argument 'message'"},
		{"extra keys ignored", map[string]any{"message": "m", "unknown": []any{}}, ""},
		{"enum ok", map[string]any{"message": "m", "format": "csv"}, ""},
		{"null", map[string]any{"message": nil}, "Argument validation failed:\n  - Argument 'message': cannot convert null to string"},
		{"leading dash", map[string]any{"message": "m", "path": "--output=/etc/passwd"},
			"Argument validation failed:\n  - Argument 'path': value '--output=/etc/passwd' starts with '-', which this argument refuses (the program would read it as an option): pass a value that does not start with '-'"},
		{"negative number positional", map[string]any{"message": "m", "n": -5.0}, "Argument validation failed:\n  - Argument 'n': value '-5' starts with '-', which this argument refuses (the program would read it as an option): pass a value that does not start with '-'"},
		{"leading dash allowed", map[string]any{"message": "m", "ref": "-1"}, ""},
		{"leading dash in a flag value", map[string]any{"message": "-m"}, ""},
		{"nul", map[string]any{"message": "a\x00b"}, "Argument validation failed:\n  - Argument 'message': value contains a NUL byte, which cannot be passed to a command"},
		{"nul in stdin", map[string]any{"message": "m", "input": "a\x00b"}, ""},
	}
	for _, tt := range tests {
		if got := problems(rt, tt.args); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

func TestValidateValues(t *testing.T) {
	t.Parallel()
	rt := tool(
		config.Arg{Name: "count", Type: config.TypeInteger, Default: 10},
		config.Arg{Name: "label", Default: 50},
		config.Arg{Name: "ratio", Type: config.TypeNumber},
		config.Arg{Name: "all", Type: config.TypeBoolean},
		config.Arg{Name: "format", Enum: []string{"1", "2"}, Default: "x"},
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
	rt = tool(config.Arg{Name: "level", Type: config.TypeInteger, Enum: []string{"1", "2"}})
	if _, err := executor.Validate(rt, map[string]any{"level": 2.0}); err != nil {
		t.Fatal(err)
	}
	// A default the config got wrong is reported, not run.
	rt = tool(config.Arg{Name: "count", Type: config.TypeInteger, Default: "many"})
	_, err = executor.Validate(rt, nil)
	if want := "Argument validation failed:\n  - Argument 'count': default 'many' in the config cannot be converted to integer"; err == nil || err.Error() != want {
		t.Fatalf("got %v", err)
	}
}

// TestValidateBoundsOnStringText checks that bounds on a string arg hold
// for the text passed on, not for a number parsed leniently from it.
func TestValidateBoundsOnStringText(t *testing.T) {
	t.Parallel()
	rt := tool(config.Arg{Name: "n"})
	rt.Constraints = map[string]*config.ArgConstraint{"n": {Constraint: config.Constraint{Min: ptr(1), Max: ptr(100)}}}
	for _, v := range []string{"5", "100", "2.5"} {
		if _, err := executor.Validate(rt, map[string]any{"n": v}); err != nil {
			t.Errorf("%q: %v", v, err)
		}
	}
	for _, v := range []string{" 5", "5 ", "+5", "1e2", "0005", "5.0", "0x10", "Inf", "1_0"} {
		if _, err := executor.Validate(rt, map[string]any{"n": v}); err == nil {
			t.Errorf("%q passed {min: 1, max: 100} but is passed on as it is", v)
		}
	}
}

func TestValidatePolicy(t *testing.T) {
	t.Parallel()
	rt := withPolicy(t, map[string]config.Constraint{
		"name":      {Pattern: "^[a-z]+$"},
		"max_count": {Min: ptr(1), Max: ptr(100)},
		"ratio":     {Min: ptr(0.5)},
		"path":      {Pattern: "src/.*"},
	},
		config.Arg{Name: "name"},
		config.Arg{Name: "max_count", Type: config.TypeInteger, Default: 10},
		config.Arg{Name: "ratio", Type: config.TypeNumber},
		config.Arg{Name: "label"},
		config.Arg{Name: "path"},
		config.Arg{Name: "required", Required: true},
	)
	// A policy cannot bound a string arg (loading refuses it); a tool built
	// otherwise still has its bounds checked on the exact text passed on.
	rt.Constraints["label"] = &config.ArgConstraint{Constraint: config.Constraint{Max: ptr(10)}}
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
  - Argument 'label': value 'abc' is not a number in plain form (such as 5 or -2.5), but the policy sets numeric bounds`},
		{"bounds on the text used", map[string]any{"required": "r", "label": "+5"},
			"Policy validation failed:\n  - Argument 'label': value '+5' is not a number in plain form (such as 5 or -2.5), but the policy sets numeric bounds"},
		{"below", map[string]any{"required": "r", "max_count": 0.0}, "Policy validation failed:\n  - Argument 'max_count': value 0 is below minimum 1"},
		{"argument errors first", map[string]any{"name": "INVALID123"}, "Argument validation failed:\n  - Missing required argument 'required'"},
	}
	for _, tt := range tests {
		if got := problems(rt, tt.args); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

func ExampleValidate() {
	rt := &config.ResolvedTool{
		Tool: &config.Tool{Name: "log", Args: []config.Arg{
			{Name: "count", Type: config.TypeInteger},
			{Name: "all", Type: config.TypeBoolean},
			{Name: "format", Enum: []string{"json", "text"}, Default: "text"},
		}},
		CLI: &config.Config{Command: "prog"},
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
	types := []config.ArgType{config.TypeString, config.TypeInteger, config.TypeNumber, config.TypeBoolean}
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
			case config.TypeString:
				_, ok = v.(string)
			case config.TypeInteger:
				_, ok = v.(int64)
			case config.TypeNumber:
				_, ok = v.(float64)
			case config.TypeBoolean:
				_, ok = v.(bool)
			}
			if !ok {
				t.Fatalf("Coerce(%s, %#v) = %#v", typ, in, v)
			}
			if r := executor.Render(v); (typ == config.TypeInteger || typ == config.TypeNumber) && strings.ContainsAny(r, "eE+") {
				t.Fatalf("Render(%#v) = %q has exponent notation", v, r)
			}
		}
	})
}

// An argument's own pattern (config, not policy) is checked on every
// value and every item, as an argument problem, before anything runs.
func TestValidateConfigPattern(t *testing.T) {
	t.Parallel()
	cfg := &config.Config{Name: "cli", Command: "prog", Tools: []config.Tool{{Name: "t", Timeout: 5, Args: []config.Arg{
		{Name: "sql", Positional: true, Pattern: `(?s)[^\\].*`},
		{Name: "files", Type: config.TypeArray, Flag: "-f", Pattern: `[a-z]+\.sql`},
	}}}}
	ix, _, err := index.New([]*config.Config{cfg}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rt, _ := ix.Get("t")
	tests := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"sql": "select 1"}, ""},
		{map[string]any{"sql": " \\! id"}, ""},
		{map[string]any{"sql": "\\! id"}, "Argument validation failed:\n  - Argument 'sql': value '\\! id' does not match pattern '(?s)[^\\\\].*'"},
		{map[string]any{"sql": "x", "files": []any{"a.sql", "../b.sql"}}, "Argument validation failed:\n  - Argument 'files': item 2: value '../b.sql' does not match pattern '[a-z]+\\.sql'"},
		// Anchored on the parse tree: an alternation cannot match a part.
		{map[string]any{"sql": "x", "files": []any{"a.sqlx"}}, "Argument validation failed:\n  - Argument 'files': item 1: value 'a.sqlx' does not match pattern '[a-z]+\\.sql'"},
	}
	for _, tt := range tests {
		if got := problems(rt, tt.args); got != tt.want {
			t.Errorf("%v:\n got %q\nwant %q", tt.args, got, tt.want)
		}
	}
}

// Problems name a secret argument but never show its value.
func TestValidateHidesSecretValues(t *testing.T) {
	rt := tool(
		config.Arg{Name: "pin", Type: config.TypeInteger, Flag: "--pin", Secret: true},
		config.Arg{Name: "pos", Positional: true, Secret: true},
		config.Arg{Name: "keys", Type: config.TypeArray, Flag: "-k", Enum: []string{"a"}, Secret: true},
		config.Arg{Name: "n", Type: config.TypeArray, Items: config.TypeInteger, Flag: "-n", Secret: true},
	)
	for _, args := range []map[string]any{
		{"pin": "hunter2"},
		{"pos": "-hunter2"},
		{"keys": []any{"hunter2"}},
		{"n": []any{1, "hunter2"}},
		{"n": map[string]any{"x": "hunter2"}},
	} {
		_, err := executor.Validate(rt, args)
		if err == nil {
			t.Fatalf("%v: no problem", args)
		}
		if msg := err.Error(); strings.Contains(msg, "hunter2") || !strings.Contains(msg, "***") {
			t.Errorf("%v: %s", args, msg)
		}
	}
}

// Enum values written in another form of the same number in the config
// match the calls that give that number, in any form.
func TestNumericEnumForms(t *testing.T) {
	c, err := config.Parse([]byte("command: x\ntools:\n  - name: t\n    description: d\n    args:\n      - {name: f, flag: -f, type: number, enum: [0.5, 1.0]}\n      - {name: i, flag: -i, type: integer, enum: [\"+1\", \"010\"]}\n"), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rt := &config.ResolvedTool{Tool: &c.Tools[0], CLI: c}
	for _, args := range []map[string]any{
		{"f": 1.0}, {"f": "1.0"}, {"f": json.Number("1")}, {"f": ".5"},
		{"i": 1}, {"i": "+1"}, {"i": "10"}, {"i": json.Number("10.0")},
	} {
		if _, err := executor.Validate(rt, args); err != nil {
			t.Errorf("%v: %v", args, err)
		}
	}
	if _, err := executor.Validate(rt, map[string]any{"f": 2}); err == nil {
		t.Error("f=2 passed an enum of 0.5 and 1")
	}
}

// A number sent for a string arg is written in plain decimal exactly as
// sent, however many digits it has; error texts show it exactly too.
func TestStringArgKeepsNumbersExact(t *testing.T) {
	rt := tool(config.Arg{Name: "s", Flag: "--s="}, config.Arg{Name: "n", Type: config.TypeInteger, Flag: "-n"})
	for lit, want := range map[string]string{
		"18446744073709551617":      "18446744073709551617",
		"12345678901234567890123":   "12345678901234567890123",
		"0.12345678901234567890123": "0.12345678901234567890123",
		"-9223372036854775809":      "-9223372036854775809",
		"1e3":                       "1000",
		"1.50":                      "1.5",
		"-0":                        "0",
		"1.5e-7":                    "0.00000015",
		"123.456e2":                 "12345.6",
		"9007199254740993":          "9007199254740993",
	} {
		values, err := executor.Validate(rt, map[string]any{"s": json.Number(lit)})
		if err != nil || values["s"] != want {
			t.Errorf("s=%s: %v, %v; want %q", lit, values["s"], err, want)
		}
	}
	_, err := executor.Validate(rt, map[string]any{"n": json.Number("9223372036854775808")})
	if err == nil || !strings.Contains(err.Error(), "cannot convert 9223372036854775808 to integer") {
		t.Errorf("an integer out of range: %v", err)
	}
}

// A call that fails validation also names the argument names it did not
// use: with the argument one stands for ("mesage" for "message"), or with
// the tool's arguments (a misnamed one is likely why it failed).
func TestValidateNamesMisspellingsOfAFailedCall(t *testing.T) {
	rt := tool(config.Arg{Name: "message", Required: true}, config.Arg{Name: "count", Type: config.TypeInteger, Flag: "-n"})
	_, err := executor.Validate(rt, map[string]any{"mesage": "hi", "zzz": 1})
	want := "Argument validation failed:\n  - Missing required argument 'message'\n  - Unknown argument 'mesage' (did you mean 'message'?)\n  - Unknown argument 'zzz'; the tool's arguments are: message, count"
	if err == nil || err.Error() != want {
		t.Errorf("Validate = %v\nwant %s", err, want)
	}
	// A call that passes ignores them (structuredContent lists them).
	if _, err := executor.Validate(rt, map[string]any{"message": "hi", "cnt": 1}); err != nil {
		t.Errorf("valid call with an unknown name: %v", err)
	}
}

// A call of many bad items gets an answer of bounded size: a few items
// of each argument are named, the rest counted, and a long list of
// allowed values is cut.
func TestValidateBoundsManyBadItems(t *testing.T) {
	t.Parallel()
	var enum []string
	for i := range 500 {
		enum = append(enum, fmt.Sprintf("mode-%03d-%s", i, strings.Repeat("x", 100)))
	}
	cfg := &config.Config{Name: "cli", Command: "prog", Tools: []config.Tool{{Name: "t", Timeout: 5, Args: []config.Arg{
		{Name: "names", Type: config.TypeArray, Positional: true, Pattern: `[a-z]+`},
		{Name: "modes", Type: config.TypeArray, Flag: "--mode", Enum: enum},
		{Name: "counts", Type: config.TypeArray, Items: config.TypeInteger, Flag: "-n"},
	}}}}
	ix, _, err := index.New([]*config.Config{cfg}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rt, _ := ix.Get("t")
	const n = 20000
	many := func(v any) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = v
		}
		return out
	}
	for _, args := range []map[string]any{
		{"names": many("-x")},
		{"names": many("A")},
		{"modes": many("nope")},
		{"modes": many(true)},
		{"counts": many("x")},
	} {
		got := problems(rt, args)
		// Five items, each with at most two problems, and the count.
		if lines := strings.Count(got, "\n  - "); lines > 11 {
			t.Errorf("%d problem lines, want at most 11:\n%.300s", lines, got)
		}
		if want := fmt.Sprintf("… and %d more items refused", n-5); !strings.Contains(got, want) {
			t.Errorf("lacks %q:\n%.500s", want, got)
		}
		if len(got) > 4000 {
			t.Errorf("%d bytes of problems", len(got))
		}
	}
	if got := problems(rt, map[string]any{"modes": []any{"nope"}}); !strings.Contains(got, "… (500 values in all)") {
		t.Errorf("allowed values not cut:\n%.600s", got)
	}
}

// A caller's value quoted in a problem has its control and format
// characters escaped: it cannot break the message's lines, clear a
// terminal or reorder the text around it.
func TestValidateEscapesQuotedValues(t *testing.T) {
	t.Parallel()
	rt := tool(config.Arg{Name: "x", Positional: true})
	got := problems(rt, map[string]any{"x": "-bad\u202e\x1b[2J\nline"})
	if strings.ContainsAny(got, "\u202e\x1b") || strings.Count(got, "\n") != 1 {
		t.Errorf("raw control or format characters in %q", got)
	}
	if !strings.Contains(got, `'-bad\u202e\x1b[2J\nline'`) {
		t.Errorf("value not shown escaped in %q", got)
	}
}
