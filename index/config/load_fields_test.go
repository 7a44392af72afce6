package config

import (
	"reflect"
	"strings"
	"testing"
)

// tool1 wraps one tool's extra YAML lines (indented by 4) in a config, so
// that the tool's first extra line is line 5.
func tool1(lines ...string) string {
	return "command: x\ntools:\n  - name: t\n    description: d\n" + strings.Join(lines, "\n") + "\n"
}

// TestParseFieldErrors covers the loader's checks of arrays,
// success_exit_codes, after_double_dash and the annotations: each wrong
// shape is one problem with its position.
func TestParseFieldErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // every problem, exactly
	}{
		{
			name: "type written as a list",
			src:  tool1("    args:", "      - {name: a, type: [string]}"),
			want: []string{`t.yaml:6:25: tool "t": arg "a": type: expected one of string, integer, number, boolean, array, json, got a list; for a list of values write type: array (and items: string, integer or number)`},
		},
		{
			name: "items without type array",
			src:  tool1("    args:", "      - {name: a, items: integer}"),
			want: []string{`t.yaml:6:26: tool "t": arg "a": items only applies to type: array: add type: array or remove items`},
		},
		{
			name: "items of type boolean",
			src:  tool1("    args:", "      - {name: a, type: array, items: boolean}"),
			want: []string{`t.yaml:6:39: tool "t": arg "a": items: boolean is not supported: the items of an array are string, integer, number`},
		},
		{
			name: "items misspelt",
			src:  tool1("    args:", "      - {name: a, type: array, items: int}"),
			want: []string{`t.yaml:6:39: tool "t": arg "a": unknown item type "int" (did you mean "integer"?): the items of an array are string, integer, number`},
		},
		{
			name: "items as a list",
			src:  tool1("    args:", "      - {name: a, type: array, items: [string]}"),
			want: []string{`t.yaml:6:39: tool "t": arg "a": items: expected one of string, integer, number, got a list`},
		},
		{
			name: "array default that is a scalar",
			src:  tool1("    args:", "      - {name: a, type: array, default: src}"),
			want: []string{`t.yaml:6:41: tool "t": arg "a": default of an array arg must be a list, got "src"; write default: [src]`},
		},
		{
			name: "array default items of the wrong type",
			src:  tool1("    args:", "      - {name: a, type: array, items: integer, default: [1, two, [3]]}"),
			want: []string{
				`t.yaml:6:61: tool "t": arg "a": default "two" does not fit type integer`,
				`t.yaml:6:66: tool "t": arg "a": default: each item must be a single integer value, got a list`,
			},
		},
		{
			name: "array default outside the enum",
			src:  tool1("    args:", "      - {name: a, type: array, enum: [x, y], default: [x, z]}"),
			want: []string{`t.yaml:6:59: tool "t": arg "a": default "z" is not one of the enum values (x, y)`},
		},
		{
			name: "array enum checked against the item type",
			src:  tool1("    args:", "      - {name: a, type: array, items: number, enum: [1.5, abc]}"),
			want: []string{`t.yaml:6:59: tool "t": arg "a": enum value "abc" is not a finite number`},
		},
		{
			name: "array stdin and cwd",
			src:  tool1("    args:", "      - {name: a, type: array, stdin: true}", "      - {name: b, type: array, cwd: true}"),
			want: []string{
				`t.yaml:6:39: tool "t": arg "a": an array arg cannot be stdin: stdin takes one value`,
				`t.yaml:7:37: tool "t": arg "b": an array arg cannot be cwd: cwd takes one value`,
			},
		},
		{
			name: "after_double_dash without positional or flag",
			src:  tool1("    args:", "      - {name: a, after_double_dash: true}", "      - {name: b, after_double_dash: yes}", "      - {name: c, flag: -c, after_double_dash: true}"),
			want: []string{
				`t.yaml:6:38: tool "t": arg "a": after_double_dash places the value after "--" on the command line: it needs positional: true, or a flag to go there with it`,
				`t.yaml:7:38: tool "t": arg "b": after_double_dash: expected true or false, got "yes"`,
			},
		},
		{
			name: "after_double_dash in global_args",
			src:  "command: x\nglobal_args:\n  - {name: g, positional: true, after_double_dash: true, default: v}\ntools: []\n",
			want: []string{`t.yaml:3:5: global arg "g": after_double_dash is not allowed in global_args; move the arg to a tool`},
		},
		{
			name: "success_exit_codes as a number",
			src:  tool1("    success_exit_codes: 1"),
			want: []string{`t.yaml:5:25: tool "t": success_exit_codes: expected a list of exit codes, got a number (1); write success_exit_codes: [0, 1]`},
		},
		{
			name: "success_exit_codes as 0",
			src:  tool1("    success_exit_codes: 0"),
			want: []string{`t.yaml:5:25: tool "t": success_exit_codes: expected a list of exit codes, got a number (0); write success_exit_codes: [0], or leave it out (0 alone is the default)`},
		},
		{
			name: "success_exit_codes out of range, duplicate, not a number",
			src:  tool1("    success_exit_codes: [0, 256, -1, 1, 1, one, 1.5]"),
			want: []string{
				`t.yaml:5:29: tool "t": success_exit_codes: 256 is not an exit code: exit codes are 0 to 255`,
				`t.yaml:5:34: tool "t": success_exit_codes: -1 is not an exit code: exit codes are 0 to 255`,
				`t.yaml:5:41: tool "t": success_exit_codes lists 1 twice: remove one`,
				`t.yaml:5:44: tool "t": success_exit_codes: expected a whole number from 0 to 255, got "one"`,
				`t.yaml:5:49: tool "t": success_exit_codes: expected a whole number from 0 to 255, got a number (1.5)`,
			},
		},
		{
			name: "success_exit_codes without 0",
			src:  tool1("    success_exit_codes: [1, 2]"),
			want: []string{`t.yaml:5:25: tool "t": success_exit_codes must include 0 (the list replaces the default [0]): write [0, 1, 2]`},
		},
		{
			name: "success_exit_codes empty",
			src:  tool1("    success_exit_codes: []"),
			want: []string{`t.yaml:5:25: tool "t": success_exit_codes is empty: list the exit codes that mean success, e.g. [0, 1], or remove it`},
		},
		{
			name: "annotations that are not booleans",
			src:  tool1("    read_only: yes", "    destructive: 1", "    idempotent: [true]", "    open_world: \"false\""),
			want: []string{
				`t.yaml:5:16: tool "t": read_only: expected true or false, got "yes"`,
				`t.yaml:6:18: tool "t": destructive: expected true or false, got a number (1)`,
				`t.yaml:7:17: tool "t": idempotent: expected true or false, got a list`,
				`t.yaml:8:17: tool "t": open_world: expected true or false, got "false"`,
			},
		},
		{
			name: "read_only and destructive",
			src:  tool1("    read_only: true", "    destructive: true"),
			want: []string{`t.yaml:6:18: tool "t": a read_only tool cannot be destructive: remove one of read_only: true and destructive: true`},
		},
		{
			name: "annotation misspelt",
			src:  tool1("    readonly: true"),
			want: []string{`t.yaml:5:5: tool "t": unknown key "readonly" (did you mean "read_only"?)`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse([]byte(tt.src), "t.yaml")
			if err == nil {
				t.Fatalf("Parse succeeded with %+v; want problems:\n  %s", c, strings.Join(tt.want, "\n  "))
			}
			wantProblems(t, problemLines(t, err), tt.want, true)
		})
	}
}

