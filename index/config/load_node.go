package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// checker walks a parsed YAML document and collects every problem it finds,
// each with the position of the node it is about.
type checker struct {
	file        string
	problems    []Problem // the first MaxProblems by position, sorted
	omitted     int       // problems found beyond those
	warnings    []Problem // what loads but deserves a word: the first MaxProblems, in the order found
	warnOmitted int       // warnings found beyond those
}

// report records a problem at node n (which may be nil). ctx, when not
// empty, names the element the problem is in ("tool \"git_log\"").
func (c *checker) report(n *yaml.Node, ctx, format string, args ...any) {
	c.add(c.problem(n, ctx, format, args...))
}

// warn records a warning at node n, as report does a problem: something
// the file may keep, which loads with the meaning the message states. Only
// the first MaxProblems are kept; the others are counted.
func (c *checker) warn(n *yaml.Node, ctx, format string, args ...any) {
	if len(c.warnings) == MaxProblems {
		c.warnOmitted++
		return
	}
	c.warnings = append(c.warnings, c.problem(n, ctx, format, args...))
}

// problem makes the Problem report and warn record.
func (c *checker) problem(n *yaml.Node, ctx, format string, args ...any) Problem {
	msg := fmt.Sprintf(format, args...)
	if ctx != "" {
		msg = ctx + ": " + msg
	}
	p := Problem{File: c.file, Message: msg}
	if n != nil {
		p.Line, p.Column = n.Line, n.Column
	}
	return p
}

// allWarnings returns the warnings in the order found, then, when some
// were left out, one that says how many.
func (c *checker) allWarnings() []Problem {
	if c.warnOmitted == 0 {
		return c.warnings
	}
	return append(c.warnings, Problem{File: c.file, Message: fmt.Sprintf("… and %d more %s", c.warnOmitted, plural(c.warnOmitted, "warning", "warnings"))})
}

// err returns the problems as a *LoadError, or nil when there are none.
func (c *checker) err() error {
	if len(c.problems) == 0 {
		return nil
	}
	return &LoadError{File: c.file, Problems: c.problems, Omitted: c.omitted}
}

// document parses data as exactly one YAML document whose root is a
// mapping and returns that mapping, or nil after reporting why not. what
// describes the file ("config", "policy") and hint says what it must hold.
func (c *checker) document(data []byte, what, hint string) *yaml.Node {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			c.report(nil, "", "%s file is empty: %s", what, hint)
		} else {
			c.syntax(err, data)
		}
		return nil
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == nil:
		c.report(&next, "", "more than one YAML document (\"---\"): keep one %s per file", what)
		return nil
	case !errors.Is(err, io.EOF):
		c.syntax(err, data)
		return nil
	}
	if len(doc.Content) == 0 {
		c.report(nil, "", "%s file is empty: %s", what, hint)
		return nil
	}
	if !c.expansionOK(doc.Content[0], len(data)) {
		return nil
	}
	root := deref(doc.Content[0])
	if isNull(root) {
		c.report(nil, "", "%s file is empty: %s", what, hint)
		return nil
	}
	if root.Kind != yaml.MappingNode {
		c.report(doc.Content[0], "", "expected a mapping of keys at the top level, got %s: %s", describe(root), hint)
		return nil
	}
	return root
}

// deref follows aliases to the node they stand for.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n == nil || n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// describe names the kind of value a node holds, for messages.
func describe(n *yaml.Node) string {
	n = deref(n)
	if n == nil {
		return "nothing"
	}
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return "null"
		case "!!bool":
			return "a boolean (" + clip(n.Value, maxQuoted) + ")"
		case "!!int", "!!float":
			return "a number (" + clip(n.Value, maxQuoted) + ")"
		}
		return quote(n.Value)
	}
	return "an unsupported value"
}

// field is one key/value pair of a mapping.
type field struct {
	key   *yaml.Node // the key, for positions
	name  string     // the key's text
	value *yaml.Node // the value as written (possibly an alias), for positions
}

// val returns the value with aliases resolved.
func (f field) val() *yaml.Node { return deref(f.value) }

