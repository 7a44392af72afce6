package config_test

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/climax-mcp/climax/index/config"
)

// patternPolicy returns the YAML of a policy that constrains arg "a" of
// tool "t" with pattern.
func patternPolicy(t testing.TB, pattern string) []byte {
	data, err := yaml.Marshal(map[string]any{"tools": map[string]any{"t": map[string]any{"args": map[string]any{"a": map[string]any{"pattern": pattern}}}}})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// constraint loads a policy with pattern for arg "a" of a tool "t" and
// returns the constraint as calls check it, or the loading error.
func constraint(t testing.TB, pattern string) (*config.ArgConstraint, error) {
	p, err := config.ParsePolicy(patternPolicy(t, pattern), "p.yaml")
	if err != nil {
		return nil, err
	}
	cfg := &config.Config{Name: "c", Command: "c", Tools: []config.Tool{{Name: "t", Description: "d", Args: []config.Arg{{Name: "a", Type: config.TypeString}}}}}
	set, _, err := config.Apply([]*config.Config{cfg}, p)
	if err != nil {
		t.Fatalf("Apply with an accepted policy: %v", err)
	}
	return set.Tools[0].Constraints["a"], nil
}

// TestPatternCannotBreakOut checks that a pattern that only makes sense
// inside the text the anchors are added to is refused.
func TestPatternCannotBreakOut(t *testing.T) {
	for _, pattern := range []string{"safe)|(.*", "a)|(b", ")|.*|(", "x)|(?:.*"} {
		_, err := config.ParsePolicy(patternPolicy(t, pattern), "p.yaml")
		if err == nil || !strings.Contains(err.Error(), "pattern is not a valid Go regular expression (error parsing regexp: unexpected ): `") {
			t.Errorf("pattern %q: error %v; want it refused on its own", pattern, err)
		}
	}
}

// TestPatternEmpty checks that an empty pattern, which would allow any
// value while it reads as allowing only the empty one, is refused.
func TestPatternEmpty(t *testing.T) {
	_, err := config.ParsePolicy(patternPolicy(t, ""), "p.yaml")
	want := `p.yaml:5:26: tool "t": arg "a": pattern is empty: remove it to allow any value, or write pattern: "^$" to allow only the empty value`
	if err == nil || err.Error() != want {
		t.Errorf("error %v\nwant %s", err, want)
	}
	c, err := constraint(t, "^$")
	if err != nil || !c.MatchString("") || c.MatchString("x") {
		t.Errorf(`pattern "^$": %v`, err)
	}
}

// TestPatternMatchesWholeValue checks that a value must match a pattern as
// a whole, with one alternative of an alternation, whatever the pattern
// text.
func TestPatternMatchesWholeValue(t *testing.T) {
	tests := []struct {
		pattern   string
		match, no []string
	}{
		{"a|b", []string{"a", "b"}, []string{"ab", "ba", "", "a\n", "xa"}},
		{"a|ab", []string{"a", "ab"}, []string{"abb", "b"}},
		{"^src/.*", []string{"src/a"}, []string{"x/src/a", "src/a\nb"}},
		{"(?m)^a$", []string{"a"}, []string{"a\nb", "b\na", "a\n"}},
		{"a$|b", []string{"a", "b"}, []string{"ab", "a\n"}},
		{"(?s).*", []string{"", "a\nb"}, nil},
		{"(?i)safe|x", []string{"SAFE", "X"}, []string{"safex"}},
		{`x\Q`, []string{"x"}, []string{`x)$`, "x)"}},            // \Q to the end: valid alone
		{`\Q)|(.*`, []string{")|(.*"}, []string{"anything", ""}}, // quoted: literal text
		{`[^/.][^.]*`, []string{"a/b"}, []string{"/etc", "a/../b", ".."}},
	}
	for _, tt := range tests {
		c, err := constraint(t, tt.pattern)
		if err != nil {
			t.Errorf("pattern %q: %v", tt.pattern, err)
			continue
		}
		for _, s := range tt.match {
			if !c.MatchString(s) {
				t.Errorf("pattern %q does not match %q", tt.pattern, s)
			}
		}
		for _, s := range tt.no {
			if c.MatchString(s) {
				t.Errorf("pattern %q matches %q", tt.pattern, s)
			}
		}
	}
}

// TestToolArgPattern checks the pattern of a tool's argument as Apply
// resolves it: a pattern that does not parse is refused at once, and one
// that does matches whole values (it is compiled at its first match).
func TestToolArgPattern(t *testing.T) {
	tool := func(pattern string) []*config.Config {
		return []*config.Config{{Name: "c", Command: "c", Tools: []config.Tool{{Name: "t", Description: "d",
			Args: []config.Arg{{Name: "a", Type: config.TypeString, Pattern: pattern}}}}}}
	}
	if _, _, err := config.Apply(tool("a)|(b"), nil); err == nil || !strings.Contains(err.Error(), `tool t, arg a: invalid pattern`) {
		t.Errorf("a pattern that does not parse: error %v", err)
	}
	set, _, err := config.Apply(tool(`(?s)[^@].*|x`), nil)
	if err != nil {
		t.Fatal(err)
	}
	p := set.Tools[0].Patterns["a"]
	for s, want := range map[string]bool{"abc": true, "x": true, "@x": false, "": false, "a\nb": true} {
		if got := p.MatchString(s); got != want {
			t.Errorf("MatchString(%q) = %v, want %v", s, got, want)
		}
	}
}
