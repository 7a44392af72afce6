package config

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// This file checks the fields that shape how a tool's results are judged
// and what its arguments can hold: success_exit_codes, exit_codes, the
// annotations,
// array arguments (items, list defaults) and after_double_dash.

// exitCodes checks a tool's success_exit_codes: a non-empty list of
// distinct whole numbers from 0 to 255 that includes 0. It returns nil
// when the key is absent or wrong.
func (c *checker) exitCodes(o *object, ctx string) []int {
	f, ok := o.get("success_exit_codes")
	if !ok {
		return nil
	}
	v := f.val()
	if v.Kind != yaml.SequenceNode {
		hint := ""
		if n, ok := decodeNumber(v); ok && v.Value == clip(v.Value, maxQuoted) {
			hint = fmt.Sprintf("; write success_exit_codes: [0, %s]", v.Value)
			if n == 0 {
				hint = "; write success_exit_codes: [0], or leave it out (0 alone is the default)"
			}
		}
		c.report(f.value, ctx, "success_exit_codes: expected a list of exit codes, got %s%s", describe(v), hint)
		return nil
	}
	if len(v.Content) == 0 {
		c.report(f.value, ctx, "success_exit_codes is empty: list the exit codes that mean success, e.g. [0, 1], or remove it")
		return nil
	}
	var codes []int
	bad := false
	for _, item := range v.Content {
		ri := deref(item)
		var code int
		if ri.Kind != yaml.ScalarNode || ri.ShortTag() != "!!int" || ri.Decode(&code) != nil {
			c.report(item, ctx, "success_exit_codes: expected a whole number from 0 to 255, got %s", describe(ri))
			bad = true
			continue
		}
		switch {
		case code < 0 || code > 255:
			c.report(item, ctx, "success_exit_codes: %d is not an exit code: exit codes are 0 to 255", code)
			bad = true
		case slices.Contains(codes, code):
			c.report(item, ctx, "success_exit_codes lists %d twice: remove one", code)
			bad = true
		default:
			codes = append(codes, code)
		}
	}
	if bad {
		return nil
	}
	if !slices.Contains(codes, 0) {
		c.report(f.value, ctx, "success_exit_codes must include 0 (the list replaces the default [0]): write [0, %s]", joinInts(codes))
		return nil
	}
	return codes
}

// maxMeaning is the longest meaning of an exit code, in bytes: a few
// words for the result text, not a manual.
const maxMeaning = 80

// exitMeanings checks a tool's exit_codes: a mapping from exit codes 1 to
// 255 to a short text saying what each means. It returns nil when the key
// is absent or wrong.
func (c *checker) exitMeanings(o *object, ctx string) map[int]string {
	f, ok := o.get("exit_codes")
	if !ok {
		return nil
	}
	v := f.val()
	if v.Kind != yaml.MappingNode || len(v.Content) == 0 {
		c.report(f.value, ctx, "exit_codes: expected a mapping of exit codes to what they mean, e.g. exit_codes: {1: \"no matches\"}, got %s", describe(v))
		return nil
	}
	out := map[int]string{}
	bad := false
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := deref(v.Content[i]), deref(v.Content[i+1])
		var code int
		if k.Kind != yaml.ScalarNode || k.ShortTag() != "!!int" || k.Decode(&code) != nil || code < 1 || code > 255 {
			c.report(v.Content[i], ctx, "exit_codes: expected an exit code from 1 to 255, got %s", describe(k))
			bad = true
			continue
		}
		if _, dup := out[code]; dup {
			c.report(v.Content[i], ctx, "exit_codes lists %d twice: remove one", code)
			bad = true
			continue
		}
		s, ok := scalarString(val)
		switch {
		case !ok || val.ShortTag() == "!!bool":
			c.report(v.Content[i+1], ctx, "exit_codes: %d: expected a short text saying what it means, got %s", code, describe(val))
			bad = true
		case strings.TrimSpace(s) == "":
			c.report(v.Content[i+1], ctx, "exit_codes: %d: the meaning is empty: say what the exit code means, e.g. \"no matches\"", code)
			bad = true
		case len(s) > maxMeaning || strings.ContainsAny(s, "\n\r"):
			c.report(v.Content[i+1], ctx, "exit_codes: %d: the meaning must be one line of at most %d bytes", code, maxMeaning)
			bad = true
		default:
			out[code] = strings.TrimSpace(s)
		}
	}
	if bad {
		return nil
	}
	return out
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