// pairs returns the key/value pairs of mapping m in order, with merge keys
// ("<<") applied, reporting duplicate and non-scalar keys.
func (c *checker) pairs(m *yaml.Node, ctx string) []field {
	var out []field
	seen := map[string]*yaml.Node{}
	var merged []field
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		rk := deref(k)
		if rk.Kind != yaml.ScalarNode || rk.ShortTag() == "!!null" {
			c.report(k, ctx, "keys must be plain names, got %s", describe(rk))
			continue
		}
		if rk.ShortTag() == "!!merge" {
			merged = append(merged, c.merge(v, ctx, 0)...)
			continue
		}
		if first, dup := seen[rk.Value]; dup {
			c.report(k, ctx, "key %s is given twice (first at line %d); remove one", quote(rk.Value), first.Line)
			continue
		}
		seen[rk.Value] = k
		out = append(out, field{key: k, name: rk.Value, value: v})
	}
	for _, f := range merged {
		if _, ok := seen[f.name]; !ok {
			seen[f.name] = f.key
			out = append(out, f)
		}
	}
	return out
}

// merge returns the pairs a merge key's value contributes: a mapping or a
// list of mappings, earlier ones winning.
func (c *checker) merge(v *yaml.Node, ctx string, depth int) []field {
	rv := deref(v)
	if depth > 10 {
		c.report(v, ctx, "merge (\"<<\") nested too deeply")
		return nil
	}
	switch {
	case rv.Kind == yaml.MappingNode:
		var out []field
		seen := map[string]bool{}
		for i := 0; i+1 < len(rv.Content); i += 2 {
			k := deref(rv.Content[i])
			if k.Kind != yaml.ScalarNode {
				continue
			}
			if k.ShortTag() == "!!merge" {
				for _, f := range c.merge(rv.Content[i+1], ctx, depth+1) {
					if !seen[f.name] {
						seen[f.name] = true
						out = append(out, f)
					}
				}
				continue
			}
			if !seen[k.Value] {
				seen[k.Value] = true
				out = append(out, field{key: rv.Content[i], name: k.Value, value: rv.Content[i+1]})
			}
		}
		return out
	case rv.Kind == yaml.SequenceNode:
		var out []field
		seen := map[string]bool{}
		for _, item := range rv.Content {
			for _, f := range c.merge(item, ctx, depth+1) {
				if !seen[f.name] {
					seen[f.name] = true
					out = append(out, f)
				}
			}
		}
		return out
	}
	c.report(v, ctx, "merge (\"<<\") needs a mapping or a list of mappings, got %s", describe(rv))
	return nil
}

// otherNames maps the names other tools give a setting (docker compose's
// for a container's, tox's and sudo's for the variables a command keeps)
// to the key CLImax uses, for a "did you mean" that spelling distance
// alone would not find.
var otherNames = map[string]string{
	"read_only":    "read_only_root",
	"mem_limit":    "memory",
	"security_opt": "no_new_privileges",
	"network_mode": "network",
	"workdir":      "working_dir",
	"passenv":      "inherit_env",
	"pass_env":     "inherit_env",
	"env_keep":     "inherit_env",
}

// object is a mapping whose keys were checked against a known set.
type object struct {
	c      *checker
	ctx    string
	node   *yaml.Node
	fields map[string]field
}

// object checks that n is a mapping with only the known keys and returns
// it, or nil after reporting that n is not a mapping. A null n is an empty
// object.
func (c *checker) object(n *yaml.Node, ctx string, known []string) *object {
	o := &object{c: c, ctx: ctx, node: n, fields: map[string]field{}}
	rn := deref(n)
	if isNull(rn) {
		return o
	}
	if rn.Kind != yaml.MappingNode {
		c.report(n, ctx, "expected a mapping (key: value lines), got %s", describe(rn))
		return nil
	}
	for _, f := range c.pairs(rn, ctx) {
		if !slices.Contains(known, f.name) {
			msg := "unknown key " + quote(f.name)
			if s := otherNames[f.name]; slices.Contains(known, s) {
				msg += fmt.Sprintf(" (did you mean %s?)", quote(s))
			} else if s := suggest(f.name, known); s != "" {
				msg += fmt.Sprintf(" (did you mean %s?)", quote(s))
			} else {
				msg += " (valid keys: " + strings.Join(known, ", ") + ")"
			}
			c.report(f.key, ctx, "%s", msg)
			continue
		}
		o.fields[f.name] = f
	}
	return o
}

