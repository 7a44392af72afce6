package config

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// mergeBomb is a config of seven levels of merge keys, each merging the
// level before 16 times: 476 bytes that stand for 16^7 mappings.
func mergeBomb() string {
	var b strings.Builder
	b.WriteString("command: x\ntools:\n- &a {name: t, description: d}\n")
	prev := "a"
	for _, name := range []string{"b", "c", "d", "e", "f", "g", "h"} {
		b.WriteString("- &" + name + " {<<: [*" + prev + strings.Repeat(",*"+prev, 15) + "]}\n")
		prev = name
	}
	return b.String()
}

// listBomb is a config of 1,000 aliases of a tool whose args are 1,000
// aliases of one arg: 13 KB that stand for a million args.
func listBomb() string {
	return "command: x\nx: &arg {name: a}\ny: &tool {name: t, description: d, args: [*arg" + strings.Repeat(", *arg", 999) +
		"]}\ntools: [*tool" + strings.Repeat(", *tool", 999) + "]\n"
}

func loadError(t *testing.T, err error) *LoadError {
	t.Helper()
	var le *LoadError
	if !errors.As(err, &le) {
		t.Fatalf("error %v (%T) is not a *LoadError", err, err)
	}
	return le
}

func TestAliasBombs(t *testing.T) {
	tests := []struct {
		name, src string
		policy    bool
		want      string
	}{
		{
			name: "merge keys", src: mergeBomb(),
			want: "t.yaml:6:33: too many expanded aliases/merge keys: expanding *c here goes past the limit (11904 nodes for a file of 476 bytes); repeat less through aliases",
		},
		{
			name: "lists", src: listBomb(),
			want: "t.yaml:4:142: too many expanded aliases/merge keys: expanding *tool here goes past the limit (62320 nodes for a file of 13080 bytes); repeat less through aliases",
		},
		{
			name: "policy", policy: true,
			src:  "a: &a {x: [1, 2, 3, 4, 5, 6, 7, 8]}\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c]\ntools: [*d, *d, *d, *d, *d, *d, *d, *d]\n",
			want: "t.yaml:5:9: too many expanded aliases/merge keys: expanding *d here goes past the limit (10772 nodes for a file of 193 bytes); repeat less through aliases",
		},
		{
			name: "recursive alias", src: "command: x\ntools: &t [*t]\n",
			want: "t.yaml:2:12: alias *t is used inside the node it names: YAML aliases cannot contain themselves; write the value out",
		},
		{
			name: "recursive merge", src: "command: x\ntools:\n  - &a {name: t, description: d, <<: *a}\n",
			want: "t.yaml:3:38: alias *a is used inside the node it names: YAML aliases cannot contain themselves; write the value out",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.policy {
				_, err = ParsePolicy([]byte(tt.src), "t.yaml")
			} else {
				_, err = Parse([]byte(tt.src), "t.yaml")
			}
			le := loadError(t, err)
			if len(le.Problems) != 1 || le.Omitted != 0 || le.Problems[0].String() != tt.want {
				t.Errorf("problems (%d more):\n  %s\nwant only:\n  %s", le.Omitted, strings.Join(problemLines(t, err), "\n  "), tt.want)
			}
		})
	}
}

// TestAliasesWithinLimit checks that configs that share args and settings
// through anchors, aliases and merge keys, as configs do, still load.
func TestAliasesWithinLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("command: x\ntools:\n  - &first {name: t0, description: d, timeout: 5, max_output: 1000, args: &args [")
	for i := range 10 {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "{name: a%d, description: an arg with a longer description, type: string, flag: --a%d}", i, i)
	}
	b.WriteString("]}\n")
	for i := 1; i < 60; i++ {
		fmt.Fprintf(&b, "  - {<<: *first, name: t%d, args: *args}\n", i)
	}
	c, err := Parse([]byte(b.String()), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Tools) != 60 || len(c.Tools[59].Args) != 10 || c.Tools[59].Timeout != 5 || c.Tools[59].Name != "t59" {
		t.Errorf("tools = %d, last = %+v", len(c.Tools), c.Tools[len(c.Tools)-1])
	}
}

func TestProblemsCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString("command: x\ntools:\n")
	for i := range 120 {
		fmt.Fprintf(&b, "  - {name: t%d, description: d, bogus: 1}\n", i)
	}
	_, err := Parse([]byte(b.String()), "t.yaml")
	le := loadError(t, err)
	if len(le.Problems) != MaxProblems || le.Omitted != 120-MaxProblems {
		t.Fatalf("%d problems, %d omitted; want %d and %d", len(le.Problems), le.Omitted, MaxProblems, 120-MaxProblems)
	}
	for i, p := range le.Problems {
		if p.Line != i+3 {
			t.Fatalf("problem %d at line %d, want %d: the first by position", i, p.Line, i+3)
		}
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != MaxProblems+1 || lines[MaxProblems] != "t.yaml: … and 70 more problems" {
		t.Errorf("Error() has %d lines, ending %q", len(lines), lines[len(lines)-1])
	}
}

// TestProblemsCappedByPosition checks that the problems kept are the first
// by position whatever the order they are found in, the first found first
// among equal positions.
func TestProblemsCappedByPosition(t *testing.T) {
	c := &checker{file: "t.yaml"}
	for i := range 3 * MaxProblems {
		line := 3*MaxProblems - i
		c.add(Problem{File: "t.yaml", Line: line, Message: "a"})
		c.add(Problem{File: "t.yaml", Line: line, Message: "b"})
	}
	le := c.err().(*LoadError)
	if len(le.Problems) != MaxProblems || le.Omitted != 5*MaxProblems {
		t.Fatalf("%d problems, %d omitted", len(le.Problems), le.Omitted)
	}
	for i, p := range le.Problems {
		want := Problem{File: "t.yaml", Line: i/2 + 1, Message: []string{"a", "b"}[i%2]}
		if p != want {
			t.Fatalf("problem %d = %+v, want %+v", i, p, want)
		}
	}
}

// TestLongValuesQuotedShort checks that messages quote at most the first
// 80 bytes of a value, on one line, whatever the value and wherever it is.
func TestLongValuesQuotedShort(t *testing.T) {
	long := strings.Repeat("x\x1b[31m\n", 20_000) // 140 KB with escapes and newlines
	q := strconv.Quote(long[:80]) + "…"
	configs := []struct{ name, src, want string }{
		{"unknown key", "command: x\ntools: []\n? " + yamlString(long) + "\n: 1\n", `unknown key ` + q},
		{"tool name", "command: x\ntools:\n  - name: " + yamlString(long) + "\n    description: d\n", `tool ` + q + `: invalid tool name`},
		{"arg type", "command: x\ntools:\n  - name: t\n    description: d\n    args: [{name: a, type: " + yamlString(long) + "}]\n", `unknown type ` + q},
		{"number", "command: x\ntools:\n  - name: t\n    description: d\n    args: [{name: a, required: 0." + strings.Repeat("9", 100_000) + "}]\n", "required: expected true or false, got a number (0." + strings.Repeat("9", 78) + "…)"},
		{"top level", yamlString(long) + "\n", `got ` + q},
		{"enum", "command: x\ntools:\n  - name: t\n    description: d\n    args: [{name: a, type: integer, enum: [" + yamlString(long) + "]}]\n", `enum value ` + q + ` is not an integer`},
		{"list hint", "command: x\ntags: " + strings.Repeat("y", 1000) + "\ntools: []\n", `tags: expected a list of strings, got "yyyy`},
		{"unknown anchor", "command: *" + strings.Repeat("z", 100_000) + "\ntools: []\n", "invalid YAML: unknown anchor 'zzzz"},
		{"passwd", "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\nbin:x:2:2:bin:/bin:/usr/sbin/nologin\n", `got "root:x:0:0:root:/root:/bin/bash daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin "…: a config`},
	}
	for _, tt := range configs {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.src), "t.yaml")
			checkShort(t, err, tt.want)
		})
	}
	policies := []struct{ name, src, want string }{
		{"tool", "tools:\n  ? " + yamlString(long) + "\n  : {bogus: 1}\n", "tool " + q + `: unknown key "bogus"`},
		{"pattern", "tools:\n  t: {args: {a: {pattern: " + yamlString(strings.Repeat("(", 100_000)) + "}}}\n", "pattern is not a valid Go regular expression (error parsing regexp: missing closing ): `((((("},
		{"executor type", "executor: {type: " + yamlString(long) + "}\n", "unknown type " + q},
	}
	for _, tt := range policies {
		t.Run("policy "+tt.name, func(t *testing.T) {
			_, err := ParsePolicy([]byte(tt.src), "t.yaml")
			checkShort(t, err, tt.want)
		})
	}
	t.Run("policy warnings", func(t *testing.T) {
		p, err := ParsePolicy([]byte("tools:\n  ? "+yamlString(long)+"\n  : {}\n  t: {args: {? "+yamlString(long)+": {}}}\n"), "t.yaml")
		if err != nil {
			t.Fatal(err)
		}
		_, warnings, err := Apply([]*Config{{Name: "c", Tools: []Tool{{Name: "t"}}}}, p)
		if err != nil || len(warnings) != 2 {
			t.Fatalf("warnings %v, err %v", warnings, err)
		}
		checkShort(t, &LoadError{File: "t.yaml", Problems: warnings}, "unknown tool "+q)
		checkShort(t, &LoadError{File: "t.yaml", Problems: warnings}, "unknown arg "+q)
	})
}

