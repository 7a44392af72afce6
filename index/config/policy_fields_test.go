package config_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/index/config"
)

// TestParsePolicyItems checks min_items and max_items: whole numbers of 0
// or more, min not above max.
func TestParsePolicyItems(t *testing.T) {
	p, err := config.ParsePolicy([]byte("default: read_only\ntools:\n  t:\n    args:\n      a: {min_items: 1, max_items: 3, pattern: 'x.*'}\n"), "p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	con := p.Tools["t"].Args["a"]
	if p.Default != config.PolicyReadOnly || con.MinItems == nil || *con.MinItems != 1 || con.MaxItems == nil || *con.MaxItems != 3 || con.Pattern != "x.*" {
		t.Errorf("policy = %+v, constraint = %+v", p, con)
	}

	_, err = config.ParsePolicy([]byte("tools:\n  t:\n    args:\n      a: {min_items: -1, max_items: 1.5}\n      b: {min_items: 4, max_items: 2}\n"), "p.yaml")
	want := []string{
		`p.yaml:4:22: tool "t": arg "a": min_items must be 0 or more, got -1`,
		`p.yaml:4:37: tool "t": arg "a": max_items: expected a whole number, got a number (1.5)`,
		`p.yaml:5:22: tool "t": arg "b": min_items (4) is greater than max_items (2): swap them`,
	}
	if got := problemStrings(t, err); !slices.Equal(got, want) {
		t.Errorf("problems:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func boolp(b bool) *bool { return &b }

// readOnlyConfig has a read-only tool, a tool annotated read_only: false
// and one without annotations.
func readOnlyConfig() *config.Config {
	return &config.Config{Name: "x", Command: "x", Source: "x.yaml", Tools: []config.Tool{
		{Name: "x_show", Description: "d", ReadOnly: boolp(true)},
		{Name: "x_edit", Description: "d", ReadOnly: boolp(false), Destructive: boolp(false)},
		{Name: "x_drop", Description: "d", Args: []config.Arg{{Name: "n", Type: config.TypeString}}},
	}}
}

func toolNames(set *config.ToolSet) []string {
	var names []string
	for _, rt := range set.Tools {
		names = append(names, rt.Tool.Name)
	}
	return names
}

// TestApplyReadOnly checks that default: read_only and ReadOnlyPolicy (climax
// --read-only) keep only read-only tools, and that the latter intersects
// with the policy it restricts.
func TestApplyReadOnly(t *testing.T) {
	disabled := &config.Policy{Default: config.PolicyDisabled, Source: "p.yaml", Tools: map[string]config.ToolPolicy{
		"x_show": {}, "x_edit": {Pos: config.Pos{Line: 3, Column: 3}},
	}}
	tests := []struct {
		name     string
		policy   *config.Policy
		want     []string
		warnings []string
	}{
		{"no policy", nil, []string{"x_show", "x_edit", "x_drop"}, nil},
		{"read-only flag without a policy", config.ReadOnlyPolicy(nil), []string{"x_show"}, nil},
		{"default read_only", &config.Policy{Default: config.PolicyReadOnly, Source: "p.yaml", Tools: map[string]config.ToolPolicy{
			"x_drop": {Pos: config.Pos{Line: 2, Column: 3}},
		}}, []string{"x_show"}, []string{
			`p.yaml:2:3: policy lists tool "x_drop", which is not annotated read_only: default: read_only leaves it out`,
		}},
		{"disabled policy", disabled, []string{"x_show", "x_edit"}, nil},
		{"read-only flag with a disabled policy", config.ReadOnlyPolicy(disabled), []string{"x_show"}, []string{
			`p.yaml:3:3: policy lists tool "x_edit", which is not annotated read_only: --read-only leaves it out`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, warnings, err := config.Apply([]*config.Config{readOnlyConfig()}, tt.policy)
			if err != nil {
				t.Fatal(err)
			}
			if got := toolNames(set); !slices.Equal(got, tt.want) {
				t.Errorf("tools = %v, want %v", got, tt.want)
			}
			var got []string
			for _, w := range warnings {
				got = append(got, w.String())
			}
			if !slices.Equal(got, tt.warnings) {
				t.Errorf("warnings = %q, want %q", got, tt.warnings)
			}
		})
	}
	if disabled.ReadOnly {
		t.Error("ReadOnlyPolicy changed the policy it was given")
	}
}

// TestApplyArrayConstraintErrors checks that bounds that cannot apply
// to an arg are load errors: min and max on an array of strings,
// min_items and max_items on an arg that is not an array.
func TestApplyArrayConstraintErrors(t *testing.T) {
	cfg := &config.Config{Name: "x", Command: "x", Tools: []config.Tool{{Name: "t", Description: "d", Args: []config.Arg{
		{Name: "paths", Type: config.TypeArray, Items: config.TypeString},
		{Name: "ns", Type: config.TypeArray, Items: config.TypeInteger},
		{Name: "s", Type: config.TypeString},
		{Name: "i", Type: config.TypeInteger},
	}}}}
	one := 1.0
	n := 2
	pol := &config.Policy{Default: config.PolicyEnabled, Source: "p.yaml", Tools: map[string]config.ToolPolicy{"t": {Args: map[string]config.Constraint{
		"paths": {Max: &one, MaxItems: &n, Pos: config.Pos{Line: 1, Column: 1}},
		"ns":    {Max: &one, MinItems: &n, Pos: config.Pos{Line: 2, Column: 1}},
		"s":     {MinItems: &n, Pos: config.Pos{Line: 3, Column: 1}},
		"i":     {MaxItems: &n, Pos: config.Pos{Line: 4, Column: 1}},
	}}}}
	_, _, err := config.Apply([]*config.Config{cfg}, pol)
	got := problemStrings(t, err)
	want := []string{
		`p.yaml:1:1: policy for tool "t": arg "paths" is an array of string: min and max only apply to integer and number values; remove them, or make the items integer or number in the config`,
		`p.yaml:3:1: policy for tool "t": arg "s" is a string: min_items and max_items only apply to array args; remove them, or make the arg an array in the config`,
		`p.yaml:4:1: policy for tool "t": arg "i" is an integer: min_items and max_items only apply to array args; remove them, or make the arg an array in the config`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("problems:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