// get returns the field key when present with a non-null value.
func (o *object) get(key string) (field, bool) {
	f, ok := o.fields[key]
	if !ok || isNull(f.val()) {
		return field{}, false
	}
	return f, true
}

// has reports whether key is present with a non-null value.
func (o *object) has(key string) bool {
	_, ok := o.get(key)
	return ok
}

// at returns the node to report a problem about key at: its value when
// present, else the mapping.
func (o *object) at(key string) *yaml.Node {
	if f, ok := o.fields[key]; ok {
		return f.value
	}
	return o.node
}

// scalarString returns the text of a scalar that can stand for a string:
// any scalar but a boolean or null.
func scalarString(n *yaml.Node) (string, bool) {
	if n.Kind != yaml.ScalarNode {
		return "", false
	}
	switch n.ShortTag() {
	case "!!bool", "!!null":
		return "", false
	}
	return n.Value, true
}

// str returns the string value of key ("" when absent).
func (o *object) str(key string) string {
	f, ok := o.get(key)
	if !ok {
		return ""
	}
	s, ok := scalarString(f.val())
	if !ok {
		hint := ""
		if f.val().ShortTag() == "!!bool" {
			hint = "; quote it: " + quote(f.val().Value)
		}
		o.c.report(f.value, o.ctx, "%s: expected a string, got %s%s", key, describe(f.val()), hint)
	}
	return s
}

// required returns the non-empty string value of key, reporting it as
// missing otherwise. hint says what the value is for.
func (o *object) required(key, hint string) string {
	f, ok := o.fields[key]
	if !ok || isNull(f.val()) {
		o.c.report(o.node, o.ctx, "missing %q: add %s", key, hint)
		return ""
	}
	s := o.str(key)
	if strings.TrimSpace(s) == "" && f.val().Kind == yaml.ScalarNode && f.val().ShortTag() != "!!bool" {
		o.c.report(f.value, o.ctx, "%s is empty: add %s", key, hint)
	}
	return s
}

// boolean returns the boolean value of key (false when absent).
func (o *object) boolean(key string) bool {
	f, ok := o.get(key)
	if !ok {
		return false
	}
	v := f.val()
	if v.Kind == yaml.ScalarNode && v.ShortTag() == "!!bool" {
		var b bool
		if err := v.Decode(&b); err == nil {
			return b
		}
	}
	o.c.report(f.value, o.ctx, "%s: expected true or false, got %s", key, describe(v))
	return false
}

// number returns the finite numeric value of key and whether it is present
// and valid.
func (o *object) number(key string) (float64, bool) { return o.numberOf(key, "a number") }

// seconds is number for a duration in seconds.
func (o *object) seconds(key string) (float64, bool) {
	return o.numberOf(key, "a number of seconds")
}

func (o *object) numberOf(key, what string) (float64, bool) {
	f, ok := o.get(key)
	if !ok {
		return 0, false
	}
	v := f.val()
	x, ok := decodeNumber(v)
	if !ok {
		hint := ""
		if d, err := time.ParseDuration(v.Value); err == nil && v.ShortTag() == "!!str" && what == "a number of seconds" {
			hint = fmt.Sprintf("; write %s: %v", key, d.Seconds())
		}
		o.c.report(f.value, o.ctx, "%s: expected %s, got %s%s", key, what, describe(v), hint)
		return 0, false
	}
	if math.IsInf(x, 0) || math.IsNaN(x) {
		o.c.report(f.value, o.ctx, "%s: expected a finite number, got %s", key, clip(v.Value, maxQuoted))
		return 0, false
	}
	return x, true
}

func decodeNumber(v *yaml.Node) (float64, bool) {
	if v.Kind != yaml.ScalarNode {
		return 0, false
	}
	switch v.ShortTag() {
	case "!!int", "!!float":
		var x float64
		if err := v.Decode(&x); err == nil {
			return x, true
		}
	}
	return 0, false
}