// TestParseFields checks what the loader makes of well-formed arrays,
// success_exit_codes, after_double_dash and annotations.
func TestParseFields(t *testing.T) {
	src := tool1(
		"    success_exit_codes: [0, 1]",
		"    read_only: true",
		"    idempotent: false",
		"    args:",
		"      - {name: paths, type: array, positional: true}",
		"      - {name: lines, type: array, items: integer, flag: -L, default: [1, \"2\"]}",
		"      - {name: modes, type: array, items: number, enum: [\"0.5\", \"1\"], default: [0.5]}",
		"      - {name: rest, type: array, positional: true, after_double_dash: true}",
		"  - name: u",
		"    description: d",
		"    destructive: false",
		"    open_world: true",
	)
	c, err := Parse([]byte(src), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tl, u := c.Tools[0], c.Tools[1]
	if !reflect.DeepEqual(tl.SuccessExitCodes, []int{0, 1}) || !tl.SuccessExit(1) || tl.SuccessExit(2) {
		t.Errorf("SuccessExitCodes = %v", tl.SuccessExitCodes)
	}
	if u.SuccessExitCodes != nil || !u.SuccessExit(0) || u.SuccessExit(1) {
		t.Errorf("default SuccessExitCodes = %v", u.SuccessExitCodes)
	}
	type ann struct{ ro, de, id, ow *bool }
	if got := (ann{tl.ReadOnly, tl.Destructive, tl.Idempotent, tl.OpenWorld}); got.ro == nil || !*got.ro || got.de != nil || got.id == nil || *got.id || got.ow != nil {
		t.Errorf("annotations of t = %+v", got)
	}
	if !tl.IsReadOnly() || tl.MayDestroy() || u.IsReadOnly() || u.MayDestroy() || u.OpenWorld == nil || !*u.OpenWorld {
		t.Errorf("IsReadOnly/MayDestroy of t, u = %v %v, %v %v", tl.IsReadOnly(), tl.MayDestroy(), u.IsReadOnly(), u.MayDestroy())
	}
	a := tl.Args
	if a[0].Type != TypeArray || a[0].Items != TypeString || a[0].ItemType() != TypeString || a[0].Default != nil {
		t.Errorf("paths = %+v", a[0])
	}
	if a[1].Items != TypeInteger || !reflect.DeepEqual(a[1].Default, []any{1, 2}) {
		t.Errorf("lines = %+v", a[1])
	}
	if a[2].Items != TypeNumber || !reflect.DeepEqual(a[2].Default, []any{0.5}) || !reflect.DeepEqual(a[2].Enum, []string{"0.5", "1"}) {
		t.Errorf("modes = %+v", a[2])
	}
	if !a[3].AfterDoubleDash || !a[3].Positional || a[0].AfterDoubleDash {
		t.Errorf("rest = %+v", a[3])
	}
	// A tool built in Go, with no annotations, may destroy (the MCP default).
	if (&Tool{}).MayDestroy() != true || (&Arg{Type: TypeInteger}).ItemType() != TypeInteger {
		t.Error("zero Tool or Arg")
	}
}