// yamlString writes s as a double-quoted YAML string.
func yamlString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\x1b", `\e`)
	return `"` + r.Replace(s) + `"`
}

// checkShort checks that err lists problems of at most 300 bytes each, on
// one line, one of which contains want.
func checkShort(t *testing.T, err error, want string) {
	t.Helper()
	found := false
	for _, line := range problemLines(t, err) {
		if len(line) > 300 {
			t.Errorf("problem of %d bytes: %.300s", len(line), line)
		}
		if strings.ContainsAny(line, "\n\x1b") {
			t.Errorf("problem not on one line: %q", line)
		}
		found = found || strings.Contains(line, want)
	}
	if !found {
		t.Errorf("no problem contains %s:\n  %s", want, strings.Join(problemLines(t, err), "\n  "))
	}
}

func TestQuote(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", `""`},
		{"git", `"git"`},
		{"a\nb\x00\u202e", `"a\nb\x00\u202e"`},
		{strings.Repeat("é", 50), `"` + strings.Repeat("é", 40) + `"…`},
		{strings.Repeat("a", 79) + "é", `"` + strings.Repeat("a", 79) + `"…`},
		{strings.Repeat("a", 80), `"` + strings.Repeat("a", 80) + `"`},
	} {
		if got := quote(tt.in); got != tt.want {
			t.Errorf("quote(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{
		{"unknown anchor 'a\nb' referenced", 100, `unknown anchor 'a\nb' referenced`},
		{"\xff\uFFFD", 100, `\xff` + "\uFFFD"},
		{"abcdef", 3, "abc…"},
		{"aé", 2, "a…"},
	} {
		if got := clip(tt.in, tt.n); got != tt.want {
			t.Errorf("clip(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

func TestTinyTimeouts(t *testing.T) {
	for _, tt := range []struct {
		timeout, want string
	}{
		{"0.0000000001", `t.yaml:3:40: tool "t": timeout must be at least 0.001 seconds (1 ms), got 1e-10`},
		{"0.0009", `t.yaml:3:40: tool "t": timeout must be at least 0.001 seconds (1 ms), got 0.0009`},
		{"0.001", ""},
	} {
		src := "command: x\ntools:\n  - {name: t, description: d, timeout: " + tt.timeout + "}\n"
		c, err := Parse([]byte(src), "t.yaml")
		if tt.want == "" {
			if err != nil || c.Tools[0].Timeout != 0.001 {
				t.Errorf("timeout %s: %v", tt.timeout, err)
			}
			continue
		}
		if err == nil || err.Error() != tt.want {
			t.Errorf("timeout %s: error %v\nwant %s", tt.timeout, err, tt.want)
		}
	}
}