// integer returns the integer value of key and whether it is present and
// valid.
func (o *object) integer(key string) (int, bool) {
	f, ok := o.get(key)
	if !ok {
		return 0, false
	}
	v := f.val()
	if v.Kind == yaml.ScalarNode && v.ShortTag() == "!!int" {
		var i int
		if err := v.Decode(&i); err == nil {
			return i, true
		}
	}
	o.c.report(f.value, o.ctx, "%s: expected a whole number, got %s", key, describe(v))
	return 0, false
}

// strings returns the list of strings under key (nil when absent).
func (o *object) strings(key string) []string { return o.stringList(key, "strings", "") }

// keywords returns the list of non-empty strings under key (nil when
// absent), reporting items that are not strings or are empty.
func (o *object) keywords(key string) []string {
	return o.stringList(key, "words and phrases", "empty keyword: remove it or write a word")
}

// stringList returns the list of strings under key (nil when absent),
// reporting a value that is not a list (what names its items) and items
// that are not strings; with ifEmpty set, empty items are reported with it
// and left out.
func (o *object) stringList(key, what, ifEmpty string) []string {
	f, ok := o.get(key)
	if !ok {
		return nil
	}
	v := f.val()
	if v.Kind != yaml.SequenceNode {
		hint := ""
		if s, ok := scalarString(v); ok && s == clip(s, maxQuoted) {
			hint = fmt.Sprintf("; write %s: [%s]", key, s)
		}
		o.c.report(f.value, o.ctx, "%s: expected a list of %s, got %s%s", key, what, describe(v), hint)
		return nil
	}
	out := make([]string, 0, len(v.Content))
	for _, item := range v.Content {
		ri := deref(item)
		s, ok := scalarString(ri)
		switch {
		case !ok:
			hint := ""
			if ri.Kind == yaml.ScalarNode && ri.ShortTag() == "!!bool" {
				hint = "; quote it: " + quote(ri.Value)
			}
			o.c.report(item, o.ctx, "%s: expected a string in the list, got %s%s", key, describe(ri), hint)
		case ifEmpty != "" && strings.TrimSpace(s) == "":
			o.c.report(item, o.ctx, "%s: %s", key, ifEmpty)
		default:
			out = append(out, s)
		}
	}
	return out
}

// stringMap returns the string-to-string mapping of environment
// variables under key (nil when absent).
func (o *object) stringMap(key string) map[string]string {
	f, ok := o.get(key)
	if !ok {
		return nil
	}
	v := f.val()
	if v.Kind != yaml.MappingNode {
		o.c.report(f.value, o.ctx, "%s: expected a mapping of names to values, got %s", key, describe(v))
		return nil
	}
	out := map[string]string{}
	for _, p := range o.c.pairs(v, o.ctx) {
		if p.name == "" || strings.ContainsAny(p.name, "=\x00") {
			// The environment would read "A=B: x" as A set to "B=x".
			o.c.report(p.key, o.ctx, "%s: %s is not a variable name: a name is not empty and has no \"=\"", key, quote(p.name))
			continue
		}
		pv := p.val()
		if isNull(pv) {
			out[p.name] = ""
			continue
		}
		s, ok := scalarString(pv)
		if !ok {
			if pv.Kind == yaml.ScalarNode {
				s, ok = pv.Value, true // booleans: their text
			} else {
				o.c.report(p.value, o.ctx, "%s: %s: expected a string, got %s", key, p.name, describe(pv))
				continue
			}
		}
		out[p.name] = s
	}
	return out
}

// list returns the items of the sequence under key, or nil after reporting
// that it is not a list. what names an item for messages.
func (o *object) list(key, what string) ([]*yaml.Node, bool) {
	f, ok := o.get(key)
	if !ok {
		return nil, false
	}
	v := f.val()
	if v.Kind != yaml.SequenceNode {
		o.c.report(f.value, o.ctx, "%s: expected a list of %s (lines starting with \"- \"), got %s", key, what, describe(v))
		return nil, false
	}
	return v.Content, true
}
