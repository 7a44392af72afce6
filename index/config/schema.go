package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"
)

// Schema is the JSON Schema of a tool's arguments, as sent to MCP clients
// in tools/list (classic mode) and in search results. Properties keep the
// arguments' definition order.
type Schema struct {
	Type       string     `json:"type"`
	Properties Properties `json:"properties"`
	Required   []string   `json:"required,omitempty"`
}

// Property is the schema of one argument. A [TypeJSON] property is
// written without "type" (any JSON value).
type Property struct {
	Name        string   `json:"-"`
	Type        ArgType  `json:"type"`
	Items       *Items   `json:"items,omitempty"`
	Description string   `json:"description,omitempty"`
	Default     any      `json:"default,omitempty"`
	Enum        []string `json:"enum,omitempty"`
}

// Items is the schema of an array argument's items.
type Items struct {
	Type ArgType  `json:"type"`
	Enum []string `json:"enum,omitempty"`
}

// Properties is an ordered list of properties that marshals as a JSON
// object in list order.
type Properties []Property

// MarshalJSON writes the properties as one JSON object, in order.
func (ps Properties) MarshalJSON() ([]byte, error) { return ps.appendJSON(nil) }

// appendJSON appends the properties to b as one JSON object, in order.
func (ps Properties) appendJSON(b []byte) ([]byte, error) {
	b = append(b, '{')
	for i, p := range ps {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, p.Name)
		b = append(b, ':', '{')
		if p.Type != TypeJSON {
			// A json arg takes any JSON value: no type restriction.
			b = append(b, `"type":`...)
			b = appendString(b, string(p.Type))
		}
		if p.Items != nil {
			b = append(b, `,"items":{"type":`...)
			b = appendString(b, string(p.Items.Type))
			if len(p.Items.Enum) > 0 {
				b = append(b, `,"enum":`...)
				b = appendEnum(b, p.Items.Type, p.Items.Enum)
			}
			b = append(b, '}')
		}
		if p.Description != "" {
			if b[len(b)-1] != '{' {
				b = append(b, ',')
			}
			b = append(b, `"description":`...)
			b = appendString(b, p.Description)
		}
		if p.Default != nil {
			if b[len(b)-1] != '{' {
				b = append(b, ',')
			}
			b = append(b, `"default":`...)
			var err error
			if b, err = appendValue(b, p.Default); err != nil {
				return nil, fmt.Errorf("argument %s: default: %w", p.Name, err)
			}
		}
		if len(p.Enum) > 0 {
			b = append(b, `,"enum":`...)
			b = appendEnum(b, p.Type, p.Enum)
		}
		b = append(b, '}')
	}
	return append(b, '}'), nil
}

// appendEnum appends the enum values of a property of type typ: numbers
// for an integer or number property (the loader keeps them in their
// canonical form), strings otherwise and for values in no canonical form.
func appendEnum(b []byte, typ ArgType, enum []string) []byte {
	b = append(b, '[')
	for i, e := range enum {
		if i > 0 {
			b = append(b, ',')
		}
		if (typ == TypeInteger || typ == TypeNumber) && IsCanonicalNumber(e) {
			b = append(b, e...)
		} else {
			b = appendString(b, e)
		}
	}
	return append(b, ']')
}

// IsCanonicalNumber reports whether s is a number as [FormatNumber] writes
// it (which is also valid JSON).
func IsCanonicalNumber(s string) bool {
	x, err := strconv.ParseFloat(s, 64)
	return err == nil && !math.IsInf(x, 0) && FormatNumber(x) == s
}

// FormatNumber writes a number as calls' values of number args are
// written on command lines and compared with enums: plain decimal, no
// exponent, the fewest digits that read back as x; 0 for -0.
func FormatNumber(x float64) string {
	if x == 0 {
		return "0"
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// CwdDescription is the input schema's description of a working-directory
// argument (cwd: true) whose config gives none: every tool that has one
// says what it is in the same words.
const CwdDescription = "Working directory (~ is home)"

// InputSchema returns the JSON Schema of the tool's arguments: every
// argument as a property with its type, description ([CwdDescription]
// for a cwd argument without one), default and enum (an
// array's enum applies to its items: {"type":"array","items":{"type":
// "string","enum":[...]}}), and
// the required ones listed under "required". Global args are not part of
// it: they are set by the config, not by the caller.
func (t *Tool) InputSchema() Schema {
	s := Schema{Type: "object", Properties: make(Properties, 0, len(t.Args))}
	for _, a := range t.Args {
		typ := a.Type
		if typ == "" {
			typ = TypeString
		}
		desc := a.Description
		if desc == "" && a.Cwd {
			desc = CwdDescription
		}
		p := Property{
			Name:        a.Name,
			Type:        typ,
			Description: desc,
			Default:     a.Default,
			Enum:        a.Enum,
		}
		if typ == TypeArray {
			// {"type":"array","items":{"type":"string","enum":[...]}}
			p.Items = &Items{Type: a.ItemType(), Enum: a.Enum}
			p.Enum = nil
		}
		s.Properties = append(s.Properties, p)
		if a.Required {
			s.Required = append(s.Required, a.Name)
		}
	}
	return s
}

// JSON returns the schema as compact JSON, with "<", ">" and "&" left as
// written (json.Marshal would escape them as \u003c and so on). It is
// what encoding/json gives without HTML escaping, written directly: every
// tool's schema is made at startup.
func (s Schema) JSON() (json.RawMessage, error) {
	b := make([]byte, 0, 64+96*len(s.Properties))
	b = append(b, `{"type":`...)
	b = appendString(b, s.Type)
	b = append(b, `,"properties":`...)
	b, err := s.Properties.appendJSON(b)
	if err != nil {
		return nil, err
	}
	if len(s.Required) > 0 {
		b = append(b, `,"required":`...)
		b = appendStrings(b, s.Required)
	}
	return append(b, '}'), nil
}

// appendStrings appends ss to b as a JSON array of strings.
func appendStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

// appendValue appends v to b as JSON: strings, booleans and integers
// directly, other values through encoding/json.
func appendValue(b []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case string:
		return appendString(b, v), nil
	case bool:
		return strconv.AppendBool(b, v), nil
	case int:
		return strconv.AppendInt(b, int64(v), 10), nil
	case int64:
		return strconv.AppendInt(b, v, 10), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...), nil
}

// AppendJSONString appends s to b as a JSON string, as encoding/json's
// Encoder writes it with SetEscapeHTML(false) ([appendString]), into b's
// own capacity: a caller that sized b writes a long string without the
// Encoder's growing buffer.
func AppendJSONString(b []byte, s string) []byte { return appendString(b, s) }

// appendString appends s to b as a JSON string, escaped as encoding/json
// escapes it without HTML escaping: quotes, backslashes and control
// characters; invalid UTF-8 becomes U+FFFD; U+2028 and U+2029 are escaped
// for JavaScript.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