// annotations checks a tool's read_only, destructive, idempotent and
// open_world and stores the ones that are set.
func (c *checker) annotations(o *object, ctx string, t *Tool) {
	t.ReadOnly = o.optBool("read_only")
	t.Destructive = o.optBool("destructive")
	t.Idempotent = o.optBool("idempotent")
	t.OpenWorld = o.optBool("open_world")
	if t.IsReadOnly() && t.Destructive != nil && *t.Destructive {
		c.report(o.at("destructive"), ctx, "a read_only tool cannot be destructive: remove one of read_only: true and destructive: true")
	}
}

// optBool returns the boolean value of key, or nil when it is absent or
// not a boolean (which is reported).
func (o *object) optBool(key string) *bool {
	f, ok := o.get(key)
	if !ok {
		return nil
	}
	var b bool
	if v := f.val(); v.Kind != yaml.ScalarNode || v.ShortTag() != "!!bool" || v.Decode(&b) != nil {
		o.boolean(key) // reports what is wrong
		return nil
	}
	return &b
}

// arrayFields checks the array-related fields of arg a (items,
// after_double_dash) against the rest of its definition. It reports false
// when items is unusable, so that enum and default are not checked
// against a wrong item type.
func (c *checker) arrayFields(o *object, a *Arg, ctx string, typeOK bool) bool {
	ok := true
	if f, has := o.get("items"); has {
		s, _ := scalarString(f.val())
		switch {
		case typeOK && a.Type != TypeArray:
			c.report(f.value, ctx, "items only applies to type: array: add type: array or remove items")
			ok = false
		case f.val().Kind != yaml.ScalarNode || f.val().ShortTag() == "!!bool":
			c.report(f.value, ctx, "items: expected one of %s, got %s", strings.Join(itemTypes, ", "), describe(f.val()))
			ok = false
		case s == string(TypeBoolean):
			c.report(f.value, ctx, "items: boolean is not supported: the items of an array are %s", strings.Join(itemTypes, ", "))
			ok = false
		case !slices.Contains(itemTypes, s):
			c.report(f.value, ctx, "unknown item type %s%s: the items of an array are %s", quote(s), typeSuggestion(s, itemTypes), strings.Join(itemTypes, ", "))
			ok = false
		default:
			a.Items = ArgType(s)
		}
	}
	if a.Type == TypeArray {
		if a.Items == "" {
			a.Items = TypeString
		}
		for _, k := range []string{"stdin", "cwd"} {
			if o.isTrue(k) {
				c.report(o.at(k), ctx, "an array arg cannot be %s: %s takes one value", k, k)
			}
		}
	}
	if a.AfterDoubleDash && !a.Positional && strings.TrimSpace(a.Flag) == "" && !a.Stdin && !a.Cwd { // argPlacement reports a stdin or cwd arg's
		c.report(o.at("after_double_dash"), ctx, "after_double_dash places the value after \"--\" on the command line: it needs positional: true, or a flag to go there with it")
	}
	return ok
}

// arrayDefault checks the default of an array arg: a list whose items fit
// the item type and the enum. It returns them as a []any of Go values
// (string, int or float64).
func (c *checker) arrayDefault(f field, a *Arg, ctx string, global bool) any {
	v := f.val()
	if v.Kind != yaml.SequenceNode {
		hint := ""
		if s, ok := scalarString(v); ok && s == clip(s, maxQuoted) {
			hint = fmt.Sprintf("; write default: [%s]", s)
		}
		c.report(f.value, ctx, "default of an array arg must be a list, got %s%s", describe(v), hint)
		return nil
	}
	item := Arg{Name: a.Name, Type: a.ItemType(), Enum: a.Enum}
	out := make([]any, 0, len(v.Content))
	bad := false
	for _, n := range v.Content {
		if rn := deref(n); rn.Kind != yaml.ScalarNode {
			c.report(n, ctx, "default: each item must be a single %s value, got %s", item.Type, describe(rn))
			bad = true
			continue
		}
		x := c.defaultValue(field{value: n}, &item, ctx, global)
		if x == nil {
			bad = true
			continue
		}
		out = append(out, x)
	}
	if bad {
		return nil
	}
	return out
}
