package config

import (
	"bytes"
	"encoding/json"
)

// Schema is the JSON Schema of a tool's arguments, as sent to MCP clients
// in tools/list (classic mode) and in search results. Properties keep the
// arguments' definition order.
type Schema struct {
	Type       string     `json:"type"`
	Properties Properties `json:"properties"`
	Required   []string   `json:"required,omitempty"`
}

// Property is the schema of one argument.
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
func (ps Properties) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	buf.WriteByte('{')
	for i, p := range ps {
		if i > 0 {
			buf.WriteByte(',')
		}
		// Encode ends each value with a newline; JSON allows whitespace
		// between tokens, and the caller's encoder compacts it away.
		if err := enc.Encode(p.Name); err != nil {
			return nil, err
		}
		buf.WriteByte(':')
		if err := enc.Encode(p); err != nil {
			return nil, err
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// InputSchema returns the JSON Schema of the tool's arguments: every
// argument as a property with its type, description, default and enum (an
// array's enum applies to its items: {"type":"array","items":{"type":
// "string","enum":[...]}}), and
// the required ones listed under "required". Global args are not part of
// it: they are set by the config, not by the caller.
func (t *Tool) InputSchema() Schema {
	s := Schema{Type: "object", Properties: Properties{}}
	for _, a := range t.Args {
		typ := a.Type
		if typ == "" {
			typ = TypeString
		}
		p := Property{
			Name:        a.Name,
			Type:        typ,
			Description: a.Description,
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
// written (json.Marshal would escape them as \u003c and so on).
func (s Schema) JSON() (json.RawMessage, error) { return marshalJSON(s) }

// marshalJSON is json.Marshal without HTML escaping, so that "<", ">" and
// "&" in descriptions reach clients as written.
func marshalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
