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
